"""Tap -> SSE latency: a ballot tapped on a mock reader until each of 20 SSE clients over loopback has the new state."""

from __future__ import annotations

import http.client
import statistics
import threading
import time
from typing import Any

from companion.bench.process import TableProcess
from companion.bench.tap import percentile


class SseClient(threading.Thread):
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
                        self.seen.append((number, time.time() * 1000))
        except OSError:
            return
        finally:
            conn.close()

    def arrival_after(self, number: int, timeout: float = 5.0) -> float | None:
        """When the first state event numbered above `number` arrived (ms since the epoch)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for n, t in self.seen:
                    if n > number:
                        return t
            time.sleep(0.0005)
        return None


def connect(readers: list[SseClient]) -> None:
    """Start every client and wait until each is subscribed."""
    for c in readers:
        c.start()
    for c in readers:
        if not c.ready.wait(10):
            raise RuntimeError("an SSE client did not connect")


def tap_to_sse(taps: int, data_dir: str, clients: int = 20, seed: int = 1) -> dict[str, Any]:
    """p50/p99/max (ms) from a ballot placement to each SSE client holding the new state, over `taps` taps."""
    table = TableProcess(data_dir, seed, threads=clients + 8)
    readers = [SseClient(table.port) for _ in range(clients)]
    samples: list[float] = []
    taken = 0
    try:
        connect(readers)
        while taken < taps:
            for seat in table.voters():
                tap = table.tap(seat)
                for c in readers:
                    got = c.arrival_after(tap.event_before)
                    if got is None:
                        raise RuntimeError(f"an SSE client never got the state after a tap on seat {seat}")
                    samples.append(got - tap.at_ms)
                taken += 1
            table.clear()
    finally:
        table.stop()  # ends the streams, so the clients return
        for c in readers:
            c.join(5)
    return {"p50": round(statistics.median(samples), 3), "p99": round(percentile(samples, 0.99), 3),
            "max": round(max(samples), 3), "taps": taken, "clients": clients}
