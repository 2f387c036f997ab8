"""CPU per accepted tap: the table process's own CPU time (all its threads) from a ballot placed until every
live-update client holds the new state, with 0 and 12 SSE clients, the table in its own process as
`companion run` runs. CPU time, not wall time: on a shared machine other work stretches the wall clock but
not the table's CPU."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from companion.bench.floors import floors
from companion.bench.skeleton import tap_skeleton_ms
from companion.bench.process import TableProcess
from companion.bench.sse import SseClient, connect

CLIENTS = (0, 12)
IDLE_S = 2.0
"""Seconds of the idle table measured before the taps (its reader polling runs all the time)."""
PINGS = 50
"""Readings taken back to back before the taps: what one costs the table (a ping through its loop, which the
reading after each tap also is) is the benchmark's, not the tap's, and is subtracted."""


def _delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    """CPU nanoseconds by thread group between two readings."""
    return {k: after[k] - before.get(k, 0) for k in after}


@dataclass(frozen=True)
class _Baseline:
    """What the table spends that is not a tap's: idle CPU per second and one reading's ping, by thread group."""

    idle: dict[str, float]
    ping: dict[str, float]

    @property
    def idle_ms_per_s(self) -> float:
        """The idle table's CPU ms per second, all threads."""
        return sum(self.idle.values())

    @property
    def ping_ms(self) -> float:
        """One reading's CPU ms (never below 0: noise may make the difference negative)."""
        return max(0.0, sum(self.ping.values()))

    @classmethod
    def measure(cls, table: TableProcess) -> "_Baseline":
        """The idle table for IDLE_S, then PINGS readings back to back."""
        idle0, t0 = table.table_cpu_by_thread(), time.monotonic()
        time.sleep(IDLE_S)
        idle_s = time.monotonic() - t0
        idle1 = table.table_cpu_by_thread()
        idle = {k: v / 1e6 / idle_s for k, v in _delta(idle1, idle0).items()}
        t0 = time.monotonic()
        for _ in range(PINGS):
            reading = table.table_cpu_by_thread()
        pinged_s = time.monotonic() - t0
        ping = {k: (ns / 1e6 - idle.get(k, 0.0) * pinged_s) / PINGS for k, ns in _delta(reading, idle1).items()}
        return cls(idle, ping)


def _per_tap_ms(taps: int, data_dir: str, clients: int, seed: int) -> dict[str, Any]:
    """Table CPU milliseconds per accepted tap over `taps` taps (mean and median), less what the idle table
    (its reader polling) spends in the same wall time, measured before the taps; also the raw mean and the
    mean by thread group (each less its own idle and ping share)."""
    table = TableProcess(data_dir, seed, threads=clients + 8)
    readers = [SseClient(table.port) for _ in range(clients)]
    samples: list[float] = []
    raw: list[float] = []
    by_thread: dict[str, float] = {}
    try:
        connect(readers)
        base = _Baseline.measure(table)
        while len(samples) < taps:
            for seat in table.voters():
                before, t0 = table.table_cpu_by_thread(), time.monotonic()
                tap = table.tap(seat, settle=False)
                for c in readers:
                    if c.arrival_after(tap.event_before) is None:
                        raise RuntimeError(f"an SSE client never got the state after a tap on seat {seat}")
                spent = _delta(table.table_cpu_by_thread(tap), before)
                wall = time.monotonic() - t0
                raw.append(sum(spent.values()) / 1e6)
                samples.append(raw[-1] - base.idle_ms_per_s * wall - base.ping_ms)
                for group, ns in spent.items():
                    by_thread[group] = (by_thread.get(group, 0.0) + ns / 1e6 - base.idle.get(group, 0.0) * wall
                                        - base.ping.get(group, 0.0))
            table.clear()
    finally:
        table.stop()
        for c in readers:
            c.join(5)
    return {"mean": round(statistics.fmean(samples), 3), "median": round(statistics.median(samples), 3),
            "raw_mean": round(statistics.fmean(raw), 3), "idle_ms_per_s": round(base.idle_ms_per_s, 2),
            "ping_ms": round(base.ping_ms, 3),
            "threads_ms": {k: round(v / len(samples), 3) for k, v in sorted(by_thread.items(), key=lambda kv: -kv[1])
                           if abs(v / len(samples)) >= 0.001}}


def _burst_ms(taps: int, data_dir: str, clients: int, seed: int) -> dict[str, Any]:
    """Table CPU milliseconds per tap when every voter's ballot is placed at once (the mean over bursts until
    `taps` taps), less idle and the two readings' pings as in `_per_tap_ms`; also the action commits per burst
    and the wall time from the placing until every client holds the burst's last state."""
    table = TableProcess(data_dir, seed, threads=clients + 8)
    readers = [SseClient(table.port) for _ in range(clients)]
    per_tap: list[float] = []
    commits: list[int] = []
    walls: list[float] = []
    ballots = 0
    try:
        connect(readers)
        base = _Baseline.measure(table)
        while ballots < taps:
            seats = table.voters()
            commits_before = table.commits()
            before, t0 = table.table_cpu_by_thread(), time.monotonic()
            tap = table.burst(seats)
            last, commits_after = table.accepted(tap, len(seats))
            arrivals = [c.arrival_after(last - 1) for c in readers]
            if None in arrivals:
                raise RuntimeError(f"an SSE client never got the state after a burst of {len(seats)} ballots")
            spent = sum(_delta(table.table_cpu_by_thread(), before).values()) / 1e6
            wall = time.monotonic() - t0
            per_tap.append((spent - base.idle_ms_per_s * wall - 2 * base.ping_ms) / len(seats))
            commits.append(commits_after - commits_before)
            if readers:
                walls.append(max(a for a in arrivals if a is not None) - tap.at_ms)
            ballots += len(seats)
            table.clear()
    finally:
        table.stop()
        for c in readers:
            c.join(5)
    return {"mean": round(statistics.fmean(per_tap), 3), "bursts": len(per_tap),
            "ballots_per_burst": round(ballots / len(per_tap), 2),
            "commits_per_burst": round(statistics.fmean(commits), 2),
            "to_last_client_ms": round(statistics.median(walls), 2) if walls else None}


def cpu_per_tap(taps: int, data_dir: str, seed: int = 1, rounds: int = 3) -> dict[str, Any]:
    """`cpu_per_tap_ms` {clients_N: the least of `rounds` runs' mean table CPU ms per tap} and its detail."""
    figures: dict[str, float] = {}
    detail: dict[str, list[dict[str, Any]]] = {}
    for clients in CLIENTS:
        runs = [_per_tap_ms(taps, f"{data_dir}/c{clients}r{r}", clients, seed) for r in range(rounds)]
        figures[f"clients_{clients}"] = min(run["mean"] for run in runs)
        detail[f"clients_{clients}"] = runs
    bursts = {f"clients_{n}": [_burst_ms(taps, f"{data_dir}/b{n}r{r}", n, seed) for r in range(rounds)]
              for n in CLIENTS}
    setup = {"taps": taps, "rounds": rounds, "game": "secret_hitler/7 digital", "runs": detail,
             "burst_ms": {k: min(run["mean"] for run in runs) for k, runs in bursts.items()}, "burst_runs": bursts,
             "floors": floors(data_dir), "tap_skeleton_ms": tap_skeleton_ms(data_dir, taps, rounds)}
    return {"cpu_per_tap_ms": figures, "cpu_per_tap_setup": setup}
