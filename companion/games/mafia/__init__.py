"""Mafia (also called Werewolf; a public-domain party game): rules engine per docs/RULES.md, Mafia; rulings in
RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `state` (State,
roles and the role mix) · `actions` (schemas, phase -> action types) · `legal` · `chance` (the deal) · `play`
(the night, dawn, the day's vote, the end) · `views` (views and the reveal) · `rules` (the Rules subclass,
`RULES`) · `binding`.
"""

from companion.games.mafia.binding import BINDING
from companion.games.mafia.codes import Phase, Reason
from companion.games.mafia.rules import RULES, Mafia

__all__ = ["BINDING", "RULES", "Phase", "Reason", "Mafia"]
