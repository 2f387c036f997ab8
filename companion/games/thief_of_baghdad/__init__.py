"""Thief of Baghdad (바그다드의 도둑): rules engine per docs/RULES.md, Thief of Baghdad; rulings in RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `board` (fixed
components) · `state` · `actions` (schemas, phase -> action types) · `legal` · `chance` (deal and draws) ·
`moves` and `turns` (the actions) · `payments` · `views` · `rules` (the Rules subclass, `RULES`) · `binding`.
"""

from companion.games.declaration import Game
from companion.games.thief_of_baghdad.fields import FIELDS
from companion.games.thief_of_baghdad.binding import BINDING
from companion.games.thief_of_baghdad.codes import Phase, Reason
from companion.games.thief_of_baghdad.rules import RULES, ThiefOfBaghdad

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "ThiefOfBaghdad"]

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=3, one_winner=True)
"""The game's declaration: all the rest of the companion reads of it."""
