"""What this machine charges for the two things a tap cannot avoid, in a thread's own CPU time: waking from a
sleep (the loop wakes for the tap, the renderer for its scene, the loop again after the journal's fsync) and
a durable 4 KiB write (the journal's commit). They set a floor under `cpu_per_tap_ms` that no code change
lowers, and they differ most between machines (a virtual machine pays far more for a wake than a Pi)."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Callable

GAP_S = 0.005
"""The pause before each sample: a table between taps is idle, not spinning."""


def _per_sample_us(work: Callable[[], object], samples: int) -> float:
    """Median thread CPU microseconds of `work` run after an idle pause (the pause itself not counted)."""
    costs = []
    for _ in range(samples):
        time.sleep(GAP_S)
        t0 = time.thread_time_ns()
        work()
        costs.append((time.thread_time_ns() - t0) / 1000)
    return statistics.median(costs)


def wake_us(samples: int = 200) -> float:
    """Median thread CPU microseconds one sleep-and-wake costs (a 5 ms sleep; a real table sleeps between taps)."""
    costs = []
    for _ in range(samples):
        t0 = time.thread_time_ns()
        time.sleep(GAP_S)
        costs.append((time.thread_time_ns() - t0) / 1000)
    return round(statistics.median(costs), 1)


def durable_write_us(data_dir: str, samples: int = 200) -> float:
    """Median thread CPU microseconds of one 4 KiB write and fdatasync in `data_dir`, after an idle pause."""
    path = Path(data_dir) / "floors.tmp"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        block = b"\0" * 4096

        def write() -> None:
            os.pwrite(fd, block, 0)
            os.fdatasync(fd)

        return round(_per_sample_us(write, samples), 1)
    finally:
        os.close(fd)
        path.unlink()


def floors(data_dir: str) -> dict[str, float]:
    """`wake_us` and `durable_write_us` on this machine."""
    return {"wake_us": wake_us(), "durable_write_us": durable_write_us(data_dir)}
