"""The address a phone follows to reach this table (the seat QR codes and links on the host page).

In order: the config's `[web] public_url`; else the address the host's browser used, unless that is loopback
(a host at the Pi's own keyboard uses 127.0.0.1, which a phone cannot follow); else the machine's LAN IPv4
address with the port being served; else, when none is found, the browser's address after all.
"""

from __future__ import annotations

import ipaddress
import socket
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


def seat_url(token: str) -> str:
    """The link a seat's QR code carries, for the request being served."""
    base = choose_base_url(current_app.config.get("PUBLIC_URL"), request.host_url,
                           request.environ.get("SERVER_PORT"), current_app.config.get("LAN_IPV4") or lan_ipv4)
    return f"{base}seat/{token}"
