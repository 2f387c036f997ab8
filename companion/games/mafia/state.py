"""What Mafia is made of: its vocabulary (phases, outcome reasons, refusal and log codes), the roles and the role
mix, the State, and the action vocabulary with the action types of each phase (docs/RULES.md, Mafia)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.contract import Described, Outcome
from companion.games.log import Log
from companion.games.rules import LogEntry
from companion.games.schema import FieldKind as K
from companion.games.schema import ViewFields

# --- the vocabulary ---------------------------------------------------------------------------------------

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
"""The game's own Refusal codes with English text."""

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


# --- the roles and the state ------------------------------------------------------------------------------

MAFIA, DETECTIVE, TOWN = "mafia", "detective", "town"
ROLES = (MAFIA, DETECTIVE, TOWN)
NIGHT_ACTION: Mapping[str, str] = MappingProxyType({MAFIA: "kill", DETECTIVE: "check", TOWN: "suspect"})
"""Each role's one night action: every living seat makes one, so who acts says nothing about roles."""


def mafia_count(seats: int) -> int:
    """A quarter of the seats, rounded down, at least one."""
    return max(1, seats // 4)


def role_mix(seats: int) -> tuple[int, int, int]:
    """(mafia, detectives, town) for this seat count."""
    mafia = mafia_count(seats)
    return mafia, 1, seats - mafia - 1


def side(role: str) -> str:
    """The side a role plays for: `mafia`, or `town` (the detective is on the town's side)."""
    return MAFIA if role == MAFIA else TOWN


@dataclass(frozen=True)
class State:
    """The whole game; immutable. Roles and the night choices live only here."""

    seats: int
    phase: Phase
    alive: tuple[bool, ...]
    roles: tuple[str, ...] = ()
    round: int = 0
    """The night being played, or the day after it (1 from the first night)."""
    pending: frozenset[int] = frozenset()
    """Living seats whose night choice or day vote is not in yet."""
    picks: tuple[tuple[int, int], ...] = ()
    """Tonight's mafia picks as (mafia seat, target), in the order they came: secret to the mafia."""
    votes: tuple[int | None, ...] = ()
    """Today's votes per seat (a target, or None for nobody or not yet: `pending` tells which): public."""
    checks: tuple[tuple[int, int], ...] = ()
    """(detective, target) of every check, in order: secret to that detective."""
    victim: int | None = None
    """The seat the mafia killed last night (None before the first dawn)."""
    log: Log[LogEntry] = field(default=Log())
    result: Outcome | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """Every value a State holds is immutable, so a deep copy is the state itself."""
        return self


def note(code: str, **params: Any) -> LogEntry:
    """A public log entry."""
    return LogEntry(code, MappingProxyType(params))


def secret(seats: frozenset[int], code: str, **params: Any) -> LogEntry:
    """A log entry only `seats` may read."""
    return LogEntry(code, MappingProxyType(params), seats)


# --- the action types of each phase ---------------------------------------------------------------------

ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.DEAL: frozenset({"deal"}),
    # Every role's night action is allowed to every seat: a refusal of another role's action must not be the
    # public `wrong_phase` (it would name the seat's role); the role is checked after the public checks.
    Phase.NIGHT: frozenset({"kill", "check", "suspect"}),
    Phase.DAY: frozenset({"vote", "abstain"}),
    Phase.GAME_OVER: frozenset(),
})


# --- the fields -------------------------------------------------------------------------------------------

FIELDS = ViewFields(
    acted=K.PER_SEAT, alive=K.PER_SEAT, found_mafia=K.SEATS, found_town=K.SEATS, known=K.WORDS, mafia=K.COUNT,
    mafia_left=K.COUNT, mafia_picks=K.SEATS, reason=K.WORD, role=K.WORD, roles=K.PER_SEAT, round=K.COUNT,
    seats=K.COUNT, side=K.WORD, target=K.SEAT, victim=K.SEAT, votes=K.PER_SEAT,
)
"""Every field name Mafia's views, log entries, actions and bot reasons use, by what it holds."""
