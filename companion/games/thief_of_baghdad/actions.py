"""Thief of Baghdad's action vocabulary (docs/RULES.md, Thief of Baghdad, "Actions") and each phase's types."""

from __future__ import annotations

from typing import Mapping

from companion.games.thief_of_baghdad import moves, turns
from companion.games.schema import ActionSpec, boolean, list_of, one_of, opt, seat
from companion.games.thief_of_baghdad.board import CARD_NAMES, COLORS
from companion.games.thief_of_baghdad.codes import Phase

_palace = one_of(*COLORS)
_cards = list_of(one_of(*CARD_NAMES), max_len=32)

ACTIONS: Mapping[str, ActionSpec] = {  # docs/RULES.md, Thief of Baghdad, "Actions"; read-only
    "deal": ActionSpec({"hands": list_of(list_of(one_of(*CARD_NAMES), max_len=32), per_seat=True)}, chance=True,
                       handler=turns.deal),
    "place_guard": ActionSpec({"palace": _palace}, handler=moves.place_guard),
    "infiltrate": ActionSpec({"palace": _palace, "cards": _cards}, handler=moves.infiltrate),
    "move_guard": ActionSpec({"from": _palace, "to": _palace, "cards": _cards, "with_thief": opt(boolean(), False)},
                             handler=moves.move_guard),
    "move_neutral": ActionSpec({"from": _palace, "to": _palace, "cards": _cards}, handler=moves.move_neutral),
    "end_turn": ActionSpec({"take_dancer": opt(boolean(), False)}, handler=turns.end_turn),
    "draw": ActionSpec({"cards": _cards, "target": opt(seat())}, chance=True, handler=turns.draw),
}

ALLOWED: Mapping[Phase, frozenset[str]] = {  # phase -> action types; anything else is wrong_phase
    Phase.DEAL: frozenset({"deal"}),
    Phase.PLACE: frozenset({"place_guard"}),
    Phase.TURN: frozenset({"infiltrate", "move_guard", "move_neutral", "end_turn"}),
    Phase.DRAW: frozenset({"draw"}),
    Phase.OVER: frozenset(),
}
