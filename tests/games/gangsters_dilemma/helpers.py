"""Small builders shared by the Gangster's Dilemma unit tests."""

from __future__ import annotations

from typing import Any

from companion.games import CHANCE, get_rules

RULES = get_rules("gangsters_dilemma")

HARD: list[dict[str, Any]] = [
    {"id": "h1", "vp": 4, "needs": {"crate": 6}},
    {"id": "h2", "vp": 7, "needs": {"art": 6}},
    {"id": "h3", "vp": 10, "needs": {"jewel": 6}},
    {"id": "h4", "vp": 4, "needs": {"liquor": 6}},
]
"""A deck nobody can pay for early on, so no demand step interrupts a test."""


def setup_action(police: int, characters: list[Any], demands: list[str], elite: list[str] | None = None) -> dict:
    """A chance setup action."""
    return {"type": "setup", "seat": CHANCE, "police": police, "characters": characters,
            "demands": demands, "elite_demands": elite or []}


def play(seats: int, options: dict[str, Any] | None, actions: list[dict[str, Any]]) -> Any:
    """The state after applying `actions` from the start."""
    state = RULES.initial_state(seats, options)
    for action in actions:
        state = RULES.apply(state, action)
    return state
