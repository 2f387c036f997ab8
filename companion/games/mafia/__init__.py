"""Mafia (also called Werewolf; a public-domain party game): rules engine per docs/RULES.md, Mafia; rulings in
RULINGS.md, its words in English and Korean in GLOSSARY.md.

A small game, so its engine is two modules: `state` (phases, reasons, refusal and log codes, the roles and the
role mix, State, phase -> action types, and `FIELDS`: what each view field holds) and `rules` (the deal, the
night, dawn, the day's vote, the end, legal actions, views and the reveal, the Rules subclass, `RULES`); then
`binding`, and the page's `board.js` and `board.css`.
"""

from companion.games.declaration import Game
from companion.games.mafia.binding import BINDING
from companion.games.mafia.rules import RULES, Mafia
from companion.games.mafia.state import FIELDS, Phase, Reason

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "Mafia"]

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=8)
"""The game's declaration: all the rest of the companion reads of it."""
