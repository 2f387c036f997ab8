"""The address in the seat QR codes: the config's public_url, else the request's host unless it is loopback,
else the LAN address with the served port (found without traffic; injected here), else the request's host."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
import segno
from flask import Flask

from companion.table.runtime import Runtime
from companion.web import lan
from companion.web.lan import choose_base_url, is_loopback
from tests.web.conftest import PIN


def no_lan() -> str | None:
    raise AssertionError("the LAN address must not be looked up here")


def test_a_configured_public_url_wins() -> None:
    assert choose_base_url("http://table.local:8000", "http://127.0.0.1:8000/", "8000", no_lan) == \
        "http://table.local:8000/"
    assert choose_base_url("https://pi.example/companion/", "http://10.0.0.2:8000/", "8000", no_lan) == \
        "https://pi.example/companion/"


def test_a_request_host_that_is_not_loopback_is_used_as_is() -> None:
    assert choose_base_url(None, "http://192.168.1.5:8000/", "8000", no_lan) == "http://192.168.1.5:8000/"
    assert choose_base_url(None, "http://table.local/", "80", no_lan) == "http://table.local/"


@pytest.mark.parametrize("request_url, port, expected", [
    ("http://127.0.0.1:8000/", "8000", "http://10.0.0.7:8000/"),
    ("http://localhost:8000/", "8000", "http://10.0.0.7:8000/"),
    ("http://[::1]:8123/", "8123", "http://10.0.0.7:8123/"),
    ("http://127.0.1.1/", "80", "http://10.0.0.7/"),
    ("https://localhost/", "443", "https://10.0.0.7/"),
    ("http://localhost:9000/", None, "http://10.0.0.7:9000/"),  # no server port: the request's
])
def test_a_loopback_request_gets_the_lan_address_with_the_served_port(request_url: str, port: str | None,
                                                                      expected: str) -> None:
    assert choose_base_url(None, request_url, port, lambda: "10.0.0.7") == expected


def test_no_lan_address_falls_back_to_the_request_host() -> None:
    assert choose_base_url(None, "http://127.0.0.1:8000/", "8000", lambda: None) == "http://127.0.0.1:8000/"


def test_loopback_names() -> None:
    assert all(is_loopback(h) for h in ("localhost", "LOCALHOST.", "a.localhost", "127.0.0.1", "127.9.9.9", "::1",
                                        "[::1]", None, ""))
    assert not any(is_loopback(h) for h in ("192.168.0.2", "table.local", "10.0.0.1", "fe80::1", "localhost.example"))


class FakeSocket:
    """Stands in for socket.socket: records the connect() target, answers a scripted local address."""

    calls: list[Any] = []
    local: str | OSError = "192.168.4.20"

    def __init__(self, family: int, kind: int) -> None:
        FakeSocket.calls.append(("socket", family, kind))

    def __enter__(self) -> "FakeSocket":
        return self

    def __exit__(self, *exc: Any) -> None:
        FakeSocket.calls.append(("closed",))

    def connect(self, address: tuple[str, int]) -> None:
        FakeSocket.calls.append(("connect", address))
        if isinstance(FakeSocket.local, OSError):
            raise FakeSocket.local

    def getsockname(self) -> tuple[str, int]:
        assert isinstance(FakeSocket.local, str)
        return FakeSocket.local, 40000


@pytest.mark.parametrize("local, found", [("192.168.4.20", "192.168.4.20"), ("127.0.0.1", None),
                                          ("0.0.0.0", None), (OSError(101, "Network is unreachable"), None)])
def test_the_lan_address_comes_from_a_udp_connect_that_sends_nothing(monkeypatch: pytest.MonkeyPatch,
                                                                    local: Any, found: str | None) -> None:
    import socket
    FakeSocket.calls, FakeSocket.local = [], local
    monkeypatch.setattr(lan.socket, "socket", FakeSocket)
    assert lan.lan_ipv4() == found
    # a datagram socket only connected (a route lookup), to a documentation address; never sent on
    assert FakeSocket.calls[:2] == [("socket", socket.AF_INET, socket.SOCK_DGRAM), ("connect", ("192.0.2.1", 9))]
    assert FakeSocket.calls[-1] == ("closed",)


def qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, omitsize=True)
    return out.getvalue()


def seat_urls(app: Flask, **request: Any) -> tuple[list[str], list[bytes], list[str]]:
    """(urls in the host state, the QR SVGs, the tokens) as a logged-in host sees them."""
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": PIN}, **request).status_code == 200  # cookie for that host
    game = client.get("/api/host/state", **request).get_json()["game"]
    tokens = [e["token"] for e in game["seat_tokens"]]
    svgs = [client.get(f"/host/qr/{e['seat']}.svg", **request).get_data() for e in game["seat_tokens"]]
    return [e["url"] for e in game["seat_tokens"]], svgs, tokens


def test_host_state_and_qr_codes_carry_the_chosen_url(runtime: Runtime) -> None:
    # the table is at 10.9.8.7 as far as the host's browser knows (allowed: the test machine has no such address)
    app = runtime.app(TESTING=True, LAN_IPV4=lambda: "192.168.77.5", ALLOWED_HOSTS=["10.9.8.7"])
    urls, svgs, tokens = seat_urls(app)  # the test client asks as http://localhost/ on port 80
    assert urls == [f"http://192.168.77.5/seat/{t}" for t in tokens] and len(tokens) == 3
    assert svgs == [qr_svg(u) for u in urls]

    urls, svgs, _ = seat_urls(app, base_url="http://10.9.8.7:8000")  # a host on another machine of the LAN
    assert urls == [f"http://10.9.8.7:8000/seat/{t}" for t in tokens] and svgs == [qr_svg(u) for u in urls]

    runtime.config = replace(runtime.config, web=replace(runtime.config.web, public_url="http://table.local:8000"))
    app = runtime.app(TESTING=True, LAN_IPV4=no_lan, ALLOWED_HOSTS=["10.9.8.7"])  # and the config's public_url
    urls, svgs, _ = seat_urls(app, base_url="http://10.9.8.7:8000")
    assert urls == [f"http://table.local:8000/seat/{t}" for t in tokens] and svgs == [qr_svg(u) for u in urls]


def test_a_share_link_carries_the_tables_address_not_the_host_browsers_loopback(runtime: Runtime) -> None:
    from tests.table.helpers import host_call
    while runtime.loop.session is not None and runtime.loop.session.ended is None:  # the tiny game to its end
        session = runtime.loop.session
        seat = min(session.rules.to_act(session.state))
        action = session.rules.legal_actions(session.state, seat)[0]
        assert isinstance(host_call(runtime.loop, "submit", seat=seat, action=action, source="test"), dict)
    game_id = runtime.loop.session.game_id
    app = runtime.app(TESTING=True, LAN_IPV4=lambda: "192.168.77.5")
    client = app.test_client()  # the host's browser on the table's own machine: http://localhost/
    csrf = client.post("/api/host/login", json={"pin": PIN}).get_json()["csrf"]
    url = client.post(f"/api/host/games/{game_id}/share", headers={"X-CSRF-Token": csrf}).get_json()["url"]
    assert url.startswith(f"http://192.168.77.5/replay/{game_id}?t="), url
    assert client.get(url.replace("http://192.168.77.5", "")).status_code == 200


@pytest.mark.parametrize("bind, base, problem", [
    ("127.0.0.1", "http://192.168.1.5:8000/", "loopback_only"),
    ("localhost", "http://192.168.1.5:8000/", "loopback_only"),
    ("::1", "http://[::1]:8000/", "loopback_only"),
    ("0.0.0.0", "http://192.168.1.5:8000/", None),
    ("::", "http://192.168.1.5:8000/", None),
    ("192.168.1.5", "http://192.168.1.5:8000/", None),
    ("192.168.1.5", "http://10.0.0.9:8000/", "not_served"),
    ("192.168.1.5", "http://table.local:8000/", None),  # a name may well resolve to it
    (None, "http://127.0.0.1:8000/", None),  # not told where it listens
])
def test_join_problem(bind: str | None, base: str, problem: str | None) -> None:
    assert lan.join_problem(bind, base) == problem


def test_host_state_says_when_phones_cannot_join(runtime: Runtime) -> None:
    """The host page's state carries where the table listens and why phones could not follow the QR codes."""
    def join(**config: Any) -> Any:
        client = runtime.app(TESTING=True, LAN_IPV4=lambda: "192.168.77.5", **config).test_client()
        assert client.post("/api/host/login", json={"pin": PIN}).status_code == 200
        return client.get("/api/host/state").get_json()["join"]

    assert join(BIND_HOST="127.0.0.1") == {"listening": "127.0.0.1", "seat_base_url": "http://192.168.77.5/",
                                           "problem": "loopback_only"}
    assert join(BIND_HOST="0.0.0.0")["problem"] is None
    assert join(BIND_HOST="192.168.77.5")["problem"] is None
    assert join(BIND_HOST="192.168.77.9")["problem"] == "not_served"
    made: list[dict[str, Any]] = []
    real_app = runtime.app

    def app(**config: Any) -> Any:
        made.append(config)
        return real_app(**config)

    runtime.app = app  # type: ignore[method-assign]
    try:
        server = runtime.make_server("127.0.0.1", 0)  # `companion run` tells the app where it listens
        server.close()
    finally:
        del runtime.app
    assert made and made[-1]["BIND_HOST"] == "127.0.0.1"


def test_the_lan_address_is_asked_again_only_once_it_is_old() -> None:
    asked: list[float] = []
    now = [100.0]

    def find() -> str | None:
        asked.append(now[0])
        return f"192.168.1.{len(asked)}"

    address = lan.LanAddress(find, ttl=5.0, clock=lambda: now[0])
    assert address() == "192.168.1.1" and address() == "192.168.1.1" and asked == [100.0]
    now[0] = 104.9
    assert address() == "192.168.1.1"
    now[0] = 105.0  # a changed address shows within the ttl
    assert address() == "192.168.1.2" and asked == [100.0, 105.0]
