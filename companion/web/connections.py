"""Waitress's connections, guarded: nobody holds the server by holding sockets open.

Waitress (3.0) stops accepting once `connection_limit` connections are open, and closes an idle one only after
`channel_timeout` of silence, so 100 sockets that never send a request (or send a header line every few seconds)
stop it answering anyone. It has no cap per client and no deadline for a request's head. This server adds them
where the connections are accepted and kept, on waitress's own loop thread:

- a cap per client (an IPv4 address or an IPv6 /64, companion.web.clients): PER_CLIENT connections; one more
  is answered `503 connection_limit` and closed. The table's own machine (127.0.0.1, ::1) has no cap;
- a request must arrive whole within REQUEST_S of its first byte, and a connection with nothing to do (no request
  arriving, none being served, nothing to send) is closed after IDLE_S; both measured on the monotonic clock,
  checked every CHECK_S (a live-update stream is a request being served: it is never cut);
- a soft total (`ServerPlan.connection_limit`): at it, a new connection takes the place of the one idle the
  longest (browsers reopen idle keep-alive connections by themselves); waitress's own stop is set above it.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from companion.ratelog import RateLimitedLog
from companion.web.clients import client_key, is_own_machine

PER_CLIENT = 16
"""Connections one client may hold: a browser opens at most 6 to one server, so two browsers on one phone fit."""
REQUEST_S = 10.0
"""A request's head and body must arrive within this of its first byte (the slowloris deadline)."""
IDLE_S = 15.0
"""A keep-alive connection with nothing to do is closed after this (a browser reopens one when it needs it)."""
CHECK_S = 1
"""How often the deadlines are checked (waitress's loop wakes at least this often)."""
HARD_MARGIN = 32
"""Waitress's own connection_limit is this far above the soft total, so eviction always acts first."""

log = logging.getLogger("companion.web.connections")


