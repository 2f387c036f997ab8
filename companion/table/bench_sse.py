"""Tap -> SSE latency: a ballot tapped on a mock reader until each of 20 SSE clients over loopback has the new state."""

from __future__ import annotations

import http.client
import json
import random
import statistics
import threading
import time
from dataclasses import replace
from typing import Any

from companion.config import PollingConfig, WebConfig, demo_config
from companion.hal.mock import MockHardware
from companion.table.bench_tap import enroll_ballots, percentile, voters_or_advance
from companion.table.runtime import Runtime


class _Client(threading.Thread):
    """One SSE client: records (event number, arrival time) of every `state` event it reads."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.seen: list[tuple[int, float]] = []
        self.ready = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        event, number = "", 0
        try:
            while True:
                line = resp.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("retry:"):
                    self.ready.set()
                elif text.startswith("id: "):
                    number = int(text[4:].split("-")[1])
                elif text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "state":
                    with self.lock:
                        self.seen.append((number, time.perf_counter()))
        except OSError:
            return
        finally:
            conn.close()

    def arrival_after(self, number: int, timeout: float = 5.0) -> float | None:
        """When the first state event numbered above `number` arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for n, t in self.seen:
                    if n > number:
                        return t
            time.sleep(0.0005)
        return None


def _last_event_number(runtime: Runtime) -> int:
    recent = runtime.loop.bus.recent()
    return int(recent[-1].id.split("-")[1]) if recent else 0


def tap_to_sse(taps: int, data_dir: str, clients: int = 20, seed: int = 1) -> dict[str, Any]:
    """p50/p99/max (ms) from a ballot placement to each SSE client holding the new state, over `taps` taps."""
    cfg = replace(demo_config(), data_dir=data_dir, polling=PollingConfig(interval_ms=10, removal_ms=20),
                  web=WebConfig(threads=clients + 8))
    runtime = Runtime(cfg, rng=random.Random(seed)).start()
    server = runtime.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=5.0)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    port = server.effective_port
    rng = random.Random(seed)
    hw = runtime.hardware
    assert isinstance(hw, MockHardware)
    loop = runtime.loop
    ballots = enroll_ballots(loop, "C")
    readers = [_Client(port) for _ in range(clients)]
    for c in readers:
        c.start()
    for c in readers:
        if not c.ready.wait(10):
            raise RuntimeError("an SSE client did not connect")
    samples: list[float] = []
    taken = 0
    try:
        while taken < taps:
            voters = voters_or_advance(loop, rng)
            if not voters:
                continue
            for seat in voters:
                loop.wait_idle()
                before = _last_event_number(runtime)
                vote = "nein" if rng.random() < 0.6 else "ja"
                t0 = time.perf_counter()
                hw.place(f"r{seat}", ballots[(seat, vote)], wait=False)
                for c in readers:
                    got = c.arrival_after(before)
                    if got is None:
                        raise RuntimeError(f"an SSE client never got the state after a tap on seat {seat}")
                    samples.append((got - t0) * 1000)
                taken += 1
            for seat in voters:
                hw.reader(f"r{seat}").uid = None
            for seat in voters:
                hw.remove(f"r{seat}")
            loop.wait_idle()
    finally:
        runtime.loop.bus.close_all()  # end the streams first so no server thread writes to a closed server
        for c in readers:
            c.join(5)
        runtime.stop()
    return {"p50": round(statistics.median(samples), 3), "p99": round(percentile(samples, 0.99), 3),
            "max": round(max(samples), 3), "taps": taken, "clients": clients}
