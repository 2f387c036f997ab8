"""Shared setup for the Thief of Baghdad unit tests."""

from __future__ import annotations

from typing import Any

from companion.games import get_rules
from companion.games.thief_of_baghdad.board import COLORS, PALACES
from companion.games.thief_of_baghdad.state import State

RULES = get_rules("thief_of_baghdad")

HAND0 = ["red", "red", "red", "blue", "green", "yellow"]
HAND1 = ["blue", "blue", "white", "white", "purple", "purple", "green"]
PLACEMENT = [(0, "red"), (1, "red"), (0, "red"), (1, "white"), (0, "blue"), (1, "purple"), (0, "green"), (1, "blue")]


def act(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    """A JSON action."""
    return {"type": kind, "seat": seat, **fields}


def two_seat_game(hand0: list[str] = HAND0, hand1: list[str] = HAND1) -> State:
    """Dealt and placed: red [0,0,1,N] full, blue [0,1,N], green [0,N], yellow [N], purple [1,N], white [1,N]."""
    state = RULES.apply(RULES.initial_state(2), act("deal", -1, hands=[hand0, hand1]))
    for seat, palace in PLACEMENT:
        state = RULES.apply(state, act("place_guard", seat, palace=palace))
    return state


def thieves(state: State, palace: str) -> list[int]:
    """Courtyard thieves by seat at a palace, through the public view."""
    return RULES.view(state)["palaces"][COLORS.index(palace)]["thieves"]


def palace_cards(state: State) -> int:
    """Palace cards in the pile, the discard and every hand."""
    hands = sum(state.hand(s)[c] for s in range(state.seats) for c in range(PALACES))
    return sum(state.pile) + sum(state.discard) + hands
