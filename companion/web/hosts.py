"""Every request must name the table as its Host, and a state-changing one must not come from another origin.

A page on the LAN can point a name of its own at the table's address (DNS rebinding) and then read the table's
answers as its own origin: the browser sends that name as the Host. So a request is served only when its Host
is one of the table's: an address of this machine (the one the connection came in on, the one it listens on,
loopback, or any address a socket here can bind), `localhost`, this machine's host name (and `NAME.local`), the
host of `[web] public_url`, or a name or address listed in `[web] allowed_hosts`. Anything else is refused with
421 `foreign_host`. A POST (or PUT, PATCH, DELETE) whose `Origin` is not the Host it was sent to is refused with
403 `foreign_origin`: a page elsewhere cannot make a browser act here, even with a guessed seat link.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import Any, Iterable
from urllib.parse import urlsplit

from flask import Flask, current_app, request

from companion.web.errors import ApiError

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BIND_CHECKS_KEPT = 64
"""Addresses whose "is it this machine's?" answer is remembered (bounded: the Host header is the client's)."""


def split_host(value: str) -> tuple[str, str | None]:
    """A Host header (or an origin's netloc) as (host, port): `[::1]:8000` -> (`::1`, `8000`), lower case, no
    trailing dot."""
    value = value.strip()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None
    else:
        host, sep, port_text = value.rpartition(":")
        host, port = (host, port_text) if sep and port_text.isdigit() else (value, None)
    return host.rstrip(".").lower(), port


def ip_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host is, when it is an address literal."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


class HostCheck:
    """The names and addresses that are this table's, and the test of a Host against them."""

    def __init__(self, names: Iterable[str] = (), machine_name: str | None = None) -> None:
        own = (machine_name if machine_name is not None else socket.gethostname()).rstrip(".").lower()
        self.names = {"localhost", *(n for n in (own, f"{own}.local") if own)}
        self.addresses: set[str] = set()
        for entry in names:
            host = split_host(entry)[0] if entry else ""
            if not host:
                continue
            ip = ip_of(host)
            (self.addresses if ip is not None else self.names).add(str(ip) if ip is not None else host)
        self._bindable: dict[str, bool] = {}
        self._lock = threading.Lock()

    def allows(self, host: str, local_address: str | None = None) -> bool:
        """Whether `host` (no port) names this table; `local_address` is the address the connection came in on."""
        if not host:
            return False
        ip = ip_of(host)
        if ip is None:
            return host in self.names or host.endswith(".localhost")
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        text = str(ip)
        if ip.is_loopback or text in self.addresses:
            return True
        if local_address is not None and ip_of(local_address) == ip:
            return True
        return self._is_this_machine(text)

    def _is_this_machine(self, address: str) -> bool:
        """Whether an address belongs to this machine: a socket can bind it only then (no packet is sent)."""
        with self._lock:
            known = self._bindable.get(address)
        if known is not None:
            return known
        ip = ipaddress.ip_address(address)
        family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((address, 0))
            mine = not ip.is_unspecified and not ip.is_multicast
        except OSError:
            mine = False
        with self._lock:
            if len(self._bindable) >= BIND_CHECKS_KEPT:
                self._bindable.pop(next(iter(self._bindable)))
            self._bindable[address] = mine
        return mine


def local_address(environ: dict[str, Any]) -> str | None:
    """The address of this machine the request's connection came in on (waitress), else None."""
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    sock = getattr(channel, "socket", None)
    try:
        return str(sock.getsockname()[0]) if sock is not None else None
    except OSError:
        return None


def check_request() -> None:
    """Refuse a request whose Host is not this table's (421 foreign_host), or a state-changing one from another
    origin (403 foreign_origin)."""
    check: HostCheck = current_app.extensions["host_check"]
    sent = request.environ.get("HTTP_HOST")
    if sent is not None:
        host, _ = split_host(sent)
        if not check.allows(host, local_address(request.environ)):
            raise ApiError("foreign_host", f"this table does not answer to the name {host[:100]!r}; open it by its "
                                           f"own address (or list the name in [web] allowed_hosts)")
    if request.method in STATE_CHANGING:
        if not _from_here(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), sent):
            raise ApiError("foreign_origin", "a page from another site may not act on this table")


def _from_here(origin: str | None, site: str | None, host_header: str | None) -> bool:
    """Whether a state-changing request comes from this table's own pages, or from no web page at all (curl, the
    tests). Sec-Fetch-Site is set by the browser itself, never by a page: `same-site` is another origin too (a
    page on another port of the same machine)."""
    if origin is None:
        return site in (None, "same-origin", "none")
    if origin == "null":  # what a form posted from our own page sends, since our pages send no referrer
        return site == "same-origin"
    return _same_origin(origin, host_header)


def _same_origin(origin: str | None, host_header: str | None) -> bool:
    """Whether an Origin header names the host (and port) the request was sent to."""
    if origin is None or origin == "null" or host_header is None:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    sent_host, sent_port = split_host(host_header)
    origin_host, origin_port = split_host(parts.netloc)
    default = "443" if parts.scheme == "https" else "80"
    return origin_host == sent_host and (origin_port or default) == (sent_port or default)


def install(app: Flask) -> None:
    """Check every request's Host and Origin before anything else runs (`ALLOWED_HOSTS`, `PUBLIC_URL` and
    `BIND_HOST` from the app's config are the table's own, besides this machine's addresses and names)."""
    config = app.config
    names = list(config.get("ALLOWED_HOSTS") or ())
    if config.get("PUBLIC_URL"):
        names.append(urlsplit(str(config["PUBLIC_URL"])).netloc)
    if config.get("BIND_HOST"):
        names.append(str(config["BIND_HOST"]))
    app.extensions["host_check"] = HostCheck(names)
    app.before_request(check_request)
