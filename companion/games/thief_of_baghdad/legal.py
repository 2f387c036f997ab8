"""The legal actions of the acting seat: one representative per distinct multiset of cards paid."""

from __future__ import annotations

from typing import Any

from companion.games.thief_of_baghdad.board import (
    COLORS, DANCER_INDEX, GUARD_SPACES, PALACES, THIEF_MOVES_PER_TURN,
)
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.payments import (
    INFILTRATE_OPTIONS, MOVE_GUARD_OPTIONS, MOVE_NEUTRAL_OPTIONS, affordable,
)
from companion.games.thief_of_baghdad.state import State


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action `apply` accepts from `seat` now (the caller checked that it is to act)."""
    at = [state.guards_at(p) for p in range(PALACES)]
    free = [sum(g) < GUARD_SPACES for g in at]
    if state.phase is Phase.PLACE:
        return [{"type": "place_guard", "seat": seat, "palace": COLORS[p]} for p in range(PALACES) if free[p]]
    if state.phase is not Phase.TURN:
        return []
    out: list[dict[str, Any]] = []
    hand = state.hand(seat)
    thief_move = state.thief_moves < THIEF_MOVES_PER_TURN
    neutral = state.seats
    if thief_move and state.supply[seat]:
        for p, guards in enumerate(at):
            foreign = sum(guards) - guards[seat]
            if guards[seat] and foreign:
                for cards in affordable(INFILTRATE_OPTIONS[p][foreign], hand):
                    out.append({"type": "infiltrate", "seat": seat, "palace": COLORS[p], "cards": list(cards)})
    dancer = hand[DANCER_INDEX] > 0
    for o in range(PALACES):
        if not at[o][seat]:
            continue
        carry = (False, True) if thief_move and state.thief(o, seat) else (False,)
        for d in range(PALACES):
            # Cheap pre-check: no card of either colour and no dancer means no way to pay.
            if d != o and free[d] and (dancer or hand[o] or hand[d]):
                for cards in affordable(MOVE_GUARD_OPTIONS[o][d], hand):
                    for with_thief in carry:
                        out.append({"type": "move_guard", "seat": seat, "from": COLORS[o], "to": COLORS[d],
                                    "cards": list(cards), "with_thief": with_thief})
    for o in range(PALACES):
        if not at[o][neutral] or not (dancer or hand[o]):
            continue
        for d in range(PALACES):
            if d != o and free[d] and (dancer or hand[d]):
                for cards in affordable(MOVE_NEUTRAL_OPTIONS[o][d], hand):
                    out.append({"type": "move_neutral", "seat": seat, "from": COLORS[o], "to": COLORS[d],
                                "cards": list(cards)})
    out.append({"type": "end_turn", "seat": seat, "take_dancer": False})
    if not state.acted and state.dancers:
        out.append({"type": "end_turn", "seat": seat, "take_dancer": True})
    return out
