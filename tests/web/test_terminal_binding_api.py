"""`POST /api/host/bind_terminal` through the Flask test client: host session and CSRF required, bad bodies are
4xx with a code and a message (never 5xx), a binding shows in the host state and reaches the terminal."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.table.runtime import Runtime
from tests.fuzz.test_route_fuzz import _routes
from tests.table.helpers import hw
from tests.web.conftest import login

URL = "/api/host/bind_terminal"


def terminal_rows(client: FlaskClient) -> dict[str, dict[str, Any]]:
    return {r["terminal"]: r for r in client.get("/api/host/state").get_json()["terminals"]}


def test_binding_needs_the_host_session_and_its_csrf_token(client: FlaskClient, app: Flask, runtime: Runtime) -> None:
    body = {"terminal": "PX", "seat": 0}
    assert client.post(URL, json=body).status_code == 401
    csrf = login(client)
    assert client.post(URL, json=body).get_json()["code"] == "csrf"
    assert client.post(URL, json=body, headers={"X-CSRF-Token": csrf["X-CSRF-Token"] + "x"}).status_code == 403
    assert app.test_client().post(URL, json=body, headers=csrf).status_code == 401  # a token without the session
    assert runtime.loop.terminals.seat_of("PX") is None and runtime.journal.terminal_bindings() == {}


def test_the_host_binds_and_unbinds_a_terminal(client: FlaskClient, runtime: Runtime) -> None:
    csrf = login(client)
    hub = hw(runtime).mock_terminals
    hub.connect("PX")
    runtime.loop.wait_idle()
    rows = terminal_rows(client)
    assert rows["PX"]["seat"] is None and rows["PX"]["connected"] is True and rows["T0"]["seat"] == 0
    # every configured seat, by its configured name (the demo table names none: the page says "Seat N")
    assert client.get("/api/host/state").get_json()["table_seats"] == [""] * len(runtime.config.seats)
    res = client.post(URL, json={"terminal": "PX", "seat": 0}, headers=csrf)
    assert (res.status_code, res.get_json()) == (200, {"ok": True, "terminal": "PX", "seat": 0, "unbound": ["T0"]})
    assert hub.last_prompt("PX") == runtime.loop.seat_prompt(0) and hub.last_prompt("PX")["type"] == "prompt"
    rows = terminal_rows(client)
    assert (rows["PX"]["seat"], rows["PX"]["bound_by"], rows["T0"]["seat"]) == (0, "host", None)
    res = client.post(URL, json={"terminal": "PX", "seat": None}, headers=csrf)
    assert res.get_json()["seat"] is None and terminal_rows(client)["PX"]["seat"] is None


BAD_BODIES = [
    (b"not json", "bad_json"),
    (b"[1]", "bad_json"),
    (b'{"seat": 0}', "bad_field"),
    (b'{"terminal": 5, "seat": 0}', "bad_field"),
    (b'{"terminal": "PX"}', "bad_seat"),
    (b'{"terminal": "PX", "seat": "0"}', "bad_seat"),
    (b'{"terminal": "PX", "seat": 99}', "bad_seat"),
    (b'{"terminal": "PX", "seat": [0]}', "bad_seat"),
    (b'{"terminal": "no spaces", "seat": 0}', "bad_terminal"),
    (b'{"terminal": "' + b"x" * 5000 + b'", "seat": 0}', "bad_terminal"),
]


def test_bad_bodies_are_refused_with_a_code_and_a_message(client: FlaskClient, runtime: Runtime) -> None:
    csrf = login(client)
    for body, code in BAD_BODIES:
        res = client.post(URL, data=body, headers={**csrf, "Content-Type": "application/json"})
        payload = res.get_json()
        assert (res.status_code, payload["code"]) == (400, code), body[:60]
        assert payload["message"] and len(payload["message"]) <= 200  # a long id is not echoed back whole
    assert runtime.journal.terminal_bindings() == {}


def test_the_route_fuzz_covers_the_binding_route(app: Flask) -> None:
    """The fuzz enumerates app.url_map; the dedicated route must be there and win over /api/host/<command>."""
    assert ("POST", URL, []) in _routes(app)
    assert app.url_map.bind("localhost").match(URL, method="POST")[0] == "host_api.bind_terminal"
