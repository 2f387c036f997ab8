"""The address a phone follows to reach this table (the seat QR codes and links on the host page).

In order: the config's `[web] public_url`; else the address the host's browser used, unless that is loopback
(a host at the Pi's own keyboard uses 127.0.0.1, which a phone cannot follow); else the machine's LAN IPv4
address with the port being served; else, when none is found, the browser's address after all.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from typing import Callable
from urllib.parse import urlsplit

from flask import current_app, request

PROBE_ADDRESS = ("192.0.2.1", 9)
"""TEST-NET-1 (RFC 5737, never routed on the Internet). A UDP socket's connect() only picks the outgoing route
and so the local address; it sends no packet."""


def lan_ipv4() -> str | None:
    """This machine's LAN IPv4 address (the one its default route leaves from), found without sending traffic;
    None when there is no such route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return None if ip.is_loopback or ip.is_unspecified else address


class LanAddress:
    """`lan_ipv4` asked at most once per `ttl` seconds: the host page asks for its state on every change at the
    table, and each probe is a socket and a route lookup; an address that changes shows within `ttl`."""

    def __init__(self, find: Callable[[], str | None] = lan_ipv4, ttl: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._find = find
        self._ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()
        self._found: tuple[float, str | None] | None = None

    def __call__(self) -> str | None:
        """The address, found again once the last finding is `ttl` old."""
        now = self._clock()
        with self._lock:
            if self._found is None or now - self._found[0] >= self._ttl:
                self._found = (now, self._find())
            return self._found[1]


def is_loopback(host: str | None) -> bool:
    """Whether a URL's host name is this machine only (localhost, 127.0.0.0/8, ::1)."""
    if not host:
        return True
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def choose_base_url(public_url: str | None, request_url: str, server_port: str | int | None,
                    lan: Callable[[], str | None]) -> str:
    """The base URL (ending in `/`) seat links start with; `lan` is asked only when the request came over
    loopback and no public URL is configured."""
    if public_url:
        return public_url.rstrip("/") + "/"
    parts = urlsplit(request_url)
    if not is_loopback(parts.hostname):
        return request_url.rstrip("/") + "/"
    address = lan()
    if not address:
        return request_url.rstrip("/") + "/"
    scheme = parts.scheme or "http"
    port = str(server_port or parts.port or "")
    default = {"http": "80", "https": "443"}.get(scheme)
    return f"{scheme}://{address}{'' if not port or port == default else ':' + port}/"


def seat_base_url() -> str:
    """The base URL seat links start with, for the request being served."""
    return choose_base_url(current_app.config.get("PUBLIC_URL"), request.host_url,
                           request.environ.get("SERVER_PORT"),
                           current_app.config.get("LAN_IPV4") or current_app.extensions["lan_address"])


def seat_url(token: str, base: str | None = None) -> str:
    """The link a seat's QR code carries, for the request being served (`base`: its `seat_base_url`, when
    already found)."""
    return f"{base or seat_base_url()}seat/{token}"


def join_problem(bind_host: str | None, base_url: str) -> str | None:
    """Why a phone could not follow the seat links, as a stable code, or None: `loopback_only` when the table
    listens on this machine only, `not_served` when the links name an address the table does not listen on (a
    host name or a public URL may be served by something else: only an address literal is judged)."""
    if bind_host is None or not bind_host.strip():
        return None  # not told where it listens (a test app), or every address: nothing to judge
    if is_loopback(bind_host):
        return "loopback_only"
    try:
        bound = ipaddress.ip_address(bind_host.strip("[]"))
    except ValueError:
        return None  # a name: it resolves to whatever it resolves to
    if bound.is_unspecified:
        return None  # 0.0.0.0 / :: listens on every address
    try:
        linked = ipaddress.ip_address((urlsplit(base_url).hostname or "").strip("[]"))
    except ValueError:
        return None
    return None if linked == bound else "not_served"


def join_check(base: str | None = None) -> dict[str, str | None]:
    """Where the table listens, the base of the seat links (`base`, when already found), and the join problem
    (None when phones can join)."""
    bind_host = current_app.config.get("BIND_HOST")
    base = base or seat_base_url()
    return {"listening": bind_host, "seat_base_url": base, "problem": join_problem(bind_host, base)}
