"""Event fan-out for SSE: numbered events, each encoded once into its wire bytes, kept in one shared ring.

Two audiences read the ring. Everyone (the table page, phones, anyone on the LAN) reads the public events:
each is a function of the public view alone. The host's stream (the host page and the simulator, behind the
host session) reads the same events and more: an event may carry a host variant that says what only the host
may know (a refusal's code, a tag's UID), and host-only events (enrollment, terminals, reader faults) are never
in the public stream at all. Public events are numbered densely (`<boot>-<n>`), so a public client cannot
count the host's events between two of its own; a host-only event is `<boot>-<n>.<k>`, the k-th such event
since boot, after public event n.

A client is a cursor into the ring: publishing appends one entry and wakes the readers, and each client's
stream writes the bytes after its cursor that its audience reads. A client that has caught up may instead be
pushed to: the publish hands the one encoded frame to its writer, which queues the bytes on the client's
connection without blocking, so an event costs one write per client and no thread wakes up for it. Nothing is
encoded per client; a client that falls a whole ring behind (or, pushed to, whose connection holds too much
unsent) is cut off and resyncs on reconnect (Last-Event-ID too old -> a fresh snapshot)."""

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
ID_DIGITS = 18
"""Longest event number a Last-Event-ID may name (more is no id of ours: a fresh snapshot; int() of thousands of
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


def _decode(frame: bytes) -> Event:
    """An event back from its SSE frame."""
    head, _, data = frame.partition(b"\ndata: ")
    lines = head.decode().split("\n")
    return Event(lines[0][len("id: "):], lines[1][len("event: "):], json.loads(data))


@dataclass(slots=True)
class _Entry:
    """One buffered event as its wire bytes only: the ring holds no event dicts, so hundreds of buffered
    snapshots are a few bytes objects the cycle collector never scans, not a growing tree of dicts and lists
    that made each full collection of a long-running table cost ~40 ms here (measured with 512 buffered).

    `n` is the entry's place in the ring (every audience's events alike), `public` the number of the last public
    event at or before it; `frame` is what public clients read (None: a host-only event) and `host` what the
    host's stream reads instead (None: the public frame). Never changed once made (not frozen: a frozen slots
    class's `__init__` costs 4x as much, on every publish)."""

    n: int
    public: int
    frame: bytes | None
    host: bytes | None = None
    host_number: int = 0
    """A host-only event's k (0 for a public event)."""

    def bytes_for(self, host: bool) -> bytes | None:
        """The frame this audience reads (None: nothing for it)."""
        return (self.host or self.frame) if host else self.frame

    def event(self, host: bool = False) -> Event:
        """The event back from its frame (what a client reads), for the few readers that want it whole."""
        frame = self.bytes_for(host)
        assert frame is not None
        return _decode(frame)


class Subscriber:
    """One SSE client: a cursor into the bus's ring, plus the snapshot it starts from when it could not resume.
    `host`: the host's stream (public events with their host variants, and host-only events)."""

    def __init__(self, bus: "EventBus", cursor: int, first: list[bytes], host: bool = False) -> None:
        self._bus = bus
        self.cursor = cursor
        self._first = first
        self.host = host
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
        frames = self._bus._wait(self, timeout, 1)
        return _decode(frames[0]) if frames else None

    def frames(self, timeout: float) -> bytes | None:
        """The encoded frames of every event after the cursor, in one chunk; None after timeout or once closed."""
        frames = self._bus._wait(self, timeout, BUFFER)
        return b"".join(frames) if frames else None

    def close(self) -> None:
        """Stop receiving."""
        self._bus.unsubscribe(self)


