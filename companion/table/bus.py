"""Public event fan-out for SSE: numbered events, a replay buffer for Last-Event-ID, one queue per client."""

from __future__ import annotations

import collections
import queue
import secrets
import threading
from typing import Any, Callable, Mapping

from companion.web.facade import Event

BUFFER = 512
CLIENT_QUEUE = 1024


class Subscriber:
    """One SSE client's queue; a client that falls too far behind is cut off and resyncs on reconnect."""

    def __init__(self, bus: "EventBus") -> None:
        self._bus = bus
        self.queue: queue.Queue[Event | None] = queue.Queue(CLIENT_QUEUE)
        self.closed = False

    def get(self, timeout: float) -> Event | None:
        """The next event, or None after timeout."""
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop receiving."""
        self._bus.unsubscribe(self)


class EventBus:
    """Publishes public events; ids are `<boot>-<n>` so ids from an earlier process are recognised as stale."""

    def __init__(self, snapshot: Callable[[], Mapping[str, Any]]) -> None:
        self.boot = secrets.token_hex(4)
        self._n = 0
        self._buffer: collections.deque[Event] = collections.deque(maxlen=BUFFER)
        self._subs: set[Subscriber] = set()
        self._lock = threading.Lock()
        self._snapshot = snapshot

    def publish(self, type_: str, data: Mapping[str, Any]) -> Event:
        """Number an event, buffer it and hand it to every client."""
        with self._lock:
            self._n += 1
            event = Event(f"{self.boot}-{self._n}", type_, data)
            self._buffer.append(event)
            for sub in list(self._subs):
                try:
                    sub.queue.put_nowait(event)
                except queue.Full:
                    sub.closed = True
                    self._subs.discard(sub)
        return event

    def subscribe(self, last_event_id: str | None) -> Subscriber:
        """A new client: the events after `last_event_id` if still buffered, else a fresh state snapshot."""
        sub = Subscriber(self)
        with self._lock:
            backlog = self._after(last_event_id)
            if backlog is None:
                backlog = [Event(f"{self.boot}-{self._n}", "state", self._snapshot())]
            for event in backlog[-CLIENT_QUEUE // 2:]:
                sub.queue.put_nowait(event)
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a client."""
        with self._lock:
            self._subs.discard(sub)

    def close_all(self) -> None:
        """End every client's stream (shutdown)."""
        with self._lock:
            for sub in self._subs:
                sub.closed = True
                try:
                    sub.queue.put_nowait(None)
                except queue.Full:
                    pass
            self._subs.clear()

    def clients(self) -> int:
        """Connected SSE clients."""
        with self._lock:
            return len(self._subs)

    def recent(self) -> list[Event]:
        """The buffered events (tests and the host page read these)."""
        with self._lock:
            return list(self._buffer)

    def _after(self, last_event_id: str | None) -> list[Event] | None:
        if not last_event_id:
            return None
        boot, _, n = last_event_id.partition("-")
        if boot != self.boot or not n.isdigit():
            return None
        n_int = int(n)
        if n_int > self._n or (self._buffer and int(self._buffer[0].id.split("-")[1]) > n_int + 1):
            return None  # too old: the gap is gone from the buffer
        return [e for e in self._buffer if int(e.id.split("-")[1]) > n_int]
