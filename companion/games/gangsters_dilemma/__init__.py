"""Gangster's Dilemma (Eagle-Gryphon Games 2020): rules engine per docs/RULES.md, Gangster's Dilemma;
rulings in RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `board` (loot,
locations, characters, scoring) · `options` (validation, the invented sample deck) · `state` (immutable State,
the Work copy used inside one apply) · `actions` (schemas, phase -> action types) · `legal` · `chance` ·
`handlers` (one function per action) and `resolve` (reveal, locations 1→6, trades, demands, end of round) ·
`views` · `rules` (the Rules subclass, `RULES`) · `binding`.
"""

from companion.games.declaration import Game
from companion.games.gangsters_dilemma.fields import FIELDS
from companion.games.gangsters_dilemma.binding import BINDING
from companion.games.gangsters_dilemma.codes import Phase, Reason
from companion.games.gangsters_dilemma.rules import RULES, GangstersDilemma

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "GangstersDilemma"]

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=5)
"""The game's declaration: all the rest of the companion reads of it."""
