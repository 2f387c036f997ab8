"""Which phones hold each seat's link open: a second phone on a seat is told another holds it, and so is the host.

A seat page names its browser by a random id it keeps for the tab (`X-Phone-Id`); the table never learns more
about a phone. A phone counts as holding its seat while it has asked for the seat's state within `HOLD_S`
(a seat page asks at every change of the table and at least every `companion.web.seat.KEEPALIVE_S`).
"""

from __future__ import annotations

import re
import threading
import time
from typing import Callable

HOLD_S = 45.0
"""How long a phone holds its seat after its last request."""
MAX_PHONES = 8
"""Phones remembered per seat (more are counted as one more): a page reloaded in a loop cannot grow memory."""
PHONE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class SeatHolders:
    """Thread-safe record of the phones that asked for each seat token's state lately."""

    def __init__(self, hold_s: float = HOLD_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.hold_s = hold_s
        self._clock = clock
        self._seen: dict[str, dict[str, float]] = {}
        self._lock = threading.Lock()

    def seen(self, token: str, phone: str | None) -> int:
        """Note that `phone` asked for this seat now; how many other phones hold the seat (a request without a
        well-formed id is counted as another phone, so an old page still warns the new one)."""
        now = self._clock()
        key = phone if phone is not None and PHONE_ID.match(phone) else None
        with self._lock:
            phones = self._fresh(token, now)
            if key is not None:
                if key not in phones and len(phones) >= MAX_PHONES:
                    phones.pop(min(phones, key=phones.__getitem__))
                phones[key] = now
            self._seen[token] = phones
            return sum(1 for p in phones if p != key)

    def counts(self, tokens: list[str]) -> list[int]:
        """How many phones hold each of these seat tokens now."""
        now = self._clock()
        with self._lock:
            return [len(self._fresh(t, now)) for t in tokens]

    def forget_except(self, tokens: list[str]) -> None:
        """Drop every token but these (the running game's): an old game's seats hold nothing."""
        with self._lock:
            for token in [t for t in self._seen if t not in tokens]:
                del self._seen[token]

    def _fresh(self, token: str, now: float) -> dict[str, float]:
        return {p: at for p, at in self._seen.get(token, {}).items() if now - at <= self.hold_s}
