"""Who a request comes from, as the per-address limits count it: an IPv4 address, or an IPv6 /64.

A phone on IPv6 picks new addresses from its network's /64 at will (privacy addresses), so a limit per IPv6
address would be a limit per whim; one /64 is one device or one household. An IPv4-mapped IPv6 address is its
IPv4 address. The table's own machine (127.0.0.1 and ::1: its kiosk screen, `companion bench`, `companion
host-link`'s link opened on the Pi) is counted like any client by the PIN guard but has no cap on connections
or streams.
"""

from __future__ import annotations

import ipaddress

OWN_MACHINE = frozenset({"127.0.0.1", "::1"})
UNKNOWN = "unknown"


def _ip(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address as an IP (an IPv4-mapped IPv6 address as its IPv4 one, a zone dropped), or None."""
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def client_key(address: str | None) -> str:
    """The name a client address is counted under: the IPv4 address, or the IPv6 address's /64 network."""
    ip = _ip(address)
    if ip is None:
        return (address or UNKNOWN)[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def is_own_machine(address: str | None) -> bool:
    """Whether a connection comes from the table's own machine over loopback (127.0.0.1 or ::1 exactly)."""
    ip = _ip(address)
    return ip is not None and str(ip) in OWN_MACHINE
