"""Mafia's vocabulary: phases, outcome reasons, refusal codes and log codes."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Mapping

from companion.games.contract import Described


class Phase(Described):
    """Every `phase` value of the engine."""

    DEAL = "deal", "Chance deals the roles: the mafia, one detective and the town."
    NIGHT = "night", "Every living seat makes its secret night choice: the mafia a victim, the detective a check."
    DAY = "day", "Every living seat votes openly to eliminate a seat, or nobody."
    GAME_OVER = "game_over", "The game is over."


class Reason(StrEnum):
    """Why a game ended (docs/RULES.md, Mafia, "Outcome reasons")."""

    MAFIA_GONE = "mafia_gone"
    MAFIA_EQUAL = "mafia_equal"


CODES: Mapping[str, str] = MappingProxyType({
    "wrong_role_count": "The deal must give exactly one role to every seat.",
    "wrong_role_mix": "The deal does not match the role mix for this number of seats.",
    "target_dead": "That seat is out of the game.",
    "target_self": "Choose another seat, not your own.",
    "not_your_role": "That is not your role's night choice.",
    "target_mafia": "The mafia cannot pick one of their own.",
})
"""The game's own IllegalAction codes with English text."""

PUBLIC_CODES: frozenset[str] = frozenset({"target_dead", "target_self"})
"""Codes raised from public facts alone (who is out, who acts), checked before the acting seat's role is looked
at, the same for every role: the table shows these to everyone. `not_your_role` and `target_mafia` read the
role, so they go only to the acting seat and the host."""

LOG_CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "dealt": ("mafia",),
    "night": ("round",),
    "mafia_pick": ("seat", "target"),
    "checked": ("seat", "target", "side"),
    "suspected": ("seat", "target"),
    "killed": ("target", "role"),
    "eliminated": ("target", "role", "count"),
    "spared": (),
    "game_over": ("reason", "winners"),
})
"""Every log entry code the engine writes, with its params (`mafia_pick` is read by the mafia only, `checked`
by the detective only, `suspected` by the suspecting seat only)."""
