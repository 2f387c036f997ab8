"""The engine contract's vocabulary: the chance player, the error type and the outcome."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError

CHANCE = -1
"""The chance player: shuffles, deals and draws are its actions (OpenSpiel style)."""

COMMON_CODES: dict[str, str] = {
    "malformed": "The action is malformed: unknown type, missing or mistyped field, or seat out of range.",
    "game_over": "The game is over.",
    "not_your_turn": "It is not this seat's turn to act.",
    "wrong_phase": "That action is not possible in this phase of the game.",
}
"""Codes every engine shares, checked in this order before a game's own codes."""


class IllegalAction(CompanionError, ValueError):
    """An action the rules refuse; `code` is stable snake_case, the message is English."""

    code = "illegal_action"

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(code, message or COMMON_CODES.get(code, code.replace("_", " ")))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats and the reason code."""

    winners: frozenset[int]
    reason: str
