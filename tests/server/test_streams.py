"""Live-update streams against a real `companion run`: 64 open at once while every other request answers at once,
503 stream_limit above the cap, and a closed stream's slot free again within seconds."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.server.table import ROOT, Table, hang_up, write_config

STREAMS = 64


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _state_times(table: Table, count: int = 200) -> list[float]:
    """Milliseconds each of `count` GET /api/state took, one after another."""
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        assert table.call("GET", "/api/state")[0] == 200
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _sse_clients(table: Table) -> int:
    return int(table.call("GET", "/api/state")[1]["health"]["sse_clients"])


def _wait_clients(table: Table, want: int, timeout: float) -> float:
    """Seconds until the table counts `want` streams (AssertionError after `timeout`)."""
    start = time.monotonic()
    while _sse_clients(table) != want:
        assert time.monotonic() - start < timeout, f"still {_sse_clients(table)} streams, want {want}"
        time.sleep(0.05)
    return time.monotonic() - start


def test_64_streams_leave_every_other_request_answering(tmp_path: Path) -> None:
    table = Table(write_config(tmp_path), tmp_path / "data")
    streams = []
    try:
        quiet = _state_times(table)
        for _ in range(STREAMS):
            conn, resp = table.stream()
            assert resp.status == 200
            streams.append((conn, resp))
        _wait_clients(table, STREAMS, 5)
        started = time.monotonic()
        conn, resp = table.stream()
        body = json.loads(resp.read())
        assert (resp.status, body["code"]) == (503, "stream_limit") and time.monotonic() - started < 2
        hang_up(conn, resp)

        opener, csrf = table.host()
        host = table.call("GET", "/api/host/state", opener=opener)[1]
        seat = table.call("GET", "/api/state")[1]["game"]["to_act"][0]
        token = host["game"]["seat_tokens"][seat]["token"]
        times = _state_times(table)
        p50, p99 = statistics.median(times), _percentile(times, 0.99)
        print(f"\nGET /api/state with no stream: p50 {statistics.median(quiet):.1f} ms, p99 "
              f"{_percentile(quiet, 0.99):.1f} ms; with {STREAMS} streams open: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        assert p99 < 250, f"p99 {p99:.0f} ms with {STREAMS} streams open"
        assert table.call("GET", "/healthz")[0] == 200
        prompt = table.call("GET", f"/api/seat/{token}")[1]["prompt"]
        action = prompt["options"][0]["action"]
        status, answer = table.call("POST", "/api/action", {"token": token, "action": action})
        assert status == 200, answer
        for _, stream in streams:  # every stream gets the new state
            line = b""
            while not (line.startswith(b"data:") and b'"actions":2' in line):
                line = stream.readline()
                assert line, "a stream ended"
    finally:
        for conn, resp in streams:
            hang_up(conn, resp)
        table.stop()


def test_a_closed_stream_frees_its_slot_within_5_s(tmp_path: Path) -> None:
    table = Table(write_config(tmp_path, "streams = 8"), tmp_path / "data")
    try:
        streams = [table.stream() for _ in range(8)]
        _wait_clients(table, 8, 5)
        refused = table.stream()
        assert refused[1].status == 503
        hang_up(*refused)
        hang_up(*streams.pop())  # a phone that reloads: its old stream's socket closes
        held = [_wait_clients(table, 7, 5)]
        conn, resp = table.stream()
        assert resp.status == 200, "the freed slot takes a new stream"
        streams.append((conn, resp))
        _wait_clients(table, 8, 5)
        for conn, resp in streams:
            hang_up(conn, resp)
        held.append(_wait_clients(table, 0, 5))
        print(f"\na closed stream held its slot for {max(held) * 1000:.0f} ms at most")
    finally:
        table.stop()


def test_a_vanished_client_frees_its_slot_within_5_s() -> None:
    """No FIN, no RST: the phone is simply gone. Heartbeats keep data in flight, so TCP_USER_TIMEOUT ends the
    connection. Needs a private network namespace (`unshare -n`, root), so the loopback can go away alone."""
    out = subprocess.run(["unshare", "-n", sys.executable, "-m", "tests.server.vanish", "5.0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"before": 1, "after": 0}, result
