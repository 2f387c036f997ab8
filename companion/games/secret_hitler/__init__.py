"""Secret Hitler (Goat, Wolf & Cabbage; rules CC BY-NC-SA 4.0): rules engine per docs/RULES.md,
Secret Hitler; rulings in RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `state` (State and
the fixed tables) · `actions` (schemas, phase -> action types) · `legal` · `chance` (deal, draws, peek) ·
`election`, `legislation`, `powers` and `flow` (the actions) · `views` · `rules` (the Rules subclass, `RULES`)
· `binding`.
"""

from companion.games.declaration import Game
from companion.games.secret_hitler.fields import FIELDS
from companion.games.secret_hitler.binding import BINDING
from companion.games.secret_hitler.codes import Phase, Reason
from companion.games.secret_hitler.rules import RULES, SecretHitler

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "SecretHitler"]

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=7)
"""The game's declaration: all the rest of the companion reads of it."""
