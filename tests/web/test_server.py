"""Waitress serving: many SSE clients at once do not starve other requests (>= 16 threads)."""

from __future__ import annotations

import http.client
import threading

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
