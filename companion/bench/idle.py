"""Idle CPU and resident memory of a `companion run` subprocess: 8 mock readers polled at 20 Hz, no input."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

READERS = 8
POLL_HZ = 20


def idle_config(template: str, readers: int = READERS, poll_hz: int = POLL_HZ) -> str:
    """The mock table config with only its first `readers` readers, polled `poll_hz` times a second."""
    blocks = re.split(r"\n(?=\[)", template)
    kept, seen = [], 0
    for block in blocks:
        if block.startswith("[[readers]]"):
            seen += 1
            if seen > readers:
                continue
        if block.startswith("[polling]"):
            block = re.sub(r"interval_ms\s*=\s*\d+", f"interval_ms = {1000 // poll_hz}", block)
            block = re.sub(r"removal_ms\s*=\s*\d+", f"removal_ms = {max(150, 2000 // poll_hz)}", block)
        kept.append(block)
    return "\n".join(kept)


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process (clock ticks, Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def idle_run(data_dir: str, seconds: float = 30.0) -> dict[str, Any]:
    """idle_cpu_pct (of one core) over `seconds` after start-up settles, and rss_mb at the end."""
    root = Path(__file__).resolve().parents[2]
    template = (root / "hardware" / "tables" / "mock-10-seats.toml").read_text()
    config = Path(data_dir) / "idle.toml"
    config.write_text(idle_config(template))
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data",
                             str(Path(data_dir) / "data"), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("companion run did not come up") from None
                time.sleep(0.1)
        time.sleep(2.0)  # let start-up work (imports, first scan) finish
        hz = os.sysconf("SC_CLK_TCK")
        c0, t0 = _cpu_ticks(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = _cpu_ticks(proc.pid), time.monotonic()
        rss = _rss_mb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"idle_cpu_pct": round(100 * (c1 - c0) / hz / (t1 - t0), 2), "rss_mb": round(rss, 1),
            "idle_setup": {"readers": READERS, "poll_hz": POLL_HZ, "seconds": seconds}}
