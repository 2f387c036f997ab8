"""The simulator is the host's; host sessions live on the server; PIN guessing backs off per client; private
answers are not cached; actions are journaled as parsed."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.runtime import Runtime
from companion.web.auth import HOST_COOKIE
from companion.web.pin_guard import FIRST_LOCK_S, FREE_TRIES, MAX_LOCK_S
from tests.table.helpers import live_rows
from tests.web.conftest import PIN, login

SIM_GETS = ["/api/sim/readers", "/api/sim/leds", "/api/sim/terminal/T1"]
SIM_POSTS: list[tuple[str, dict[str, Any]]] = [
    ("/api/sim/place", {"reader": "r0", "uid": "04A1B2C3"}), ("/api/sim/remove", {"reader": "r0"}),
    ("/api/sim/press", {"seat": 0, "key": "ja"}), ("/api/sim/terminal", {"terminal": "T1", "op": "connect"}),
    ("/api/sim/fail", {"reader": "r1", "times": 0})]


def test_every_sim_route_needs_the_host_session(client: FlaskClient, runtime: Runtime) -> None:
    rows = live_rows(runtime)
    for path in SIM_GETS:
        r = client.get(path)
        assert (r.status_code, r.json["code"]) == (401, "unauthorised"), path
    for path, body in SIM_POSTS:
        r = client.post(path, json=body)
        assert (r.status_code, r.json["code"]) == (401, "unauthorised"), path
    assert live_rows(runtime) == rows and not any(runtime.hardware.present().values())  # type: ignore[attr-defined]
    page = client.get("/sim").get_data(as_text=True)
    assert 'id="login-form"' in page and 'id="zones"' not in page
    headers = login(client)
    for path, body in SIM_POSTS:  # a host POST without its CSRF token is refused too
        r = client.post(path, json=body)
        assert (r.status_code, r.json["code"]) == (403, "csrf"), path
    for path in SIM_GETS:
        assert client.get(path).status_code == 200, path
    assert client.post("/api/sim/press", json={"seat": 0, "key": "ja"}, headers=headers).status_code == 200
    assert 'id="zones"' in client.get("/sim").get_data(as_text=True)


def test_logout_revokes_the_session_on_the_server(app: Flask, client: FlaskClient) -> None:
    headers = login(client)
    cookie = client.get_cookie(HOST_COOKIE)
    assert cookie is not None
    assert client.post("/api/host/logout", headers=headers).status_code == 200
    replay = app.test_client()
    replay.set_cookie(HOST_COOKIE, cookie.value)  # the cookie copied before the logout
    assert replay.get("/api/host/state").status_code == 401
    r = replay.post("/api/host/undo", json={}, headers=headers)
    assert (r.status_code, r.json["code"]) == (401, "unauthorised")


def test_a_second_login_ends_the_first_session_of_that_browser(app: Flask, client: FlaskClient) -> None:
    first = login(client)
    old = client.get_cookie(HOST_COOKIE)
    assert old is not None
    login(client)
    stale = app.test_client()
    stale.set_cookie(HOST_COOKIE, old.value)
    assert stale.get("/api/host/state").status_code == 401
    assert client.post("/api/host/undo", json={}, headers=first).json["code"] == "csrf"


def _from(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_pin_lockout_is_per_client_and_never_refuses_the_right_pin_to_another(app: Flask) -> None:
    guesser, host = _from(app, "10.0.0.66"), _from(app, "10.0.0.2")
    for _ in range(FREE_TRIES * 4):
        assert guesser.post("/api/host/login", json={"pin": "000000"}).status_code in (401, 429)
    assert guesser.post("/api/host/login", json={"pin": PIN}).json["code"] == "pin_locked"
    assert host.post("/api/host/login", json={"pin": PIN}).status_code == 200


def test_pin_lockout_backs_off(app: Flask) -> None:
    step_s = 4.0  # the test's clock moves this much per try: fine enough to tell 30 s from 60 s
    now = [1000.0]
    guard = app.extensions["pin_guard"]
    guard.clock = lambda: now[0]
    client = _from(app, "10.0.0.7")

    def wrong() -> str:
        return str(client.post("/api/host/login", json={"pin": "000000"}).json["code"])

    assert [wrong() for _ in range(FREE_TRIES)] == ["bad_pin"] * FREE_TRIES
    waits = []
    for _ in range(8):
        assert wrong() == "pin_locked"
        start = now[0]
        while wrong() == "pin_locked":  # each wait ends, then one more wrong PIN starts a longer one
            now[0] += step_s
        waits.append(now[0] - start)
    assert waits[0] == pytest.approx(FIRST_LOCK_S, abs=step_s + 0.5)
    assert waits[1] == pytest.approx(2 * FIRST_LOCK_S, abs=step_s + 0.5)
    assert max(waits) == pytest.approx(MAX_LOCK_S, abs=step_s + 0.5) and waits == sorted(waits)
    now[0] += MAX_LOCK_S + 1
    assert client.post("/api/host/login", json={"pin": PIN}).status_code == 200  # and the right PIN resets it
    assert wrong() == "bad_pin"


def test_private_answers_are_not_cached(client: FlaskClient, runtime: Runtime) -> None:
    headers = login(client)
    token = runtime.loop.session.tokens[0]  # type: ignore[union-attr]
    for path in (f"/api/seat/{token}", f"/seat/{token}", "/api/host/state", "/host", "/sim", "/api/sim/readers"):
        assert client.get(path).headers.get("Cache-Control") == "no-store", path
    r = client.post("/api/action", json={"action": {"type": "vote", "seat": 0, "vote": "ja"}}, headers=headers)
    assert r.headers.get("Cache-Control") == "no-store"
    assert client.get("/api/state").headers.get("Cache-Control") != "no-store"  # the public view may be cached


def test_actions_are_journaled_as_parsed(client: FlaskClient, runtime: Runtime) -> None:
    token = runtime.loop.session.tokens[0]  # type: ignore[union-attr]
    junk = {"type": "vote", "seat": 0, "vote": "ja", "junk": "x" * 900_000}
    r = client.post("/api/action", json={"token": token, "action": junk})
    assert r.status_code == 200, r.json
    assert live_rows(runtime)[-1]["action"] == {"type": "vote", "seat": 0, "vote": "ja"}
    assert runtime.journal.unfinished().actions[-1] == {"type": "vote", "seat": 0, "vote": "ja"}  # type: ignore[union-attr]


def test_a_stream_above_the_cap_gets_503(runtime: Runtime) -> None:
    app = runtime.app(SSE_MAX_STREAMS=1, SSE_HEARTBEAT_S=0.05, SSE_MAX_MESSAGES=2, TESTING=True)
    client = app.test_client()
    first = client.get("/api/events", buffered=False)
    assert first.status_code == 200
    r = client.get("/api/events")
    assert (r.status_code, r.json["code"]) == (503, "stream_limit")
    first.get_data()
    first.close()  # a finished stream gives its slot back
    again = client.get("/api/events")
    assert again.status_code == 200
    again.close()


def test_the_hosts_stream_needs_the_host_session_and_ends_with_it(runtime: Runtime) -> None:
    client = runtime.app(SSE_HEARTBEAT_S=0.05, TESTING=True).test_client()  # streams without an end of their own
    r = client.get("/api/host/events")
    assert (r.status_code, r.json["code"]) == (401, "unauthorised")
    headers = login(client)
    stream = client.get("/api/host/events", buffered=False)
    chunks = iter(stream.response)
    assert stream.status_code == 200 and b"retry:" in next(chunks) and b"event: state" in next(chunks)
    client.post("/api/host/logout", headers=headers)
    rest = list(chunks)  # over within a heartbeat: were it not, this would never return
    assert all(b"event:" not in c for c in rest), rest
    stream.close()
    assert client.get("/api/host/events").status_code == 401
