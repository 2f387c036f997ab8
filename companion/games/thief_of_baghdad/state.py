"""The immutable game state and its log.

Counts are kept in flat `bytes` (every count here is 0..255): immutable, compact, and copied (or deep-copied,
as the playout harness does at every step) in O(1) instead of one object per number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.log import Log
from companion.games.rules import LogEntry
from companion.games.thief_of_baghdad.board import CHESTS
from companion.games.thief_of_baghdad.codes import Phase

HAND_WIDTH = 7
"""Entries per hand: six colours, then dancers."""


class Event(LogEntry):
    """A log entry whose params are a tuple of (name, value) pairs of immutable values."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "Event":
        # Immutable all the way down (str/int/bool/tuple/frozenset): sharing it is a faithful deep copy.
        return self


def event(code: str, reader: int | None = None, **params: Any) -> Event:
    """A log entry; `reader` names the one seat that may read it (None = public). Not `to`: that is a param."""
    return Event(code, tuple(params.items()), None if reader is None else frozenset({reader}))


def bump(counts: bytes, index: int, delta: int) -> bytes:
    """A copy of `counts` with `delta` added at `index`."""
    return counts[:index] + bytes((counts[index] + delta,)) + counts[index + 1:]


@dataclass(frozen=True)
class State:
    """Everything about a game in progress."""

    seats: int
    first_hand: int
    phase: Phase
    turn: int
    """The seat to act in `place` and `turn`; the drawing seat in `draw`; the winner when over."""
    unplaced: bytes
    """Guards not yet placed, by seat."""
    guards: bytes
    """Guard counts at [palace * (seats + 1) + owner]; owner `seats` is neutral."""
    thieves: bytes
    """Courtyard thieves at [palace * seats + seat]."""
    chests: bytes
    """Chests left on each palace (the values left are the last that many of 4, 5, 6, 7)."""
    supply: bytes
    """Thieves in each seat's supply."""
    won: bytes
    """Chests taken by each seat."""
    hands: bytes
    """Card counts at [seat * 7 + card] (six colours, then dancers). Hidden."""
    pile: bytes
    """Draw pile by colour. Hidden: only its size is public."""
    discard: bytes
    """Discard pile by colour."""
    dancers: int
    """Dancers in the supply."""
    thief_moves: int
    acted: bool
    """Whether the seat whose turn it is has infiltrated or moved this turn."""
    pending_draw: int
    """Cards the drawing seat draws in phase `draw`."""
    winner: int | None
    log: Log[Event]
    turn_start: int
    """Log index where the current turn (or the setup) began."""
    log_from: int
    """Log index from which views show entries: the start of the previous turn."""

    def guard(self, palace: int, owner: int) -> int:
        """Guards of `owner` (a seat, or `seats` for neutral) at a palace."""
        return self.guards[palace * (self.seats + 1) + owner]

    def guards_at(self, palace: int) -> bytes:
        """Guard counts by owner at a palace (neutral last)."""
        width = self.seats + 1
        return self.guards[palace * width:(palace + 1) * width]

    def thief(self, palace: int, seat: int) -> int:
        """Thieves of a seat in a palace's courtyard."""
        return self.thieves[palace * self.seats + seat]

    def hand(self, seat: int) -> bytes:
        """A seat's card counts (six colours, then dancers)."""
        return self.hands[seat * HAND_WIDTH:(seat + 1) * HAND_WIDTH]

    def chest_values(self, palace: int) -> tuple[int, ...]:
        """The chest values left on a palace, top first."""
        return CHESTS[len(CHESTS) - self.chests[palace]:]

