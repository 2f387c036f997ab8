"""Reader polling shared by every backend: presence debounce, per-reader fault counting and backoff."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from companion.hal.events import HalEvent, ReaderFault, Sink, TagPlaced, TagRemoved, TagsCrowded
from companion.hal.interfaces import ReaderError, TagReader

REMOVAL_MISSES = 3
"""Clean empty polls in a row before a tag counts as removed (as well as `removal_s`): one RF glitch is not a
removal, and a CRC or collision error (a reader's "something is there") is no miss at all."""
BACKOFF_MIN_S = 0.05
BACKOFF_MAX_S = 2.0
MAX_UID_HEX = 20  # a triple-size (10-byte) UID


def plausible_uid(uid: object) -> bool:
    """Whether a poll result can be a tag UID: a non-empty hex string of at most 10 bytes."""
    return isinstance(uid, str) and 0 < len(uid) <= MAX_UID_HEX and not uid.strip("0123456789abcdefABCDEF")


CONFIRM_GAP_S = 0.005
"""How soon a reader holding an unconfirmed UID is polled again. With WUPA+HLTA a resting tag answers every poll
(hardware/README.md, Measured facts), so a real placement is confirmed within a few ms instead of a whole poll
interval later; one read takes 2.4-4.5 ms on air, so polling sooner would gain nothing."""


@dataclass
class _Presence:
    uid: str | None = None
    last_seen: float = 0.0
    candidate: str | None = None
    """A UID read but not yet confirmed, and on how many consecutive polls it was read."""
    seen: int = 0
    misses: int = 0
    crowded: int = 0
    """Consecutive polls that found several tags (reported once it reaches confirm_polls)."""


class Debouncer:
    """Turns raw poll results into placements and removals: a new UID is placed only once it was read on
    `confirm_polls` consecutive polls (a one-poll ghost read is nothing), a resting tag is one placement, and
    removal is reported only after `removal_s` and REMOVAL_MISSES clean misses in a row without seeing it; a
    crowded field (two tags) is reported once after `confirm_polls` polls. Pure apart from its own memory."""

    def __init__(self, removal_s: float, confirm_polls: int = 2) -> None:
        self.removal_s = removal_s
        self.confirm_polls = confirm_polls
        self._readers: dict[str, _Presence] = {}

    def observe(self, reader: str, uid: str | None, now: float, crowded: bool = False) -> list[HalEvent]:
        """Feed one poll result (and whether it found several tags); returns the events it implies."""
        p = self._readers.get(reader)
        if p is None:
            p = self._readers[reader] = _Presence()
        events: list[HalEvent] = []
        if crowded:
            p.crowded += 1
            if p.crowded == self.confirm_polls:
                events.append(TagsCrowded(reader))
        else:
            p.crowded = 0
        if uid is None and p.uid is None and p.candidate is None:  # an empty reader that was empty: most polls
            return events
        if uid is not None and uid == p.uid:
            p.last_seen = now
            p.candidate, p.seen, p.misses = None, 0, 0
            return events
        p.misses += 1  # nothing, or another card: the resting one was not read (a reader prefers it when present)
        if uid is None:
            p.candidate, p.seen = None, 0  # a miss breaks the run of reads
        else:
            p.seen = p.seen + 1 if uid == p.candidate else 1
            p.candidate = uid
            if p.seen >= self.confirm_polls:
                if p.uid is not None:
                    events.append(TagRemoved(reader, p.uid))
                events.append(TagPlaced(reader, uid))
                p.uid, p.last_seen = uid, now
                p.candidate, p.seen, p.misses = None, 0, 0
                return events
        if p.uid is not None and now - p.last_seen >= self.removal_s and p.misses >= REMOVAL_MISSES:
            events.append(TagRemoved(reader, p.uid))
            p.uid = None
        return events

    def interrupt(self, reader: str) -> None:
        """A failed poll: the reads before it and after it are not consecutive."""
        p = self._readers.get(reader)
        if p is not None:
            p.candidate, p.seen = None, 0

    def confirming(self) -> bool:
        """Whether any reader holds a UID read but not yet confirmed."""
        return any(p.candidate is not None for p in self._readers.values())

    def present(self, reader: str) -> str | None:
        """The tag currently considered resting on a reader."""
        p = self._readers.get(reader)
        return p.uid if p else None


@dataclass
class ReaderHealth:
    """Per-reader counters shown on the host page."""

    name: str
    version: int | None = None
    polls: int = 0
    errors: int = 0
    consecutive_errors: int = 0
    last_error: str | None = None
    retry_at: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "name": self.name,
            "ok": self.consecutive_errors == 0,
            "version": None if self.version is None else f"0x{self.version:02X}",
            "polls": self.polls,
            "errors": self.errors,
            "consecutive_errors": self.consecutive_errors,
            "last_error": self.last_error,
        }


