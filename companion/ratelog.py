"""Log lines a remote party can cause, at most once per interval per kind of problem, with a count.

A terminal sending junk, a page sending bad requests or a flood of connections must not fill the Pi's SD card
or the system log: the first occurrence of a problem is logged at once; repeats within `interval_s` are only
counted, and the next line logged for it says how many were held back. A leaf module (the standard library
only), so hal, table and web all use it.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

INTERVAL_S = 60.0
MAX_KINDS = 256
"""Kinds of problem tracked at once; beyond that, new kinds share one (a flood of distinct keys stays bounded)."""
OVERFLOW = "(other)"


@dataclass
class _Kind:
    """One kind of problem: when it was last logged, and how many since then were held back."""

    logged_at: float
    held: int = 0


class RateLimiter:
    """Counts occurrences per key: `admit` says whether one may be logged now, and how many were held back."""

    def __init__(self, interval_s: float = INTERVAL_S, clock: Callable[[], float] = time.monotonic,
                 max_kinds: int = MAX_KINDS) -> None:
        self.interval_s = interval_s
        self._clock = clock
        self._max = max_kinds
        self._kinds: dict[str, _Kind] = {}
        self._lock = threading.Lock()

    def admit(self, key: str) -> tuple[bool, int]:
        """(log it now?, how many like it were held back since it was last logged)."""
        with self._lock:
            now = self._clock()
            key = self._room_for(key, now)
            kind = self._kinds.get(key)
            if kind is not None and now - kind.logged_at < self.interval_s:
                kind.held += 1
                return False, 0
            held = kind.held if kind is not None else 0
            self._kinds[key] = _Kind(now)
            return True, held

    def held(self, key: str) -> int:
        """How many of `key` were held back since it was last logged."""
        with self._lock:
            kind = self._kinds.get(key)
            return kind.held if kind is not None else 0

    def note(self, held: int) -> str:
        """What a logged line adds when others like it were held back."""
        return f" (and {held} more like this in the last {self.interval_s:.0f} s)" if held else ""

    def _room_for(self, key: str, now: float) -> str:
        """The key to count under: itself, or the shared overflow key once MAX_KINDS are tracked (kinds whose
        interval has passed with nothing held back are forgotten first)."""
        if key in self._kinds or len(self._kinds) < self._max:
            return key
        for stale in [k for k, v in self._kinds.items() if now - v.logged_at >= self.interval_s and not v.held]:
            del self._kinds[stale]
        return key if len(self._kinds) < self._max else OVERFLOW


class RateLimitedLog:
    """A logger's warnings and errors, each `key` logged at most once per `interval_s` (monotonic clock)."""

    def __init__(self, logger: logging.Logger, interval_s: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic, max_kinds: int = MAX_KINDS) -> None:
        self.logger = logger
        self.limiter = RateLimiter(interval_s, clock, max_kinds)

    def log(self, level: int, key: str, message: str, *args: Any, exc_info: Any = None) -> bool:
        """Log `message % args` unless `key` was logged less than `interval_s` ago (then only count it); True
        when it was logged. The line says how many like it were held back since the last one."""
        now, held = self.limiter.admit(key)
        if now:
            self.logger.log(level, message + self.limiter.note(held), *args, exc_info=exc_info)
        return now

    def warning(self, key: str, message: str, *args: Any) -> bool:
        """A rate-limited warning."""
        return self.log(logging.WARNING, key, message, *args)

    def error(self, key: str, message: str, *args: Any, exc_info: Any = None) -> bool:
        """A rate-limited error (with a traceback when `exc_info` is given)."""
        return self.log(logging.ERROR, key, message, *args, exc_info=exc_info)

    def held(self, key: str) -> int:
        """How many of `key` were held back since it was last logged."""
        return self.limiter.held(key)


class RateLimitFilter(logging.Filter):
    """The same limit for a library's own log lines (waitress logs each client that hangs up mid-request): a
    record passes once per interval per logger, level and message template."""

    def __init__(self, interval_s: float = INTERVAL_S, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.limiter = RateLimiter(interval_s, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is logged (with the count of those held back added to it)."""
        template = str(record.msg)
        now, held = self.limiter.admit(f"{record.name}:{record.levelno}:{template.split(' /', 1)[0][:60]}")
        if now and held:
            record.msg = template + self.limiter.note(held).replace("%", "%%")
        return now


LIBRARY_LOGGERS = ("waitress", "waitress.queue")
"""Loggers of libraries that log what remote clients do."""


def limit_library_logs(names: tuple[str, ...] = LIBRARY_LOGGERS) -> None:
    """Give those loggers a RateLimitFilter (once each; `companion run` calls this at start)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimitFilter) for f in logger.filters):
            logger.addFilter(RateLimitFilter())