class EventBus:
    """Publishes events; ids are `<boot>-<n>` so ids from an earlier process are recognised as stale."""

    def __init__(self, snapshot: Callable[[], Mapping[str, Any]]) -> None:
        self.boot = secrets.token_hex(4)
        self._n = 0
        """Entries ever appended (every audience's)."""
        self._public = 0
        """Public events ever published: their ids are dense."""
        self._host_only = 0
        self._ring: collections.deque[_Entry] = collections.deque(maxlen=BUFFER)
        self._subs: set[Subscriber] = set()
        self._pushed: dict[Subscriber, Writer] = {}
        self._hosts_pushed = 0
        """How many pushed clients are host streams (a public event with a host variant looks for them)."""
        self._changed = threading.Condition(threading.Lock())
        self._snapshot = snapshot
        self._snapshot_frame: tuple[int, bytes] | None = None

    def publish(self, type_: str, data: Mapping[str, Any], encoded: bytes | None = None,
                host: Mapping[str, Any] | None = None, host_encoded: bytes | None = None) -> Event:
        """Number a public event, encode it once (unless `encoded` is its data's encoding), keep it in the ring
        and wake the clients. `host`: the same event as the host's stream reads it (what only the host may
        know added; `host_encoded` its encoding)."""
        with self._changed:
            self._n += 1
            self._public += 1
            event = Event(f"{self.boot}-{self._public}", type_, data)
            frame = sse_frame(event, encoded)
            host_frame = None if host is None else sse_frame(Event(event.id, type_, host), host_encoded)
            self._ring.append(_Entry(self._n, self._public, frame, host_frame))
            if self._pushed:
                if host_frame is None or not self._hosts_pushed:
                    self._write_pushed(chunk(frame))
                else:
                    self._write_pushed(chunk(frame), chunk(host_frame))
            self._changed.notify_all()
        return event

    def publish_host(self, type_: str, data: Mapping[str, Any], encoded: bytes | None = None) -> Event:
        """Number a host-only event (the host's stream alone reads it), keep it in the ring and wake the clients."""
        with self._changed:
            self._n += 1
            self._host_only += 1
            event = Event(f"{self.boot}-{self._public}.{self._host_only}", type_, data)
            frame = sse_frame(event, encoded)
            self._ring.append(_Entry(self._n, self._public, None, frame, self._host_only))
            if self._pushed:
                self._write_pushed(None, chunk(frame))
            self._changed.notify_all()
        return event

    def _write_pushed(self, wire: bytes | None, host_wire: bytes | None = None) -> None:
        """Hand one event's wire bytes to every pushed client of its audience (`host_wire`: what host streams
        get instead; None for either: nothing for that audience); one that cannot take them is cut off."""
        for sub, writer in list(self._pushed.items()):
            bytes_ = (host_wire or wire) if sub.host else wire
            if bytes_ is None:
                sub.cursor = self._n  # nothing of this event is for it: it stays caught up
                continue
            try:
                taken = writer(bytes_)
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
            self._hosts_pushed += sub.host
            return True

    def _drop(self, sub: Subscriber) -> None:
        """Forget a client (the bus lock held) and wake whatever waits for it."""
        sub.closed = True
        self._subs.discard(sub)
        if self._pushed.pop(sub, None) is not None:
            self._hosts_pushed -= sub.host
        sub._ended.set()

    def subscribe(self, last_event_id: str | None, host: bool = False) -> Subscriber:
        """A new client (`host`: the host's stream): the events after `last_event_id` if still buffered, else a
        fresh state snapshot."""
        with self._changed:
            cursor = self._resume_point(last_event_id, host)
            first: list[bytes] = []
            if cursor is None:
                cursor = self._n
                cached = self._snapshot_frame
                if cached is None or cached[0] != self._public:  # one snapshot encoding per public event, shared
                    event = Event(f"{self.boot}-{self._public}", "state", self._snapshot())
                    cached = self._snapshot_frame = (self._public, sse_frame(event))
                first = [cached[1]]
            sub = Subscriber(self, cursor, first, host)
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
        """The number of the latest public event (0 before the first), without decoding any."""
        with self._changed:
            return self._public

    def recent(self, host: bool = False) -> list[Event]:
        """The buffered events as a public client (or, `host`, the host's stream) reads them (tests and the
        benchmarks read these)."""
        with self._changed:
            entries = list(self._ring)
        return [e.event(host) for e in entries if e.bytes_for(host) is not None]

    def _wait(self, sub: Subscriber, timeout: float, most: int) -> list[bytes]:
        """Up to `most` frames after the client's cursor, waiting up to `timeout` for one; advances the cursor."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                if sub.closed:
                    return []
                if sub._first:
                    out, sub._first = sub._first[:most], sub._first[most:]
                    return out
                if sub.cursor < self._n:
                    taken = self._take(sub, most)
                    if taken or sub.closed:
                        return taken
                    continue  # only events of another audience: wait on
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._changed.wait(left)

    def _take(self, sub: Subscriber, most: int) -> list[bytes]:
        oldest = self._ring[0].n if self._ring else self._n + 1
        if sub.cursor + 1 < oldest:  # fell a whole ring behind: cut off, it resyncs on reconnect
            self._drop(sub)
            return []
        out: list[bytes] = []
        host = sub.host
        for i in range(sub.cursor + 1 - oldest, len(self._ring)):
            entry = self._ring[i]
            sub.cursor = entry.n
            frame = entry.bytes_for(host)
            if frame is not None:
                out.append(frame)
                if len(out) >= most:
                    break
        return out

    def _resume_point(self, last_event_id: str | None, host: bool) -> int | None:
        """The ring position to resume after, or None when the id is unknown, not this audience's, or no longer
        buffered."""
        if not last_event_id:
            return None
        boot, _, number = last_event_id.partition("-")
        public, dot, host_number = number.partition(".")
        if boot != self.boot or not (public.isascii() and public.isdigit()) or len(public) > ID_DIGITS or (dot and not host):
            return None
        if dot and (not (host_number.isascii() and host_number.isdigit()) or len(host_number) > ID_DIGITS):
            return None
        p, k = int(public), int(host_number) if dot else 0
        if p > self._public or k > self._host_only:
            return None
        if p == 0 and not k:
            # before the first public event: resumable while nothing since has left the ring
            return 0 if not self._ring or self._ring[0].n == 1 else None
        for entry in reversed(self._ring):
            if (entry.host_number == k and entry.public == p) if k else (entry.frame is not None and entry.public == p):
                return entry.n
            if entry.public < p:
                break
        return None  # too old: the gap is gone from the buffer
