"""Secret Hitler state and fixed tables: role mixes, power boards, deck sizes (docs/RULES.md, Secret Hitler)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.contract import Outcome
from companion.games.frozen import build, evolve
from companion.games.log import Log
from companion.games.rules import LogEntry
from companion.games.secret_hitler.codes import Phase

LIBERAL, FASCIST, HITLER = "liberal", "fascist", "hitler"
ROLES = (LIBERAL, FASCIST, HITLER)
L, F = "L", "F"
JA, NEIN = "ja", "nein"
DECK_L, DECK_F = 6, 11
LIBERAL_WIN, FASCIST_WIN = 5, 6
VETO_AT = 5
HITLER_ZONE = 3
"""Fascist policies enacted from which electing Hitler chancellor wins for the fascists."""
CHAOS_AT = 3


class Power(str, Enum):
    """Presidential powers of the fascist track."""

    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    PEEK = "peek"
    EXECUTE = "execute"


ROLE_MIX: Mapping[int, tuple[int, int, int]] = MappingProxyType({
    5: (3, 1, 1), 6: (4, 1, 1), 7: (4, 2, 1), 8: (5, 2, 1), 9: (5, 3, 1), 10: (6, 3, 1),
})
"""Seats -> (liberals, fascists, hitler)."""

_SMALL = (None, None, None, Power.PEEK, Power.EXECUTE, Power.EXECUTE)
_MEDIUM = (None, None, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE)
_LARGE = (None, Power.INVESTIGATE, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE)
POWERS: Mapping[int, tuple[Power | None, ...]] = MappingProxyType({
    5: _SMALL, 6: _SMALL, 7: _MEDIUM, 8: _MEDIUM, 9: _LARGE, 10: _LARGE,
})
"""Seats -> the power granted by the n-th fascist policy (index n; index 0 and 6 unused)."""

POWER_PHASE: Mapping[Power, Phase] = MappingProxyType({
    Power.INVESTIGATE: Phase.INVESTIGATE,
    Power.SPECIAL_ELECTION: Phase.SPECIAL_ELECTION,
    Power.PEEK: Phase.PEEK,
    Power.EXECUTE: Phase.EXECUTE,
})


def hitler_knows_fascists(seats: int) -> bool:
    """Hitler learns the fascists only in 5- and 6-seat games."""
    return seats <= 6


def setup_for(seats: int, rebalance: bool) -> tuple[int, int]:
    """(fascist policies already on the track, F tiles in the deck) for this seat count and house rule."""
    if rebalance and seats == 6:
        return 1, DECK_F
    if rebalance and seats in (7, 9):
        return 0, DECK_F - 1
    return 0, DECK_F


@dataclass(frozen=True)
class State:
    """The whole game; immutable. Hidden facts (roles, tiles, uncast votes) live only here."""

    seats: int
    phase: Phase
    alive: tuple[bool, ...]
    votes: tuple[str | None, ...]
    fascist: int = 0
    liberal: int = 0
    draw_l: int = DECK_L
    draw_f: int = DECK_F
    disc_l: int = 0
    disc_f: int = 0
    roles: tuple[str, ...] = ()
    president: int | None = None
    rotation: int | None = None
    """The seat the regular rotation continues from (a special election leaves it where it was)."""
    chancellor: int | None = None
    last_president: int | None = None
    last_chancellor: int | None = None
    tracker: int = 0
    pending: frozenset[int] = frozenset()
    """Living seats whose vote is not in yet."""
    revealed: bool = False
    """Whether `votes` have been revealed (the last vote is in)."""
    hand: tuple[str, ...] = ()
    """Tiles held by the president (discard phase) or the chancellor (enact / veto reply), sorted."""
    peeked: tuple[str, ...] = ()
    """Top of the draw pile in order, fixed by a peek; forgotten on reshuffle."""
    peeker: int | None = None
    veto_refused: bool = False
    investigated: tuple[tuple[int, int], ...] = ()
    """(investigating president, target) pairs in order."""
    log: Log[Entry] = Log()
    result: Outcome | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """Every value a State holds is immutable (tuples, frozensets, read-only log params; a test walks them),
        so a deep copy is a new State sharing them."""
        return evolve(self)


def with_vote(s: State, votes: tuple[str | None, ...], pending: frozenset[int]) -> State:
    """`evolve(s, votes=votes, pending=pending)` for the most frequent action, without keyword handling."""
    fields = s.__dict__.copy()  # a dict's copy is one block copy; `{**d, ...}` inserts key by key
    fields["votes"] = votes
    fields["pending"] = pending
    return build(State, fields)


@dataclass(frozen=True)
class Entry(LogEntry):
    """A LogEntry whose params are immutable; `lists` names the params held as tuples (shown as lists)."""

    lists: tuple[str, ...] = ()


def _entry(code: str, params: dict[str, Any], to: frozenset[int] | None) -> Entry:
    """An Entry over a read-only view of `params` (a dict nobody else holds)."""
    lists = tuple(k for k, v in params.items() if type(v) is tuple)
    # the frozen dataclass __init__ is slow and this runs on every log line
    return build(Entry, {"code": code, "params": MappingProxyType(params), "to": to, "lists": lists})


def note(code: str, **params: Any) -> Entry:
    """A public log entry; params hold only immutable values (tuples, not lists)."""
    return _entry(code, params, None)


def secret(seat: int, code: str, **params: Any) -> Entry:
    """A log entry only `seat` may read."""
    return _entry(code, params, frozenset((seat,)))
