"""The live-update stream cap: each open `/api/events` stream holds a slot (and a server thread) until it ends."""

from __future__ import annotations

import threading

from companion.web.errors import ApiError


class Slot:
    """One held stream slot; `release()` may be called any number of times."""

    def __init__(self, slots: "StreamSlots") -> None:
        self._slots = slots
        self._held = True
        self._lock = threading.Lock()

    def release(self) -> None:
        """Give the slot back (once)."""
        with self._lock:
            held, self._held = self._held, False
        if held:
            self._slots._give_back()


class StreamSlots:
    """At most `cap` streams at once; the server's pool has `cap` threads beyond the ordinary ones for them."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open = 0
        self._lock = threading.Lock()

    def acquire(self) -> Slot:
        """A slot, or ApiError stream_limit (503) when every slot is taken: the client retries, never hangs."""
        with self._lock:
            if self._open >= self.cap:
                raise ApiError("stream_limit", f"{self.cap} live-update streams are open already; retry shortly")
            self._open += 1
        return Slot(self)

    def open(self) -> int:
        """Streams open now."""
        with self._lock:
            return self._open

    def _give_back(self) -> None:
        with self._lock:
            self._open -= 1
