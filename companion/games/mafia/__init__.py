"""Mafia (also called Werewolf; a public-domain party game): rules engine per docs/RULES.md, Mafia; rulings in
RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `state` (State,
roles and the role mix) · `actions` (schemas, phase -> action types) · `legal` · `chance` (the deal) · `play`
(the night, dawn, the day's vote, the end) · `views` (views and the reveal) · `rules` (the Rules subclass,
`RULES`) · `binding`; the page's `board.js` and `board.css`.
"""

from companion.games.declaration import Game
from companion.games.mafia.binding import BINDING
from companion.games.mafia.codes import Phase, Reason
from companion.games.mafia.rules import RULES, Mafia

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "Mafia"]

GAME = Game(rules=RULES, binding=BINDING, demo_seats=8)
"""The game's declaration: all the rest of the companion reads of it."""
