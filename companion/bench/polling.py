"""Reader polling speed on the fake chip in real time: the cycle rate the poller holds and the CPU one empty
poll costs, for 8, 16 and 24 readers on one bus (the driver really sleeps for the chip's 1.5 ms timer)."""

from __future__ import annotations

import time
from typing import Any

from companion.config import ReaderConfig
from companion.hal.pi import Mfrc522Reader
from companion.hal.readers import ReaderPoller
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, WallClock

READER_COUNTS = (8, 16, 24)
INTERVAL_S = 0.02
"""The examples' `polling.interval_ms`: 50 Hz asked, so a 24-reader bus shows what it can hold."""


def polling_rate(readers: int, seconds: float = 2.0, interval_s: float = INTERVAL_S) -> dict[str, Any]:
    """Empty readers polled by the real poller and driver for `seconds`: cycles per second, CPU per poll.

    The fake bus's transfers take no time here (on a Pi each costs ~20-50 µs of spidev ioctl), so the figure
    is the driver's and poller's own cost plus the chip's timer.
    """
    clock = WallClock()
    chips = [FakeMfrc522(clock=clock, transfer_s=0.0) for _ in range(readers)]
    devices = [Mfrc522Reader(ReaderConfig(f"r{i}", f"seat:{i}", 1, 0), spi_opener=lambda bus, dev, chip=chip: chip)
               for i, chip in enumerate(chips)]
    poller = ReaderPoller(devices, lambda event: None, interval_s=interval_s)
    poller.start()
    try:
        poller.wait_cycles(3)  # chips programmed, first empty polls done
        before = poller.health()
        cpu0, wall0 = time.process_time(), time.monotonic()
        time.sleep(seconds)
        cpu1, wall1 = time.process_time(), time.monotonic()
        after = poller.health()
    finally:
        poller.stop()
    polls = sum(a["polls"] - b["polls"] for a, b in zip(after, before))
    return {"readers": readers, "interval_ms": round(interval_s * 1000),
            "hz": round(polls / readers / (wall1 - wall0), 1),
            "cpu_us_per_empty_poll": round((cpu1 - cpu0) / max(1, polls) * 1e6, 1)}


def polling_figures(seconds: float = 2.0) -> list[dict[str, Any]]:
    """`polling_rate` for 8, 16 and 24 readers."""
    return [polling_rate(n, seconds) for n in READER_COUNTS]
