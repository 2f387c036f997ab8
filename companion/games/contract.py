"""The engine contract's vocabulary: the chance player, the shared codes, the refusal type and the outcome."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping

from companion.errors import Refusal

CHANCE = -1
"""The chance player: shuffles, deals and draws are its actions (OpenSpiel style)."""

COMMON_CODES: dict[str, str] = {
    "malformed": "The action is malformed: unknown type, missing or mistyped field, or seat out of range.",
    "game_over": "The game is over.",
    "not_your_turn": "It is not this seat's turn to act.",
    "wrong_phase": "That action is not possible in this phase of the game.",
}
"""Codes every engine shares, checked in this order before a game's own codes."""

BINDING_CODES: dict[str, str] = {
    "unexpected_card": "That card means nothing here right now.",
    "wrong_game": "That card belongs to another game.",
    "already_tapped": "That tile was already tapped.",
    "unknown_key": "That button means nothing in this game.",
    "wrong_reader": "That card is read at another reader.",
    "not_enrolled": "That card is not part of this game's enrolled set.",
    "nothing_tapped": "Tap the cards at your reader first.",
}
"""Refusal codes any game's table binding may raise (as Refusal) before the engine is asked."""


IllegalAction = Refusal
"""The engine's older name for `Refusal` (one type: the same class), kept so code written against it still
reads; new code raises `Refusal`."""


class Described(StrEnum):
    """A str enum whose members also carry one line of English: `NAME = "value", "text"`."""

    text: str

    def __new__(cls, value: str, text: str = "") -> "Described":
        member = str.__new__(cls, value)
        member._value_ = value
        member.text = text
        return member


def described(kind: type[Described]) -> Mapping[str, str]:
    """value -> text for every member (read-only)."""
    return MappingProxyType({member.value: member.text for member in kind})


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats and the reason code (a game's Reason member, a str)."""

    winners: frozenset[int]
    reason: str


class Components(StrEnum):
    """Whether chance comes from the table's own random draw or from the components the players tap."""

    DIGITAL = "digital"
    PHYSICAL = "physical"

    @classmethod
    def parse(cls, value: Any) -> "Components":
        """The enum member named by a JSON string; Refusal bad_setup otherwise."""
        try:
            return cls(value)
        except ValueError:
            raise Refusal("bad_setup", f"components must be 'digital' or 'physical', not {value!r}") from None
