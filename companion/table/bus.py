"""Public event fan-out for SSE: numbered events, each encoded once into its wire bytes, kept in one shared ring.

A client is a cursor into the ring: publishing appends one encoded frame and wakes the readers, and each
client's stream writes the bytes after its cursor. A client that has caught up may instead be pushed to: the
publish hands the one encoded frame to its writer, which queues the bytes on the client's connection without
blocking, so an event costs one write per client and no thread wakes up for it. Nothing is encoded per
client; a client that falls a whole ring behind (or, pushed to, whose connection holds too much unsent) is cut
off and resyncs on reconnect (Last-Event-ID too old -> a fresh snapshot)."""

from __future__ import annotations

import collections
import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.table.wire_json import dumps
from companion.web.facade import Event

BUFFER = 512
"""Events kept for Last-Event-ID resumes and for clients that are behind; further behind is cut off."""
MAX_ID_DIGITS = 18
"""An event number has at most this many digits; a longer Last-Event-ID is not ours (and int() of thousands of
digits is refused by Python or slow)."""


Writer = Callable[[bytes], bool]
"""Queues one HTTP/1.1 chunk on a client's connection without blocking; False when the client is gone or
holds too much unsent (it is then cut off)."""


def sse_frame(event: Event, data: bytes | None = None) -> bytes:
    """One event in text/event-stream framing, with its `id:` line, as UTF-8 bytes (`data`: its data already
    encoded)."""
    return b"id: %b\nevent: %b\ndata: %b\n\n" % (event.id.encode(), event.type.encode(),
                                                   dumps(event.data) if data is None else data)


def chunk(data: bytes) -> bytes:
    """Bytes as one HTTP/1.1 chunk (`Transfer-Encoding: chunked`), as a streamed response puts them on the wire."""
    return b"%X\r\n%b\r\n" % (len(data), data)


@dataclass(frozen=True, slots=True)
class _Entry:
    """One buffered event as its wire bytes only: the ring holds no event dicts, so hundreds of buffered
    snapshots are a few bytes objects the cycle collector never scans, not a growing tree of dicts and lists
    that made each full collection of a long-running table cost ~40 ms here (measured with 512 buffered)."""

    n: int
    frame: bytes

    def event(self) -> Event:
        """The event back from its frame (what a client reads), for the few readers that want it whole."""
        head, _, data = self.frame.partition(b"\ndata: ")
        lines = head.decode().split("\n")
        return Event(lines[0][len("id: "):], lines[1][len("event: "):], json.loads(data))


class Subscriber:
    """One SSE client: a cursor into the bus's ring, plus the snapshot it starts from when it could not resume."""

    def __init__(self, bus: "EventBus", cursor: int, first: list[_Entry]) -> None:
        self._bus = bus
        self.cursor = cursor
        self._first = first
        self.closed = False
        self._ended = threading.Event()

    def push(self, writer: Writer) -> bool:
        """From now on every event is handed to `writer` as it is published (True), once the client has
        caught up; False while it still has events to take with `frames` first."""
        return self._bus._push(self, writer)

    def wait_closed(self, timeout: float) -> bool:
        """Wait up to `timeout` for the stream to be closed or cut off; whether it was."""
        return self._ended.wait(timeout)

    def get(self, timeout: float) -> Event | None:
        """The next event, or None after timeout."""
        entries = self._bus._wait(self, timeout, 1)
        return entries[0].event() if entries else None

    def frames(self, timeout: float) -> bytes | None:
        """The encoded frames of every event after the cursor, in one chunk; None after timeout or once closed."""
        entries = self._bus._wait(self, timeout, BUFFER)
        return b"".join(e.frame for e in entries) if entries else None

    def close(self) -> None:
        """Stop receiving."""
        self._bus.unsubscribe(self)


