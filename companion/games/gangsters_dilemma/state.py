"""The immutable game state, and a mutable working copy used inside one `apply`."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.games.gangsters_dilemma.codes import Phase
from companion.games.gangsters_dilemma.options import Config
from companion.games.gangsters_dilemma.board import CRATE, CRATE_VP
from companion.games.log import Log
from companion.games.rules import LogEntry

Response = tuple[str, str | None]
"""A respond choice: (response, pay) with pay "liquor"/"dollars" for a bribe, else None."""


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's holdings: money, loot (crate, art, jewel, liquor), character, demands."""

    money: int
    loot: tuple[int, int, int, int]
    character: str | None
    fulfilled: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    """The elite's private demands still in hand (secret)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Player:
        # Every field is immutable (ints, str, tuples of ints/str), so a deep copy may be the object itself.
        return self

    def vp(self, config: Config) -> int:
        """Fulfilled demands plus the crate table."""
        fulfilled = self.fulfilled
        by_id = config.by_id
        return (sum([by_id[d].vp for d in fulfilled]) if fulfilled else 0) + CRATE_VP[min(self.loot[CRATE], 4)]


_EMPTY: MappingProxyType[str, Any] = MappingProxyType({})


class Entry(LogEntry):
    """A log entry whose params are a read-only mapping of scalars and tuples of scalars."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Entry:
        return self


_SCALARS = (int, str, bool, type(None))


def _frozen(value: Any) -> Any:
    """A log param made immutable: scalars as they are, lists as tuples."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if (kind is list or kind is tuple) and all(type(v) in _SCALARS for v in value):
        return tuple(value)
    raise TypeError(f"log params hold scalars and lists of scalars only, got {value!r}")


@dataclass(frozen=True)
class State:
    """Everything about one game; a pure function of (seats, options, actions)."""

    config: Config
    seats: int
    locations: int
    """5 with 3–5 seats (speakeasy merged into the black market), else 6."""
    phase: Phase
    acting: frozenset[int]
    round: int = 0
    police: int = 0
    players: tuple[Player, ...] = ()
    money: tuple[int, ...] = ()
    """Money on each location (index = id - 1)."""
    closed: frozenset[int] = frozenset()
    patrols: tuple[int, ...] = ()
    choices: tuple[int | None, ...] = ()
    revealed: bool = False
    peeked: bool = False
    peek: int | None = None
    current: int = 0
    """The location being resolved (0 before resolution starts)."""
    responses: tuple[Response | None, ...] = ()
    successes: tuple[int, ...] = ()
    queue: tuple[int, ...] = ()
    """Successful visitors still to be offered a demand, in order clockwise from the police."""
    row: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    arrests: frozenset[int] = frozenset()
    enforcer_paid: bool = False
    log: Log[Entry] = Log()
    log_from: int = 0
    """Index of the first log entry views show: the latest reveal (so what just happened stays in view)."""
    winners: frozenset[int] | None = None
    end_reason: str | None = None


class Work:
    """A mutable copy of a State for building the next one inside a single `apply`."""

    def __init__(self, state: State) -> None:
        self.base = state
        self.config = state.config
        self.seats = state.seats
        self.players = list(state.players)
        self.money = list(state.money)
        self.log: list[Entry] = []
        self.fields: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        # Unchanged fields read through to the base state.
        fields = self.__dict__["fields"]
        if name in fields:
            return fields[name]
        return getattr(self.__dict__["base"], name)

    def set(self, **changes: Any) -> None:
        """Record changed state fields."""
        self.fields.update(changes)

    def note(self, code: str, params: dict[str, Any] | None = None, to: frozenset[int] | None = None) -> None:
        """Append a log entry (private when `to` is given)."""
        if not params:
            frozen = _EMPTY
        elif all(type(v) in _SCALARS for v in params.values()):
            frozen = MappingProxyType(params)  # callers pass a fresh dict that nobody else holds
        else:
            frozen = MappingProxyType({k: _frozen(v) for k, v in params.items()})
        self.log.append(Entry(code, frozen, to))

    def log_length(self) -> int:
        """Entries in the log including this apply's new ones."""
        return len(self.base.log) + len(self.log)

    def gain(self, seat: int, money: int = 0, loot: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        """Add (or with negatives, remove) money and loot; callers check it never goes below zero."""
        p = self.players[seat]
        new_loot = (p.loot[0] + loot[0], p.loot[1] + loot[1], p.loot[2] + loot[2], p.loot[3] + loot[3])
        self.players[seat] = Player(p.money + money, new_loot, p.character, p.fulfilled, p.private)

    def freeze(self) -> State:
        """The new immutable state (built by copying the base's fields: `replace` is the hot spot)."""
        new = object.__new__(State)
        fields = new.__dict__
        fields.update(self.base.__dict__)
        fields.update(self.fields)
        # An unchanged tuple stays the base's very object, so a view built from the last state can tell by
        # identity what it need not build again.
        players, money = tuple(self.players), tuple(self.money)
        base = self.base
        fields["players"] = base.players if players == base.players else players
        fields["money"] = base.money if money == base.money else money
        fields["log"] = self.base.log.extend(self.log)
        return new
