"""Boss's Wallet's action vocabulary (docs/RULES.md, Boss's Wallet); the action types of each phase are in `legal`."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from companion.games.schema import ActionSpec, integer, list_of, opt, seat, text

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "setup": ActionSpec({"coins": list_of(integer(), per_seat=True),
                         "hands": opt(list_of(list_of(text(), max_len=200), per_seat=True))}, chance=True),
    "draw": ActionSpec({}),
    "draw_card": ActionSpec({"target": seat(), "card": text()}, chance=True),
    "put": ActionSpec({"card": opt(text())}),
    "buy_id": ActionSpec({"paid": list_of(text(), min_len=1, max_len=100), "id_card": text()}),
    "flip": ActionSpec({}),
    "special": ActionSpec({"card": text()}),
    "pass": ActionSpec({}),
    "reveal_hand": ActionSpec({"target": seat(), "cards": list_of(text(), max_len=200)}, chance=True),
    "credit": ActionSpec({}),
    "credit_draw": ActionSpec({"cards": list_of(text(), max_len=200), "target": opt(seat())}, chance=True),
    "investigate": ActionSpec({"target": seat()}),
    "return_chip": ActionSpec({"chip": integer(1, 3)}),
    "award": ActionSpec({"target": seat(), "chips": list_of(integer(1, 3), max_len=4)}, chance=True),
})
"""The action vocabulary of docs/RULES.md, Boss's Wallet."""
