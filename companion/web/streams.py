"""Live-update streams: the cap (each open `/api/events` stream holds a slot and a server thread until it
ends) and the stream's bytes, pushed by the publish itself onto the connection once the client has caught up."""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator, Mapping

from companion.web.clients import client_key, is_own_machine
from companion.web.errors import ApiError
from companion.web.facade import Subscription

UNSENT_MAX = 512 * 1024
"""Bytes a pushed client may hold unsent (waitress keeps them in memory below 1 MiB) before it is cut off:
a phone that stopped reading resyncs on reconnect instead of growing the table's memory."""
HEARTBEAT = b": heartbeat\n\n"


def connection_writer(environ: Mapping[str, Any]) -> Callable[[bytes], bool] | None:
    """A non-blocking writer of HTTP/1.1 chunks onto this request's waitress connection, or None where the
    server is not waitress or the response is not chunked (HTTP/1.0). Bytes go straight to the socket when
    nothing is queued before them; what the socket does not take now is queued on the channel, and waitress's
    own loop sends it."""
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    if environ.get("SERVER_PROTOCOL") != "HTTP/1.1" or not all(
            hasattr(channel, name) for name in ("write_soon", "total_outbufs_len", "connected", "outbuf_lock",
                                                "socket")):
        return None
    sock = channel.socket

    def write(wire: bytes) -> bool:
        with channel.outbuf_lock:  # the lock waitress's threads hold while they touch the queued bytes
            if not channel.connected or channel.total_outbufs_len > UNSENT_MAX:
                return False
            if not channel.total_outbufs_len:
                try:
                    sent = sock.send(wire)
                except BlockingIOError:
                    sent = 0
                except OSError:
                    return False
                if sent == len(wire):
                    return True
                wire = wire[sent:]
            channel.write_soon(wire)  # never blocks below waitress's high watermark (16 MiB), far above UNSENT_MAX
        return True

    return write


def event_stream(sub: Subscription, heartbeat: float, gone: Callable[[], bool], limit: int | None = None,
                 writer: Callable[[bytes], bool] | None = None) -> Iterator[bytes]:
    """An SSE response body: what the client must catch up on, then (with `writer`, no `limit`) events pushed
    by the publish while this thread only wakes for heartbeats; without a writer every pending event is
    yielded here. `limit` ends the stream after that many chunks and heartbeats (tests)."""
    sent = 0
    pushed = False
    yield b"retry: 2000\n\n"
    while (limit is None or sent < limit) and not sub.closed and not gone():
        sent += 1
        if not pushed and writer is not None and limit is None:
            pushed = sub.push(writer)
        if pushed:
            if not sub.wait_closed(heartbeat):
                yield HEARTBEAT
        else:
            yield sub.frames(heartbeat) or HEARTBEAT


class Slot:
    """One held stream slot; `release()` may be called any number of times."""

    def __init__(self, slots: "StreamSlots", client: str | None) -> None:
        self._slots = slots
        self._client = client
        self._held = True
        self._lock = threading.Lock()

    def release(self) -> None:
        """Give the slot back (once)."""
        with self._lock:
            held, self._held = self._held, False
        if held:
            self._slots._give_back(self._client)


class StreamSlots:
    """At most `cap` streams at once, and at most `per_client` from one client (an IPv4 address or an IPv6 /64;
    the table's own machine has no per-client cap); the server's pool has `cap` threads beyond the ordinary ones
    for them."""

    def __init__(self, cap: int, per_client: int | None = None) -> None:
        self.cap = cap
        self.per_client = per_client or cap
        self._open = 0
        self._by_client: dict[str, int] = {}
        self._lock = threading.Lock()

    def acquire(self, address: str | None = None) -> Slot:
        """A slot, or ApiError stream_limit (503) when every slot is taken or the client holds its share: the
        client retries, never hangs."""
        client = None if address is None or is_own_machine(address) else client_key(address)
        with self._lock:
            if self._open >= self.cap:
                raise ApiError("stream_limit", f"{self.cap} live-update streams are open already; retry shortly")
            if client is not None and self._by_client.get(client, 0) >= self.per_client:
                raise ApiError("stream_limit", f"this device holds {self.per_client} live-update streams already; "
                                               f"close a page or retry shortly")
            self._open += 1
            if client is not None:
                self._by_client[client] = self._by_client.get(client, 0) + 1
        return Slot(self, client)

    def open(self) -> int:
        """Streams open now."""
        with self._lock:
            return self._open

    def _give_back(self, client: str | None) -> None:
        with self._lock:
            self._open -= 1
            if client is not None:
                left = self._by_client.get(client, 1) - 1
                if left:
                    self._by_client[client] = left
                else:
                    self._by_client.pop(client, None)
