"""The guarded waitress server over real sockets (companion.web.connections), with deadlines shortened so the
test need not wait out the real ones: a request too slow to arrive and an idle connection are closed, a live
stream is not; one client holds only its share; at the total the longest idle connection makes room."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from companion.table.runtime import Runtime
from companion.web.connections import create_guarded_server
from companion.web.listener import ServerPlan, close_server, listen
from tests.server.attacks import attacker, still_open


@contextmanager
def serving(runtime: Runtime, plan: ServerPlan | None = None, server: Any = None) -> Iterator[Any]:
    server = server or runtime.make_server("127.0.0.1", 0, plan=plan, SSE_HEARTBEAT_S=0.2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        runtime.loop.bus.close_all()
        close_server(server)
        thread.join(timeout=5)


def connect(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within `within` seconds (it reads EOF, or the 503 then EOF)."""
    sock.settimeout(within)
    try:
        while sock.recv(4096):
            pass
        return True
    except (socket.timeout, TimeoutError):
        return False
    except OSError:
        return True


def test_a_slow_request_and_an_idle_connection_are_closed_but_a_stream_is_not(runtime: Runtime) -> None:
    plan = ServerPlan(8, 4, request_s=0.6, idle_s=0.9)
    with serving(runtime, plan) as server:
        port = server.effective_port
        slow = connect(port, attacker(1))
        slow.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end of the head
        idle = connect(port, attacker(2))
        stream = connect(port, attacker(3))
        stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        stream.settimeout(2)
        assert stream.recv(4096).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        assert closed_by_server(slow, 3.0)
        assert closed_by_server(idle, 3.0)
        time.sleep(max(0.0, 1.5 - (time.monotonic() - started)))
        assert still_open(stream) and stream.recv(4096)  # still flowing (heartbeats) past both deadlines
        stream.close()


def test_one_client_holds_its_share_and_is_told_so(runtime: Runtime) -> None:
    with serving(runtime, ServerPlan(8, 4, per_client=3)) as server:
        port = server.effective_port
        mine = [connect(port, attacker(7)) for _ in range(3)]
        extra = connect(port, attacker(7))
        extra.settimeout(2)
        answer = extra.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503") and b'"code": "connection_limit"' in answer, answer
        other = http.client.HTTPConnection("127.0.0.1", port, timeout=2, source_address=(attacker(8), 0))
        other.request("GET", "/api/state")
        assert other.getresponse().status == 200
        own = [connect(port, "127.0.0.1") for _ in range(5)]  # the table's own machine has no cap
        assert all(still_open(s) for s in own + mine)
        for s in mine + own + [extra]:
            s.close()
        other.close()


def test_at_the_total_the_longest_idle_connection_makes_room(runtime: Runtime) -> None:
    sock = listen("127.0.0.1", 0)
    app = runtime.app(SSE_HEARTBEAT_S=0.2)
    server = create_guarded_server(app, sock, soft_limit=6, per_client=100, threads=4)
    with serving(runtime, server=server):
        port = sock.getsockname()[1]
        held = []
        for i in range(6):
            held.append(connect(port, attacker(20 + i)))
            time.sleep(0.05)  # in order: the first is the longest idle
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=3, source_address=(attacker(40), 0))
        probe.request("GET", "/api/state")
        response = probe.getresponse()
        assert response.status == 200 and json.loads(response.read())["table"]
        assert closed_by_server(held[0], 2.0)  # the oldest idle one went
        assert server.evictions >= 1
        assert still_open(held[-1])
        for s in held:
            s.close()
        probe.close()