class EventBus:
    """Publishes public events; ids are `<boot>-<n>` so ids from an earlier process are recognised as stale."""

    def __init__(self, snapshot: Callable[[], Mapping[str, Any]]) -> None:
        self.boot = secrets.token_hex(4)
        self._n = 0
        self._ring: collections.deque[_Entry] = collections.deque(maxlen=BUFFER)
        self._subs: set[Subscriber] = set()
        self._pushed: dict[Subscriber, Writer] = {}
        self._changed = threading.Condition(threading.Lock())
        self._snapshot = snapshot
        self._snapshot_entry: _Entry | None = None

    def publish(self, type_: str, data: Mapping[str, Any], encoded: bytes | None = None) -> Event:
        """Number an event, encode it once (unless `encoded` is its data's encoding), keep it in the ring and
        wake the clients."""
        with self._changed:
            self._n += 1
            event = Event(f"{self.boot}-{self._n}", type_, data)
            frame = sse_frame(event, encoded)
            self._ring.append(_Entry(self._n, frame))
            if self._pushed:
                self._write_pushed(chunk(frame))
            self._changed.notify_all()
        return event

    def _write_pushed(self, wire: bytes) -> None:
        """Hand one event's wire bytes to every pushed client; one that cannot take them is cut off."""
        for sub, writer in list(self._pushed.items()):
            try:
                taken = writer(wire)
            except Exception:  # a broken connection must not stop the publish (nor the table loop)
                taken = False
            if taken:
                sub.cursor = self._n
            else:
                self._drop(sub)

    def _push(self, sub: Subscriber, writer: Writer) -> bool:
        with self._changed:
            if sub.closed or sub._first or sub.cursor != self._n:
                return False
            self._pushed[sub] = writer
            return True

    def _drop(self, sub: Subscriber) -> None:
        """Forget a client (the bus lock held) and wake whatever waits for it."""
        sub.closed = True
        self._subs.discard(sub)
        self._pushed.pop(sub, None)
        sub._ended.set()

    def subscribe(self, last_event_id: str | None) -> Subscriber:
        """A new client: the events after `last_event_id` if still buffered, else a fresh state snapshot."""
        with self._changed:
            cursor = self._resume_point(last_event_id)
            first: list[_Entry] = []
            if cursor is None:
                cursor = self._n
                entry = self._snapshot_entry
                if entry is None or entry.n != self._n:  # one snapshot encoding per event number, shared
                    event = Event(f"{self.boot}-{self._n}", "state", self._snapshot())
                    entry = self._snapshot_entry = _Entry(self._n, sse_frame(event))
                first = [entry]
            sub = Subscriber(self, cursor, first)
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a client (wakes it if it is waiting)."""
        with self._changed:
            self._drop(sub)
            self._changed.notify_all()

    def close_all(self) -> None:
        """End every client's stream (shutdown)."""
        with self._changed:
            for sub in list(self._subs):
                self._drop(sub)
            self._changed.notify_all()

    def clients(self) -> int:
        """Connected SSE clients."""
        with self._changed:
            return len(self._subs)

    def last_number(self) -> int:
        """The number of the latest event (0 before the first), without decoding any."""
        with self._changed:
            return self._n

    def recent(self) -> list[Event]:
        """The buffered events as a client reads them (tests and the benchmarks read these)."""
        with self._changed:
            entries = list(self._ring)
        return [e.event() for e in entries]

    def _wait(self, sub: Subscriber, timeout: float, most: int) -> list[_Entry]:
        """Up to `most` entries after the client's cursor, waiting up to `timeout` for one; advances the cursor."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                if sub.closed:
                    return []
                if sub._first:
                    out, sub._first = sub._first[:most], sub._first[most:]
                    return out
                if sub.cursor < self._n:
                    return self._take(sub, most)
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._changed.wait(left)

    def _take(self, sub: Subscriber, most: int) -> list[_Entry]:
        oldest = self._ring[0].n if self._ring else self._n + 1
        if sub.cursor + 1 < oldest:  # fell a whole ring behind: cut off, it resyncs on reconnect
            self._drop(sub)
            return []
        start = sub.cursor + 1 - oldest
        out = [self._ring[i] for i in range(start, min(len(self._ring), start + most))]
        sub.cursor = out[-1].n
        return out

    def _resume_point(self, last_event_id: str | None) -> int | None:
        """The event number to resume after, or None when it is unknown or no longer buffered."""
        if not last_event_id:
            return None
        boot, _, n = last_event_id.partition("-")
        if boot != self.boot or not (n.isascii() and n.isdigit()) or len(n) > MAX_ID_DIGITS:
            return None  # not one of ours (5,000 digits or a superscript is not an event number)
        n_int = int(n)
        oldest = self._ring[0].n if self._ring else self._n + 1
        if n_int > self._n or oldest > n_int + 1:
            return None  # too old: the gap is gone from the buffer
        return n_int
