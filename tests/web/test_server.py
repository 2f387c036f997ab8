"""Waitress serving: many SSE clients at once do not starve other requests (>= 16 threads)."""

from __future__ import annotations

import http.client
import logging
import threading

import pytest

from companion.table.runtime import Runtime


def test_eight_sse_clients_and_the_state_endpoint_together(runtime: Runtime) -> None:
    server = runtime.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=0.2)
    port = server.effective_port
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    streams = []
    try:
        for _ in range(8):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/events")
            resp = conn.getresponse()
            assert resp.status == 200 and resp.getheader("Content-Type", "").startswith("text/event-stream")
            assert resp.readline() == b"retry: 2000\n"
            streams.append((conn, resp))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)  # a starved request would time out
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        runtime.hardware.press(0, "ja")  # type: ignore[attr-defined]
        for _, resp in streams:  # every client sees the new state with an id line
            lines = []
            while not any(line.startswith(b"data:") and b'"actions":2' in line for line in lines):
                lines.append(resp.readline())
            assert any(line.startswith(b"id: ") for line in lines)
    finally:
        for c, _ in streams:
            c.close()
        runtime.close_server()
        thread.join(timeout=5)


def test_a_stop_before_the_server_exists_is_not_lost(runtime: Runtime) -> None:
    """SIGTERM can arrive before `serve` has built its server: `serve` must then return, not serve forever."""
    runtime.close_server()
    done = threading.Event()
    thread = threading.Thread(target=lambda: (runtime.serve("127.0.0.1", 0), done.set()), daemon=True)
    thread.start()
    assert done.wait(timeout=10), "serve() kept serving after a stop was requested"


def test_a_stop_while_serving_ends_serve(runtime: Runtime) -> None:
    done = threading.Event()
    thread = threading.Thread(target=lambda: (runtime.serve("127.0.0.1", 0), done.set()), daemon=True)
    thread.start()
    for _ in range(200):
        if runtime._server is not None:
            break
        done.wait(0.01)
    runtime.close_server()
    assert done.wait(timeout=10), "serve() did not return after close_server()"


def test_a_stop_with_streams_open_ends_them_cleanly(runtime: Runtime, caplog: pytest.LogCaptureFixture) -> None:
    """Stopping with SSE clients connected ends each stream and logs no worker error (a worker ending a stream
    after the server's trigger was closed used to log a traceback)."""
    server = runtime.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=5.0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    streams = []
    for _ in range(4):
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        assert resp.readline() == b"retry: 2000\n"
        streams.append((conn, resp))
    # Only the stop is judged. At start-up waitress counts a new worker as busy until it first waits, so the
    # first request on a loaded host may log "Task queue depth is 1": true, harmless, and not the stop's doing.
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="waitress"):
        runtime.close_server()
        thread.join(timeout=5)
        for conn, resp in streams:
            while resp.readline():  # the stream ends (EOF), it is not cut mid-event
                pass
            conn.close()
    assert not thread.is_alive()
    assert not [r for r in caplog.records if r.name.startswith("waitress")], caplog.text
