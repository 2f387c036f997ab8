"""Round-robin polling of several tag readers: presence tracking, per-reader errors with backoff, health.

Pure logic with the clock passed in: `step(now)` does one poll and returns what changed, so tests need no
sleeping; `run()` is the thin real-time loop around it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.hal.mfrc522 import ReaderError, Scan, ScanStatus


class ScanningReader(Protocol):
    """A reader the poller can drive (Mfrc522 or a fake)."""

    def scan(self) -> Scan:
        """One poll of the field."""
        ...


@dataclass(frozen=True)
class TagArrived:
    """A tag is now on this reader."""

    reader: str
    uid: bytes


@dataclass(frozen=True)
class TagDeparted:
    """The tag that was on this reader has gone (absent for several clean polls)."""

    reader: str
    uid: bytes


PresenceEvent = TagArrived | TagDeparted


class PresenceTracker:
    """Turns one reader's scans into arrivals and departures; removal only after N clean misses in a row."""

    def __init__(self, removal_misses: int = 3) -> None:
        if removal_misses < 1:
            raise ValueError("removal_misses must be at least 1")
        self.removal_misses = removal_misses
        self.current: bytes | None = None
        self.misses = 0

    def update(self, scan: Scan) -> list[tuple[str, bytes]]:
        """Feed one scan; return ("arrived"|"departed", uid) pairs in the order they happened."""
        changes: list[tuple[str, bytes]] = []
        if scan.status is ScanStatus.TAG and scan.uid is not None:
            self.misses = 0
            if scan.uid != self.current:
                if self.current is not None:
                    changes.append(("departed", self.current))
                changes.append(("arrived", scan.uid))
                self.current = scan.uid
        elif scan.status is ScanStatus.UNREADABLE:
            self.misses = 0  # a collision or CRC error means something is still there
        else:
            self.misses += 1
            if self.current is not None and self.misses >= self.removal_misses:
                changes.append(("departed", self.current))
                self.current = None
        return changes


@dataclass(frozen=True)
class ReaderHealth:
    """One reader as the host page shows it."""

    name: str
    ok: bool
    polls: int
    errors: int
    consecutive_errors: int
    last_error: str
    retry_in_s: float
    tag: str | None
    unreadable: int
    version: str


class _Slot:
    """Mutable per-reader bookkeeping, private to the poller thread."""

    def __init__(self, name: str, reader: ScanningReader, removal_misses: int) -> None:
        self.name = name
        self.reader = reader
        self.tracker = PresenceTracker(removal_misses)
        self.polls = 0
        self.errors = 0
        self.consecutive = 0
        self.unreadable = 0
        self.last_error = ""
        self.retry_at = 0.0
        self.version = ""


class ReaderPoller:
    """Polls readers one at a time in turn, each `rate_hz` times a second, isolating failures per reader."""

    def __init__(
        self,
        readers: Mapping[str, ScanningReader] | Sequence[tuple[str, ScanningReader]],
        *,
        rate_hz: float = 10.0,
        removal_misses: int = 3,
        backoff_s: tuple[float, float] = (0.05, 5.0),
        antenna_switching: bool = False,
        field_settle_s: float = 0.005,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`readers` in polling order; `rate_hz` is per reader."""
        pairs = list(readers.items()) if isinstance(readers, Mapping) else list(readers)
        if not pairs:
            raise ValueError("no readers to poll")
        if rate_hz <= 0:
            raise ValueError("rate_hz must be positive")
        self._slots = [_Slot(name, reader, removal_misses) for name, reader in pairs]
        self.interval_s = 1.0 / (rate_hz * len(self._slots))
        self._backoff = backoff_s
        self._antenna_switching = antenna_switching
        self._settle = field_settle_s
        self._sleep = sleep
        self._next = 0
        self._lock = threading.Lock()

    @property
    def names(self) -> tuple[str, ...]:
        """Reader names in polling order."""
        return tuple(slot.name for slot in self._slots)

    def step(self, now: float) -> list[PresenceEvent]:
        """Poll the next reader that is not backing off; return its arrivals and departures."""
        for _ in range(len(self._slots)):
            slot = self._slots[self._next]
            self._next = (self._next + 1) % len(self._slots)
            if now >= slot.retry_at:
                return self._poll(slot, now)
        return []

    def _poll(self, slot: _Slot, now: float) -> list[PresenceEvent]:
        reader = slot.reader
        try:
            if slot.consecutive and hasattr(reader, "init"):
                health = reader.init()  # a reader that failed may have browned out: program it again
                slot.version = getattr(health, "label", "")
            if self._antenna_switching:
                reader.antenna_on()  # type: ignore[attr-defined]
                self._sleep(self._settle)
            try:
                scan = reader.scan()
            finally:
                if self._antenna_switching:
                    reader.antenna_off()  # type: ignore[attr-defined]
        except (ReaderError, OSError) as exc:
            with self._lock:
                slot.errors += 1
                slot.consecutive += 1
                slot.last_error = getattr(exc, "code", None) or f"{type(exc).__name__}: {exc}"
                low, high = self._backoff
                slot.retry_at = now + min(high, low * 2 ** (slot.consecutive - 1))
            return []
        with self._lock:
            slot.polls += 1
            slot.consecutive = 0
            slot.retry_at = 0.0
            if scan.status is ScanStatus.UNREADABLE:
                slot.unreadable += 1
            changes = slot.tracker.update(scan)
        return [TagArrived(slot.name, uid) if kind == "arrived" else TagDeparted(slot.name, uid) for kind, uid in changes]

    def set_version(self, name: str, label: str) -> None:
        """Record a reader's VersionReg verdict for the health view."""
        for slot in self._slots:
            if slot.name == name:
                slot.version = label

    def mark_failed(self, name: str, code: str, now: float) -> None:
        """Count a failure found outside polling (e.g. at start-up) so the reader starts in backoff."""
        for slot in self._slots:
            if slot.name == name:
                with self._lock:
                    slot.errors += 1
                    slot.consecutive += 1
                    slot.last_error = code
                    slot.retry_at = now + self._backoff[0]

    def health(self, now: float) -> tuple[ReaderHealth, ...]:
        """A snapshot of every reader, safe to call from another thread."""
        with self._lock:
            return tuple(
                ReaderHealth(
                    name=s.name, ok=s.consecutive == 0, polls=s.polls, errors=s.errors,
                    consecutive_errors=s.consecutive, last_error=s.last_error,
                    retry_in_s=round(max(0.0, s.retry_at - now), 3),
                    tag=s.tracker.current.hex() if s.tracker.current is not None else None,
                    unreadable=s.unreadable, version=s.version,
                )
                for s in self._slots
            )

    def run(
        self,
        emit: Callable[[PresenceEvent], None],
        stop: threading.Event,
        *,
        beat: Callable[[], None] = lambda: None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """Poll until `stop` is set, keeping the configured rate; `beat` is the supervisor's heartbeat."""
        due = monotonic()
        while not stop.is_set():
            now = monotonic()
            for event in self.step(now):
                emit(event)
            beat()
            due = max(due + self.interval_s, monotonic() - self.interval_s)
            stop.wait(max(0.0, due - monotonic()))