def refusal(code: str, message: str) -> bytes:
    """A whole `503` answer with the JSON error body, for a connection refused before waitress sees it."""
    body = json.dumps({"ok": False, "code": code, "message": message}).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n"
            b"Connection: close\r\nRetry-After: 5\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class GuardedChannel(HTTPChannel):
    """A waitress connection that knows its client and when it last did something (monotonic)."""

    client: str | None = None
    counted = False
    evicted = False

    def __init__(self, server: "GuardedServer", sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> None:
        self.active_at = time.monotonic()
        self.request_started: float | None = None
        super().__init__(server, sock, addr, adj, map=map)
        host = addr[0] if isinstance(addr, tuple) and addr else None
        self.client = None if is_own_machine(host) else client_key(host)
        server.count(self)

    def received(self, data: bytes) -> bool:
        """Bytes of a request arrived: note when its first byte came, and that the connection is active."""
        now = time.monotonic()
        if data and self.request is None:
            self.request_started = now
        done = bool(super().received(data))
        if self.request is None:
            self.request_started = None  # every request received is whole
        self.active_at = now
        return done

    def _flush_some(self, do_close: bool = True) -> bool:
        sent = bool(super()._flush_some(do_close=do_close))
        if sent:
            self.active_at = time.monotonic()
        return sent

    def overdue(self, now: float, request_s: float = REQUEST_S, idle_s: float = IDLE_S) -> bool:
        """Whether this connection is past its deadline: a request too slow to arrive, or idle too long. One
        whose request is being served (a live-update stream too) or that still has bytes to send is not."""
        if self.requests or self.total_outbufs_len or self.will_close:
            return False
        if self.request_started is not None:
            return now - self.request_started > request_s
        return now - self.active_at > idle_s

    def idle_since(self) -> float | None:
        """When it started waiting with nothing to do (or started receiving a request), or None while busy."""
        if self.requests or self.total_outbufs_len or self.will_close or self.evicted:
            return None
        return self.request_started if self.request_started is not None else self.active_at

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        self.server.forget(self)


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server with the per-client cap, the request deadline and eviction at the soft total."""

    channel_class = GuardedChannel

    def __init__(self, application: Any, *args: Any, soft_limit: int, per_client: int = PER_CLIENT,
                 request_s: float = REQUEST_S, idle_s: float = IDLE_S, **kw: Any) -> None:
        self.soft_limit = soft_limit
        self.per_client = per_client
        self.request_s = request_s
        self.idle_s = idle_s
        self.by_client: dict[str, int] = {}
        self.refused = 0
        self.evictions = 0
        self._count_lock = threading.Lock()
        self._next_check = 0.0
        self._log = RateLimitedLog(log)
        super().__init__(application, *args, **kw)
        self.next_channel_cleanup = float("inf")  # waitress's wall-clock sweep is replaced by `readable` below

    def count(self, channel: GuardedChannel) -> None:
        """A channel opened: count it for its client."""
        with self._count_lock:
            channel.counted = True
            if channel.client is not None:
                self.by_client[channel.client] = self.by_client.get(channel.client, 0) + 1

    def forget(self, channel: GuardedChannel) -> None:
        """A channel closed: stop counting it (once)."""
        with self._count_lock:
            if not channel.counted:
                return
            channel.counted = False
            if channel.client is not None:
                left = self.by_client.get(channel.client, 1) - 1
                if left > 0:
                    self.by_client[channel.client] = left
                else:
                    self.by_client.pop(channel.client, None)

    def readable(self) -> bool:
        """Waitress's check, with the deadlines swept on the monotonic clock every CHECK_S."""
        now = time.monotonic()
        if now >= self._next_check:
            self._next_check = now + CHECK_S
            self.sweep(now)
        return bool(super().readable())

    def sweep(self, now: float) -> None:
        """Close every connection past its deadline (waitress closes it on its loop when it sees will_close)."""
        for channel in list(self.active_channels.values()):
            if isinstance(channel, GuardedChannel) and channel.overdue(now, self.request_s, self.idle_s):
                channel.will_close = True

    def handle_accept(self) -> None:
        """Accept a connection unless its client holds its share; at the soft total, make room first."""
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
        except OSError:
            return
        host = addr[0] if isinstance(addr, tuple) and addr else None
        client = None if is_own_machine(host) else client_key(host)
        with self._count_lock:
            held = self.by_client.get(client, 0) if client is not None else 0
        if client is not None and held >= self.per_client:
            self._refuse(conn, client, "connection_limit",
                         f"this device holds {self.per_client} connections to the table already")
            return
        if len(self.active_channels) >= self.soft_limit and not self._evict_one():
            self._refuse(conn, client, "connection_limit", "the table is serving as many connections as it can")
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def _evict_one(self) -> bool:
        """Close the connection idle the longest (or slowest to send its request), to make room; False when
        every connection is busy serving a request."""
        candidates = [(since, id(ch), ch) for ch in self.active_channels.values()
                      if isinstance(ch, GuardedChannel) and (since := ch.idle_since()) is not None]
        if not candidates:
            return False
        _, _, victim = min(candidates)
        victim.evicted = True
        victim.will_close = True
        self.evictions += 1
        return True

    def _refuse(self, conn: socket.socket, client: str | None, code: str, message: str) -> None:
        """Answer 503 with a code and close, without the connection ever reaching waitress."""
        self.refused += 1
        self._log.warning(f"{code}:{client}", "refused a connection from %s: %s", client or "this machine", message)
        try:
            conn.setblocking(False)
            conn.send(refusal(code, message))
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            conn.close()


def create_guarded_server(application: Any, sock: socket.socket, *, soft_limit: int, per_client: int = PER_CLIENT,
                          request_s: float = REQUEST_S, idle_s: float = IDLE_S, **options: Any) -> GuardedServer:
    """A GuardedServer on a bound, listening socket; `options` are waitress's adjustments (threads, ...)."""
    from waitress.adjustments import Adjustments

    options.setdefault("connection_limit", soft_limit + HARD_MARGIN)
    adj = Adjustments(sockets=[sock], **options)
    sockinfo = (sock.family, sock.type, sock.proto, sock.getsockname())
    return GuardedServer(application, {}, True, sock, adj=adj, bind_socket=False, sockinfo=sockinfo,
                         soft_limit=soft_limit, per_client=per_client, request_s=request_s, idle_s=idle_s)
