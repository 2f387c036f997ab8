"""Live updates pushed by the publish onto waitress connections: every client still gets every event, in order;
the writer sends what the socket takes and queues the rest; a client that stops reading is cut off."""

from __future__ import annotations

import http.client
import threading
import time
from typing import Any

from companion.table.runtime import Runtime
from companion.web.streams import UNSENT_MAX, connection_writer, event_stream


def _ids(resp: http.client.HTTPResponse, count: int) -> list[int]:
    """The event numbers of the next `count` events on a stream."""
    out: list[int] = []
    while len(out) < count:
        line = resp.readline()
        assert line, "the stream ended early"
        if line.startswith(b"id: "):
            out.append(int(line.split(b"-")[1]))
    return out


def test_every_pushed_client_gets_every_event_in_order(runtime: Runtime) -> None:
    server = runtime.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=0.2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    bus = runtime.loop.bus
    streams = []
    try:
        for _ in range(6):
            conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
            conn.request("GET", "/api/events")
            resp = conn.getresponse()
            assert resp.getheader("Transfer-Encoding") == "chunked"
            first = _ids(resp, 1)[0]  # the snapshot
            streams.append((conn, resp, first))
        deadline = time.monotonic() + 5
        while len(bus._pushed) < 6 and time.monotonic() < deadline:  # each stream turns to push once caught up
            time.sleep(0.01)
        assert len(bus._pushed) == 6
        published = [int(bus.publish("state", {"n": i, "pad": "x" * (i % 7) * 300}).id.split("-")[1])
                     for i in range(300)]
        for _, resp, first in streams:
            seen = _ids(resp, len(published) + published[0] - first - 1)
            assert seen == list(range(first + 1, published[-1] + 1))
    finally:
        for conn, _, _ in streams:
            conn.close()
        runtime.close_server()
        thread.join(timeout=5)


class _Channel:
    """The parts of a waitress channel the writer touches, over a socket that takes `room` bytes."""

    def __init__(self, room: int) -> None:
        self.connected = True
        self.total_outbufs_len = 0
        self.outbuf_lock = threading.Condition()
        self.queued: list[bytes] = []
        self.socket = self
        self.sent: list[bytes] = []
        self.room = room

    def send(self, data: bytes) -> int:
        taken = data[: self.room]
        self.room -= len(taken)
        self.sent.append(taken)
        if not taken:
            raise BlockingIOError
        return len(taken)

    def write_soon(self, data: bytes) -> int:
        self.queued.append(data)
        self.total_outbufs_len += len(data)
        return len(data)

    def check_client_disconnected(self) -> bool:
        return not self.connected


def _writer(channel: _Channel, protocol: str = "HTTP/1.1") -> Any:
    return connection_writer({"waitress.client_disconnected": channel.check_client_disconnected,
                              "SERVER_PROTOCOL": protocol})


def test_the_writer_sends_what_the_socket_takes_queues_the_rest_and_refuses_a_client_too_far_behind() -> None:
    channel = _Channel(room=5)
    write = _writer(channel)
    assert write(b"abc") and channel.sent == [b"abc"] and not channel.queued
    assert write(b"defgh") and channel.sent[-1] == b"de" and channel.queued == [b"fgh"]
    assert write(b"ij") and channel.queued == [b"fgh", b"ij"], "queued bytes go first: nothing jumps them"
    channel.total_outbufs_len = UNSENT_MAX + 1
    assert not write(b"k")
    channel.total_outbufs_len, channel.connected = 0, False
    assert not write(b"k")
    assert _writer(_Channel(9), "HTTP/1.0") is None and connection_writer({}) is None


class _Sub:
    """A subscription whose client has caught up at once (push accepted)."""

    def __init__(self) -> None:
        self.closed = False
        self.writers: list[Any] = []
        self.ended = threading.Event()

    def push(self, writer: Any) -> bool:
        self.writers.append(writer)
        return True

    def wait_closed(self, timeout: float) -> bool:
        return self.ended.wait(timeout)

    def frames(self, timeout: float) -> bytes | None:
        raise AssertionError("a pushed stream takes no frames itself")


def test_a_pushed_stream_yields_only_heartbeats_and_ends_when_cut_off() -> None:
    sub = _Sub()
    stream = event_stream(sub, 0.01, lambda: False, writer=lambda wire: True)  # type: ignore[arg-type]
    assert next(stream) == b"retry: 2000\n\n"
    assert next(stream) == b": heartbeat\n\n" and len(sub.writers) == 1
    sub.closed = True
    sub.ended.set()
    assert list(stream) == []
