"""The listening socket and waitress settings: bound before the table starts, tuned so a stream notices a gone
client within seconds, no request body is spooled to disk, and no client holds the server by holding sockets
(companion.web.connections)."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.web.connections import IDLE_S, PER_CLIENT, REQUEST_S

MAX_BODY = 1 << 20
"""Request bodies above 1 MiB are refused (413) before they are read, not spooled to disk first."""
USER_TIMEOUT_MS = 2000
"""Data left unacknowledged this long means the phone is gone (Wi-Fi lost, battery out): the kernel drops the
connection, and the stream sees it at its next check. Heartbeats keep data moving, so this always applies."""
KEEPALIVE = ((socket.SO_KEEPALIVE, socket.SOL_SOCKET, 1), (socket.TCP_KEEPIDLE, socket.IPPROTO_TCP, 5),
             (socket.TCP_KEEPINTVL, socket.IPPROTO_TCP, 2), (socket.TCP_KEEPCNT, socket.IPPROTO_TCP, 2))


class ListenError(CompanionError, OSError):
    """The address cannot be served: stable `code` (bad_host, port_in_use, cannot_listen), one-line message."""

    code = "cannot_listen"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def listen(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket whose accepted connections inherit the keepalive and user-timeout options."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ListenError("bad_host", f"cannot serve on {host!r}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        for option, level, value in KEEPALIVE:
            sock.setsockopt(level, option, value)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(address)
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        code = "port_in_use" if exc.errno in (98, 48) else "cannot_listen"
        raise ListenError(code, f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return sock


@dataclass(frozen=True)
class ServerPlan:
    """Waitress's pool: `threads` for ordinary requests plus one per allowed stream, so streams never starve
    the rest; and the connections it keeps (companion.web.connections)."""

    threads: int
    streams: int
    per_client: int = PER_CLIENT
    request_s: float = REQUEST_S
    idle_s: float = IDLE_S

    @property
    def connection_limit(self) -> int:
        """Connections kept at once: every thread and stream twice over (a page reloading opens its new
        connections before the old ones close) plus 64 for idle keep-alives; beyond it the longest idle goes."""
        return 2 * (self.threads + self.streams) + 64

    def waitress_options(self) -> dict[str, Any]:
        """Keyword arguments for waitress's adjustments."""
        return {"threads": self.threads + self.streams, "max_request_body_size": MAX_BODY,
                # lets waitress keep reading a connection while its request runs, so it sees a stream's client
                # hang up (waitress.client_disconnected) instead of finding out at a failed write much later
                "channel_request_lookahead": 1, "ident": "companion",
                "asyncore_use_poll": True}  # select() cannot watch a socket numbered 1024 or more

    def server(self, app: Any, sock: socket.socket) -> Any:
        """The guarded waitress server for `app` on a bound, listening socket."""
        from companion.web.connections import create_guarded_server

        return create_guarded_server(app, sock, soft_limit=self.connection_limit, per_client=self.per_client,
                                     request_s=self.request_s, idle_s=self.idle_s, **self.waitress_options())


def close_server(server: Any) -> None:
    """Stop a waitress server whose loop runs in another thread: the workers first, then every connection and the
    listening socket closed on the loop's own thread, which then ends (no socket is closed under a running select)."""
    # the workers finish first: a worker ending a stream pulls the trigger, which must still be open
    server.task_dispatcher.shutdown(timeout=2)

    def close_everything() -> None:
        for dispatcher in list(server._map.values()):
            try:
                dispatcher.close()
            except OSError:
                pass

    try:
        server.trigger.pull_trigger(close_everything)
    except OSError:  # the server never ran: close directly
        close_everything()
