"""Boss's Wallet's action vocabulary (docs/RULES.md, Boss's Wallet); the action types of each phase are in `legal`."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from companion.games.boss_wallet import roundend, turns
from companion.games.schema import ActionSpec, integer, list_of, opt, seat, text

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "setup": ActionSpec({"coins": list_of(integer(), per_seat=True),
                         "hands": opt(list_of(list_of(text(), max_len=200), per_seat=True))}, chance=True,
                         handler=turns.apply_setup),
    "draw": ActionSpec({}, handler=turns.apply_draw),
    "draw_card": ActionSpec({"target": seat(), "card": text()}, chance=True, handler=turns.apply_draw_card),
    "put": ActionSpec({"card": opt(text())}, handler=turns.apply_put),
    "buy_id": ActionSpec({"paid": list_of(text(), min_len=1, max_len=100), "id_card": text()},
                         handler=turns.apply_buy_id),
    "flip": ActionSpec({}, handler=turns.apply_flip),
    "special": ActionSpec({"card": text()}, handler=turns.apply_special),
    "pass": ActionSpec({}, handler=roundend.apply_pass),
    "reveal_hand": ActionSpec({"target": seat(), "cards": list_of(text(), max_len=200)}, chance=True,
                              handler=roundend.apply_reveal_hand),
    "credit": ActionSpec({}, handler=roundend.apply_credit),
    "credit_draw": ActionSpec({"cards": list_of(text(), max_len=200), "target": opt(seat())}, chance=True,
                              handler=roundend.apply_credit_draw),
    "investigate": ActionSpec({"target": seat()}, handler=roundend.apply_investigate),
    "return_chip": ActionSpec({"chip": integer(1, 3)}, handler=roundend.apply_return_chip),
    "award": ActionSpec({"target": seat(), "chips": list_of(integer(1, 3), max_len=4)}, chance=True,
                        handler=roundend.apply_award),
})
"""The action vocabulary of docs/RULES.md, Boss's Wallet."""
