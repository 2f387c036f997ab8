"""CPU per accepted tap: the table process's own CPU time (all its threads) from a ballot placed until every
live-update client holds the new state, with 0 and 12 SSE clients, the table in its own process as
`companion run` runs. CPU time, not wall time: on a shared machine other work stretches the wall clock but
not the table's CPU."""

from __future__ import annotations

import statistics
import time
from typing import Any

from companion.bench.process import TableProcess
from companion.bench.sse import SseClient, connect

CLIENTS = (0, 12)
IDLE_S = 2.0
"""Seconds of the idle table measured before the taps (its reader polling runs all the time)."""


def _per_tap_ms(taps: int, data_dir: str, clients: int, seed: int) -> dict[str, float]:
    """Table CPU milliseconds per accepted tap over `taps` taps (mean and median), less what the idle table
    (its reader polling) spends in the same wall time, measured before the taps; also the raw mean."""
    table = TableProcess(data_dir, seed, threads=clients + 8)
    readers = [SseClient(table.port) for _ in range(clients)]
    samples: list[float] = []
    raw: list[float] = []
    try:
        connect(readers)
        idle0, t0 = table.table_cpu_ns(), time.monotonic()
        time.sleep(IDLE_S)
        idle_ms_per_s = (table.table_cpu_ns() - idle0) / 1e6 / (time.monotonic() - t0)
        while len(samples) < taps:
            for seat in table.voters():
                before, t0 = table.table_cpu_ns(), time.monotonic()
                tap = table.tap(seat)
                for c in readers:
                    if c.arrival_after(tap.event_before) is None:
                        raise RuntimeError(f"an SSE client never got the state after a tap on seat {seat}")
                spent = (table.table_cpu_ns(tap) - before) / 1e6
                raw.append(spent)
                samples.append(spent - idle_ms_per_s * (time.monotonic() - t0))
            table.clear()
    finally:
        table.stop()
        for c in readers:
            c.join(5)
    return {"mean": round(statistics.fmean(samples), 3), "median": round(statistics.median(samples), 3),
            "raw_mean": round(statistics.fmean(raw), 3), "idle_ms_per_s": round(idle_ms_per_s, 2)}


def cpu_per_tap(taps: int, data_dir: str, seed: int = 1, rounds: int = 3) -> dict[str, Any]:
    """`cpu_per_tap_ms` {clients_N: the least of `rounds` runs' mean table CPU ms per tap} and its detail."""
    figures: dict[str, float] = {}
    detail: dict[str, list[dict[str, float]]] = {}
    for clients in CLIENTS:
        runs = [_per_tap_ms(taps, f"{data_dir}/c{clients}r{r}", clients, seed) for r in range(rounds)]
        figures[f"clients_{clients}"] = min(run["mean"] for run in runs)
        detail[f"clients_{clients}"] = runs
    return {"cpu_per_tap_ms": figures,
            "cpu_per_tap_setup": {"taps": taps, "rounds": rounds, "game": "secret_hitler/7 digital", "runs": detail}}