@dataclass
class ReaderPoller:
    """One thread polling every reader in turn; a failing reader is retried with backoff, never fatal."""

    readers: Sequence[TagReader]
    sink: Sink
    interval_s: float = 0.02
    removal_s: float = 0.15
    confirm_polls: int = 2
    clock: Callable[[], float] = time.monotonic
    extra: Callable[[], Sequence[TagReader]] = tuple
    """Readers that come and go (the terminals' own), polled after the fixed ones."""
    _wake: threading.Event = field(default_factory=threading.Event)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _health: dict[str, ReaderHealth] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._debounce = Debouncer(self.removal_s, self.confirm_polls)
        self._lock = threading.Lock()
        self._cycles = 0
        self._cycle_cond = threading.Condition()
        for reader in self.readers:
            self._health[reader.name] = ReaderHealth(reader.name)

    def start(self) -> None:
        """Check every chip's version, then poll in a daemon thread."""
        for reader in self.readers:
            try:
                self._health[reader.name].version = reader.version()
            except ReaderError as exc:
                self._fault(reader, exc, self.clock())
        self._thread = threading.Thread(target=self._run, name="reader-poller", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Poll again now instead of after the interval (the mock calls this after a scripted change)."""
        self._wake.set()

    def wait_cycles(self, n: int, timeout: float = 5.0) -> bool:
        """Wake the thread and wait until `n` more full poll cycles have run (n=2: one began after now)."""
        with self._cycle_cond:
            target = self._cycles + n
            self._wake.set()
            return self._cycle_cond.wait_for(lambda: self._cycles >= target or self._stop.is_set(), timeout)

    def stop(self) -> None:
        """End the thread and close the readers."""
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(timeout=2)
        for reader in self.readers:
            reader.close()

    def present(self) -> dict[str, str | None]:
        """What rests on each reader now, as debounced (for the expected-vs-seen scan)."""
        with self._lock:
            return {r.name: self._debounce.present(r.name) for r in self._all()}

    def health(self) -> list[dict[str, Any]]:
        """Per-reader status."""
        with self._lock:
            return [self._health[r.name].as_dict() for r in self._all() if r.name in self._health]

    def _all(self) -> list[TagReader]:
        """The fixed readers, then the ones that come and go."""
        return [*self.readers, *self.extra()]

    def poll_once(self) -> None:
        """Poll every reader that is not backing off and deliver the resulting events."""
        for reader in self._all():
            now = self.clock()
            h = self._health.get(reader.name)
            if h is None:
                h = self._health[reader.name] = ReaderHealth(reader.name)
            if h.retry_at > now:
                continue
            try:
                uid = reader.poll()
            except ReaderError as exc:
                self._fault(reader, exc, now)
                continue
            except Exception as exc:  # a driver bug must not kill the poller: count it like a fault
                self._fault(reader, exc, now)
                continue
            if uid is not None and not plausible_uid(uid):  # garbage from a driver is a fault, never a tag
                self._fault(reader, ReaderError(f"not a tag UID: {str(uid)[:40]!r}", "reader_garbage"), now)
                continue
            with self._lock:
                h.polls += 1
                h.consecutive_errors = 0
                crowded = reader.crowded() if hasattr(reader, "crowded") else False  # a duck-typed reader has none
                events = self._debounce.observe(reader.name, uid, now, crowded)
            for event in events:
                self.sink(event)

    def _fault(self, reader: TagReader, exc: BaseException, now: float) -> None:
        with self._lock:
            self._debounce.interrupt(reader.name)
            h = self._health[reader.name]
            h.errors += 1
            h.consecutive_errors += 1
            h.last_error = f"{type(exc).__name__}: {exc}"
            h.retry_at = now + min(BACKOFF_MAX_S, BACKOFF_MIN_S * 2 ** (h.consecutive_errors - 1))
            first = h.consecutive_errors == 1
        if first:
            self.sink(ReaderFault(reader.name, h.last_error or ""))

    def _run(self) -> None:
        while not self._stop.is_set():
            started = self.clock()
            self._wake.clear()  # before polling, so a change scripted mid-poll is not lost
            self.poll_once()
            with self._cycle_cond:
                self._cycles += 1
                self._cycle_cond.notify_all()
            with self._lock:
                confirming = self._debounce.confirming()
            self._wake.wait(next_wait(started, self.clock(), self.interval_s, confirming))


def next_wait(started: float, now: float, interval_s: float, confirming: bool) -> float:
    """How long the poller rests after a cycle: cycles are scheduled start to start, so the time the readers
    took is part of the interval (a cycle longer than the interval is followed at once); an unconfirmed UID is
    re-read CONFIRM_GAP_S after the cycle ends."""
    rest = max(0.0, started + interval_s - now)
    return min(CONFIRM_GAP_S, rest) if confirming else rest
