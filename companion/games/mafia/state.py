"""Mafia's state and fixed tables: the roles, the role mix and the sides (docs/RULES.md, Mafia)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.contract import Outcome
from companion.games.log import Log
from companion.games.mafia.codes import Phase
from companion.games.rules import LogEntry

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
