"""The live grid the dashboard draws: each table's last status, summary and health as the broker delivered
them, the alerts they raise, and a numbered feed of changed rows for the dashboard's live stream."""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

FEED = 1024
"""Changed rows kept for streams that are behind; further behind, a stream starts over from the whole grid."""
REFUSALS = 50
"""Refused messages remembered for the dashboard (each is also logged)."""


@dataclass(frozen=True)
class Limits:
    """When a table raises an alert: a game running longer than `long_game_min`, no action for `idle_min`."""

    long_game_min: float = 120.0
    idle_min: float = 30.0


def alerts_of(row: dict[str, Any], now: float, limits: Limits) -> list[dict[str, Any]]:
    """A table's alerts: `offline`, `reader_faulted` / `terminal_faulted` / `terminal_gone` (with the device),
    `long_game` (with its minutes), `idle` (minutes since the last action)."""
    out: list[dict[str, Any]] = []
    status, summary, health = row.get("status"), row.get("summary"), row.get("health")
    if status is None or status["state"] == "offline":
        out.append({"code": "offline", "since": None if status is None else status["since"]})
        return out
    for name, state in sorted((health or {}).get("readers", {}).items()):
        if state != "up":
            out.append({"code": "reader_faulted", "device": name})
    for name, state in sorted((health or {}).get("terminals", {}).items()):
        if state != "up":
            out.append({"code": f"terminal_{state}", "device": name})
    if summary and summary.get("game") and summary.get("status") == "running":
        started, last = summary.get("started"), summary.get("last_action") or summary.get("started")
        if started is not None and now - started > limits.long_game_min * 60:
            out.append({"code": "long_game", "minutes": int((now - started) // 60)})
        if last is not None and now - last > limits.idle_min * 60:
            out.append({"code": "idle", "minutes": int((now - last) // 60)})
    return out


class Board:
    """Every known table's row; thread-safe; `wait` lets a stream sleep until something changed."""

    def __init__(self, tables: Iterable[str], limits: Limits = Limits(), clock: Callable[[], float] = time.time) -> None:
        self.limits = limits
        self._clock = clock
        self._rows: dict[str, dict[str, Any]] = {t: {"table": t, "status": None, "summary": None, "health": None,
                                                     "heard": None} for t in tables}
        self._n = 0
        self._feed: collections.deque[tuple[int, str]] = collections.deque(maxlen=FEED)
        self._changed = threading.Condition(threading.Lock())
        self.link: dict[str, Any] = {"connected": False, "problem": None}
        self.refusals: collections.deque[dict[str, Any]] = collections.deque(maxlen=REFUSALS)
        self.refused = 0
        self.results = 0
        """Results heard since the dashboard started (a change tells the page to refresh its results)."""
        self.announcement: dict[str, Any] | None = None
        self._alerts: dict[str, list[dict[str, Any]]] = {}
        self.closed = False
        """Set when the venue shuts down: every live stream ends."""

    def close(self) -> None:
        """End every live stream (shutdown)."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def known(self, table: str) -> bool:
        """Whether the venue knows this table."""
        return table in self._rows

    def update(self, table: str, kind: str, data: dict[str, Any]) -> None:
        """A table's status, summary or health, checked; an offline status without a time is dated now."""
        now = self._clock()
        if kind == "status" and data.get("since") is None:
            data = {**data, "since": now}
        with self._changed:
            row = self._rows[table]
            row[kind] = data
            row["heard"] = now
            self._bump(table)

    def _bump(self, table: str) -> None:
        self._n += 1
        self._feed.append((self._n, table))
        self._changed.notify_all()

    def refuse(self, code: str, table: str | None, message: str) -> None:
        """Remember a refused message (shown to staff as a count and the latest few)."""
        with self._changed:
            self.refused += 1
            self.refusals.appendleft({"code": code, "table": table, "message": message[:200], "at": self._clock()})
            self._n += 1
            self._feed.append((self._n, ""))
            self._changed.notify_all()

    def result_added(self) -> None:
        """A result arrived (the dashboard's results list refreshes)."""
        with self._changed:
            self.results += 1
            self._n += 1
            self._feed.append((self._n, ""))
            self._changed.notify_all()

    def set_link(self, connected: bool, problem: str | None) -> None:
        """The dashboard's own connection to the broker."""
        with self._changed:
            self.link = {"connected": connected, "problem": problem}
            self._n += 1
            self._feed.append((self._n, ""))
            self._changed.notify_all()

    def set_announcement(self, announcement: dict[str, Any] | None) -> None:
        """The announcement showing at every table now."""
        with self._changed:
            self.announcement = announcement
            self._n += 1
            self._feed.append((self._n, ""))
            self._changed.notify_all()

    def tick(self) -> None:
        """Re-evaluate the time-based alerts (a game grows long, a table idle): rows whose alerts changed go out."""
        now = self._clock()
        with self._changed:
            for table, row in self._rows.items():
                alerts = alerts_of(row, now, self.limits)
                if alerts != self._alerts.get(table):
                    self._alerts[table] = alerts
                    self._bump(table)

    def row(self, table: str) -> dict[str, Any]:
        """One table's row with its alerts, as the dashboard draws it."""
        with self._changed:
            return self._row(table, self._clock())

    def _row(self, table: str, now: float) -> dict[str, Any]:
        row = dict(self._rows[table])
        row["alerts"] = self._alerts[table] = alerts_of(row, now, self.limits)
        return row

    def grid(self) -> dict[str, Any]:
        """Everything: every row, the venue's link, the announcement, refusals; with the feed number it is as of."""
        now = self._clock()
        with self._changed:
            return {"n": self._n, "at": now, "tables": [self._row(t, now) for t in sorted(self._rows)],
                    "link": dict(self.link), "announcement": self.announcement,
                    "refused": self.refused, "refusals": list(self.refusals)[:10], "results": self.results}

    def wait(self, after: int, timeout: float) -> tuple[int, list[str] | None]:
        """Wait up to `timeout` for changes after feed number `after`: (the newest number, the tables whose rows
        changed, "" for the venue's own facts) or None when the stream fell too far behind (send the whole grid)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._n <= after and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return self._n, []
                self._changed.wait(left)
            oldest = self._feed[0][0] if self._feed else self._n + 1
            if after + 1 < oldest:
                return self._n, None
            changed = list(dict.fromkeys(t for n, t in self._feed if n > after))
            return self._n, changed
