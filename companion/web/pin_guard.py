"""Slows host-PIN guessing: per device, and for the whole table whatever the number of devices.

Per device (an IPv4 address or an IPv6 /64, see companion.web.clients): 5 free tries, then a wait of 30 s
that doubles with each wrong PIN, to 15 min. A device's lock never refuses another device, and a locked device
is never forgotten before its lock ends: at most MAX_CLIENTS devices are remembered, and once that many are,
new devices share one record (and so one backoff) instead of pushing anyone out.

Table-wide: a token bucket lets at most TABLE_BURST wrong PINs be checked at once and TABLE_PER_HOUR more each
hour, from any number of devices. When it is empty every PIN is refused unchecked (`pin_table_locked`), the
right one too, or the refusal would tell a guesser when it had found it; the host gets in with `companion
host-link` on the table's computer. docs/SECURITY.md has the arithmetic: 10^6 PINs take more than two years.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Protocol

from companion.web.clients import client_key
from companion.web.errors import ApiError

FREE_TRIES = 5
"""Wrong PINs a device may send before it has to wait."""
FIRST_LOCK_S = 30.0
MAX_LOCK_S = 900.0
"""Each wrong PIN after the free tries doubles the device's wait, up to this."""
FORGET_S = 3600.0
"""A device with no wrong PIN for this long (and no lock running) may be forgotten."""
MAX_CLIENTS = 1024
"""Devices remembered at once; more share the SHARED record (memory stays bounded, nobody is evicted early)."""
SHARED = "(every other device)"
TABLE_BURST = 20
"""Wrong PINs the table checks back to back before the hourly rate applies (a host's typos never reach it)."""
TABLE_PER_HOUR = 50.0
"""Wrong PINs the table checks per hour, from all devices together, once the burst is spent."""
MAX_PIN_CHARS = 64


class PinCheck(Protocol):
    """What the guard asks the table: is this the PIN (constant time)?"""

    def check_pin(self, pin: str) -> bool:
        """Whether `pin` is the host PIN."""


@dataclass(frozen=True)
class Strikes:
    """One device's wrong PINs: how many, when the last came, and until when it must wait."""

    count: int = 0
    last: float = 0.0
    locked_until: float = 0.0

    def after_wrong(self, now: float) -> "Strikes":
        """The strikes after one more wrong PIN at `now`."""
        count = self.count + 1
        lock_s = 0.0 if count < FREE_TRIES else min(MAX_LOCK_S, FIRST_LOCK_S * 2 ** (count - FREE_TRIES))
        return replace(self, count=count, last=now, locked_until=now + lock_s)


@dataclass
class PinGuard:
    """Checks PINs through the per-device and table-wide limits; `clock` is monotonic (a clock jump changes
    nothing), injected by tests."""

    clock: Callable[[], float] = time.monotonic
    burst: int = TABLE_BURST
    per_hour: float = TABLE_PER_HOUR
    max_clients: int = MAX_CLIENTS
    clients: dict[str, Strikes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _tokens: float | None = None
    _filled_at: float = 0.0

    def attempt(self, table: PinCheck, pin: str, address: str | None) -> None:
        """Check a PIN from `address`; returns when it is right, else raises ApiError bad_pin, pin_locked (this
        device waits) or pin_table_locked (the whole table waits)."""
        with self.lock:
            now = self.clock()
            key = self._slot(client_key(address), now)
            strikes = self._current(key, now)
            if now < strikes.locked_until:
                wait = math.ceil(strikes.locked_until - now)
                raise ApiError("pin_locked", f"too many wrong PINs from this device; try again in {wait} s")
            if not (isinstance(pin, str) and 0 < len(pin) <= MAX_PIN_CHARS and pin.isascii() and pin.isdigit()):
                raise ApiError("bad_pin", "wrong host PIN")  # no PIN is anything but ASCII digits: nothing to check
            if self._refill(now) < 1:
                wait = math.ceil((1 - self._refill(now)) * 3600 / self.per_hour)
                raise ApiError("pin_table_locked", f"too many wrong PINs at this table; try again in {wait} s, or "
                                                   f"run `companion host-link` on the table's computer")
            if table.check_pin(pin):
                if key != SHARED:  # the shared record is other devices' too
                    self.clients.pop(key, None)
                return
            self._tokens = self._refill(now) - 1
            self.clients[key] = strikes.after_wrong(now)
            raise ApiError("bad_pin", "wrong host PIN")

    def checkable_now(self) -> float:
        """Wrong PINs the table would check right now (the bucket's level)."""
        with self.lock:
            return self._refill(self.clock())

    def _refill(self, now: float) -> float:
        """The bucket's level at `now` (it fills at `per_hour`, to `burst`), remembered from then on."""
        if self._tokens is None:
            self._tokens, self._filled_at = float(self.burst), now
        elif now > self._filled_at:
            self._tokens = min(float(self.burst), self._tokens + (now - self._filled_at) * self.per_hour / 3600)
            self._filled_at = now
        return self._tokens

    def _current(self, key: str, now: float) -> Strikes:
        """A device's strikes now (a clean slate once FORGET_S passed since its last wrong PIN, lock over)."""
        strikes = self.clients.get(key, Strikes())
        if strikes.count and now >= strikes.locked_until and now - strikes.last > FORGET_S:
            return Strikes()
        return strikes

    def _slot(self, key: str, now: float) -> str:
        """The record a device counts in: its own while there is room (devices that may be forgotten make room),
        else the shared one."""
        if key in self.clients or len(self.clients) < self.max_clients:
            return key
        for old in [k for k, s in self.clients.items()
                    if k != SHARED and now >= s.locked_until and now - s.last > FORGET_S]:
            del self.clients[old]
        return key if len(self.clients) < self.max_clients else SHARED
