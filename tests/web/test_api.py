"""The HTTP API: validation (4xx with a stable code, never a 500, nothing changed), auth, host session + CSRF,
simulator, SSE framing and resume."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.runtime import Runtime
from tests.table.helpers import live_rows
from tests.web.conftest import PIN, login, sse_events


def test_healthz_and_public_state_hold_no_seat_data(client: FlaskClient, runtime: Runtime) -> None:
    assert client.get("/healthz").json == {"ok": True, "status": "running"}
    state = client.get("/api/state").json
    assert state["game"]["view"]["phase"] == "vote" and state["health"]["backend"] == "mock"
    text = json.dumps(state)
    assert "secret" not in text and "hand" not in text
    assert not any(t in text for t in runtime.loop.session.tokens)  # type: ignore[union-attr]


@pytest.mark.parametrize("kwargs, status, code", [
    ({"data": "vote", "content_type": "text/plain"}, 415, "unsupported_media_type"),
    ({"data": "{not json", "content_type": "application/json"}, 400, "bad_json"),
    ({"data": b"\xff\xfe", "content_type": "application/json"}, 400, "bad_json"),
    ({"json": [1, 2]}, 400, "bad_json"),
    ({"data": "[" * 200_000, "content_type": "application/json"}, 400, "bad_json"),
    ({"data": "NaN", "content_type": "application/json"}, 400, "bad_json"),
    ({"json": {"token": "x"}}, 400, "bad_field"),
    ({"json": {"action": "vote"}}, 400, "bad_field"),
    ({"json": {"action": {"type": "vote"}}}, 401, "unauthorised"),
    ({"json": {"action": {"type": "vote"}, "token": "guessed-token"}}, 401, "unauthorised"),
    ({"json": {"action": {"type": "vote"}, "token": 5}}, 401, "unauthorised"),
])
def test_bad_action_posts_are_refused_and_change_nothing(client: FlaskClient, runtime: Runtime,
                                                         kwargs: dict, status: int, code: str) -> None:
    before = len(live_rows(runtime))
    r = client.post("/api/action", **kwargs)
    assert (r.status_code, r.json["code"], r.json["ok"]) == (status, code, False)
    assert r.json["message"]
    assert len(live_rows(runtime)) == before


def test_a_seat_token_acts_for_its_own_seat_only(client: FlaskClient, runtime: Runtime) -> None:
    tokens = runtime.loop.session.tokens  # type: ignore[union-attr]
    r = client.post("/api/action", json={"token": tokens[1], "action": {"type": "vote", "seat": 2, "vote": "ja"}})
    assert (r.status_code, r.json["code"]) == (403, "not_your_seat")
    r = client.post("/api/action", json={"token": tokens[1], "action": {"type": "fly", "seat": 1}})
    assert (r.status_code, r.json["code"]) == (400, "malformed")
    r = client.post("/api/action", json={"token": tokens[1], "action": {"type": "vote", "vote": "ja"}})
    assert r.status_code == 200 and r.json == {"ok": True, "accepted": 1, "pending": False}
    assert live_rows(runtime)[-1] == {**live_rows(runtime)[-1], "action": {"type": "vote", "seat": 1, "vote": "ja"},
                                      "source": "seat_page:1"}
    r = client.post("/api/action", json={"token": tokens[1], "action": {"type": "vote", "vote": "nein"}})
    assert (r.status_code, r.json["code"]) == (409, "not_your_turn")
    seat = client.get(f"/api/seat/{tokens[0]}").json
    assert seat["seat"] == 0 and seat["view"]["secret"] in ("L", "F")
    assert [o["label"] for o in seat["prompt"]["options"]] == ["vote ja", "vote nein"]
    assert client.get("/api/seat/nope").status_code == 401


def test_host_login_csrf_and_commands(client: FlaskClient, runtime: Runtime) -> None:
    assert client.get("/api/host/state").status_code == 401
    r = client.post("/api/host/login", json={"pin": "0000"})
    assert (r.status_code, r.json["code"]) == (401, "bad_pin")
    headers = login(client)
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 2})
    assert (r.status_code, r.json["code"]) == (403, "csrf")
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 2}, headers={"X-CSRF-Token": "forged"})
    assert (r.status_code, r.json["code"]) == (403, "csrf")
    running = runtime.loop.session.game_id  # type: ignore[union-attr]
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 2}, headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "game_running")  # replacing a running game needs a yes
    assert runtime.loop.session.game_id == running  # type: ignore[union-attr]
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 2, "replace": "yes"}, headers=headers)
    assert (r.status_code, r.json["code"]) == (400, "bad_field")
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 2, "replace": True}, headers=headers)
    assert r.status_code == 200 and runtime.loop.session.seats == 2  # type: ignore[union-attr]
    r = client.post("/api/host/new_game", json={"game": "tiny", "seats": 12}, headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "bad_setup")
    r = client.post("/api/host/enroll", json={"name": "x", "uid": "04A1B2C3", "kind": "ballot", "value": "ja"},
                    headers=headers)
    assert r.status_code == 200  # body keys never clash with the command plumbing
    r = client.post("/api/host/enroll_mode", json={"on": "yes"}, headers=headers)
    assert (r.status_code, r.json["code"]) == (400, "bad_field")
    r = client.post("/api/host/explode", json={}, headers=headers)
    assert (r.status_code, r.json["code"]) == (400, "unknown_command")
    r = client.post("/api/action", json={"action": {"type": "vote", "seat": 0, "vote": "ja"}}, headers=headers)
    assert r.status_code == 200 and live_rows(runtime)[-1]["source"] == "host"
    r = client.post("/api/host/undo", json={}, headers=headers)
    assert r.status_code == 200 and r.json["undone"] == 1
    assert client.get("/api/host/state").json["game"]["can_redo"] is True
    r = client.post("/api/host/redo", json={}, headers=headers)
    assert r.status_code == 200 and r.json["redone"] == 1 and live_rows(runtime)[-1]["source"] == "host"
    r = client.post("/api/host/redo", json={}, headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "nothing_to_redo")
    assert client.post("/api/host/undo", json={}, headers=headers).json["undone"] == 1
    state = client.get("/api/host/state").json
    assert [t["seat"] for t in state["game"]["seat_tokens"]] == [0, 1]
    assert state["health"]["backend"] == "mock" and len(state["health"]["readers"]) == 12
    assert client.post("/api/host/end_game", json={}, headers=headers).json["ok"] is True
    assert client.get("/api/host/cards").json["deck"]["format"] == "companion-deck"
    assert client.post("/api/host/logout", headers=headers).status_code == 200
    assert client.get("/api/host/state").status_code == 401


def test_pin_guessing_is_locked_out(client: FlaskClient) -> None:
    for _ in range(5):
        assert client.post("/api/host/login", json={"pin": "1111"}).status_code == 401
    r = client.post("/api/host/login", json={"pin": PIN})
    assert (r.status_code, r.json["code"]) == (429, "pin_locked")


def test_simulator_drives_the_mock_hardware(client: FlaskClient, runtime: Runtime) -> None:
    headers = login(client)
    client.post("/api/host/enroll", json={"uid": "04A1B2C3", "kind": "ballot", "value": "nein"}, headers=headers)
    assert client.post("/api/sim/place", json={"reader": "r0", "uid": "04a1b2c3"}, headers=headers).json == {"ok": True}
    assert live_rows(runtime)[-1]["action"] == {"type": "vote", "seat": 0, "vote": "nein"}
    assert [r["uid"] for r in client.get("/api/sim/readers").json["readers"] if r["reader"] == "r0"] == ["04A1B2C3"]
    assert client.post("/api/sim/remove", json={"reader": "r0"}, headers=headers).json == {"ok": True}
    assert client.post("/api/sim/press", json={"seat": 1, "key": "ja"}, headers=headers).json == {"ok": True}
    assert live_rows(runtime)[-1]["action"] == {"type": "vote", "seat": 1, "vote": "ja"}
    assert client.post("/api/sim/terminal", json={"terminal": "T2", "op": "connect"}, headers=headers).json == {"ok": True}
    screen = client.get("/api/sim/terminal/T2").json["messages"]
    ballot = screen[-1]["ballot"]
    r = client.post("/api/sim/terminal", json={"terminal": "T2", "op": "choose", "ballot": ballot, "value": 1}, headers=headers)
    assert r.json == {"ok": True} and live_rows(runtime)[3]["action"] == {"type": "vote", "seat": 2, "vote": "nein"}
    leds = client.get("/api/sim/leds").json
    assert len(leds["pixels"]) == 80 and {"zone": "seat:0", "start": 0, "count": 6} in leds["zones"]
    for path, body, code in [("/api/sim/place", {"reader": "r99", "uid": "04A1B2C3"}, "unknown_reader"),
                             ("/api/sim/place", {"reader": "r0", "uid": "xyz"}, "bad_uid"),
                             ("/api/sim/place", {"reader": "r0"}, "bad_field"),
                             ("/api/sim/press", {"seat": 0, "key": "maybe"}, "unknown_button"),
                             ("/api/sim/press", {"seat": "0", "key": "ja"}, "bad_field"),
                             ("/api/sim/press", {"seat": True, "key": "ja"}, "bad_field"),
                             ("/api/sim/terminal", {"terminal": "T 7", "op": "connect"}, "bad_terminal"),
                             ("/api/sim/terminal", {"terminal": "T1", "op": "dance"}, "bad_field"),
                             ("/api/sim/terminal", {"terminal": "T1", "op": "choose", "seq": "1", "ballot": "b"},
                              "bad_field"),
                             ("/api/sim/fail", {"reader": "r1", "times": "forever"}, "bad_field")]:
        r = client.post(path, json=body, headers=headers)
        assert (r.status_code, r.json["code"]) == (400, code), (path, body)
    assert client.post("/api/sim/fail", json={"reader": "r1", "times": -1}, headers=headers).json == {"ok": True}
    runtime.hardware.poller.wait_cycles(2)  # type: ignore[union-attr]
    readers = {r["name"]: r for r in client.get("/api/state").json["health"]["readers"]}
    assert readers["r1"]["ok"] is False
    assert client.post("/api/sim/fail", json={"reader": "r1", "times": 0}, headers=headers).json == {"ok": True}


def test_the_simulator_taps_a_tag_at_a_terminals_own_reader(client: FlaskClient, runtime: Runtime) -> None:
    headers = login(client)
    client.post("/api/host/enroll", json={"uid": "04A1B2C3", "kind": "ballot", "value": "ja"}, headers=headers)
    tap = {"terminal": "T2", "op": "tap", "uid": "04:a1:b2:c3"}
    r = client.post("/api/sim/terminal", json=tap, headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "terminal_unplugged")  # an unplugged terminal reads nothing
    r = client.post("/api/sim/terminal", json={"terminal": "T2", "op": "choose", "ballot": "b", "value": 1},
                    headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "terminal_unplugged")  # nor answers a prompt
    journaled = len(live_rows(runtime))
    assert client.post("/api/sim/terminal", json={"terminal": "T2", "op": "connect"}, headers=headers).json["ok"]
    assert client.post("/api/sim/terminal", json=tap, headers=headers).json == {"ok": True, "uid": "04A1B2C3"}
    assert live_rows(runtime)[-1]["action"] == {"type": "vote", "seat": 2, "vote": "ja"}
    assert live_rows(runtime)[-1]["source"] == "reader:terminal:T2"  # heard at the terminal, not a table zone
    for fresh_tap in ({"terminal": "T2", "op": "tap"}, {"terminal": "T2", "op": "tap", "uid": None}):
        fresh = client.post("/api/sim/terminal", json=fresh_tap, headers=headers).json
        assert fresh["ok"] and len(fresh["uid"]) == 14 and fresh["uid"] != "04A1B2C3"  # a new tag's, as /api/sim/tap
    assert len(live_rows(runtime)) == journaled + 1, "an unknown tag plays nothing"
    for body, code in [({"uid": "xyz"}, "bad_uid"), ({"uid": 4}, "bad_field"), ({"terminal": "T 2"}, "bad_terminal")]:
        r = client.post("/api/sim/terminal", json={**tap, **body}, headers=headers)
        assert (r.status_code, r.json["code"]) == (400, code), body
    assert len(live_rows(runtime)) == journaled + 1


def test_no_simulator_without_the_mock_backend(runtime: Runtime) -> None:
    runtime.handle.sim = None
    client = runtime.app(TESTING=True).test_client()
    r = client.post("/api/sim/press", json={"seat": 0, "key": "ja"}, headers=login(client))
    assert (r.status_code, r.json["code"]) == (404, "no_sim")


def test_unknown_routes_and_methods_answer_json(client: FlaskClient) -> None:
    r = client.get("/api/nothing")
    assert (r.status_code, r.json["code"]) == (404, "not_found")
    r = client.get("/api/action")
    assert (r.status_code, r.json["code"]) == (405, "method_not_allowed")
    r = client.post("/api/action", data=b"x" * (2 << 20), content_type="application/json")
    assert (r.status_code, r.json["code"]) == (413, "too_large")


def test_sse_has_ids_resumes_after_last_event_id_and_sends_heartbeats(app: Flask, client: FlaskClient,
                                                                      runtime: Runtime) -> None:
    first = sse_events(client.get("/api/events").get_data(as_text=True))
    assert first[0] == {"retry": "2000"}
    snapshot = first[1]
    assert snapshot["event"] == "state" and snapshot["id"].startswith(runtime.loop.bus.boot + "-")
    assert first[2] == {"comment": "heartbeat"}
    for seat in (0, 1):  # one at a time: presses queued together would share one state event
        runtime.hardware.press(seat, "ja")  # type: ignore[attr-defined]
        runtime.loop.wait_idle()
    resumed = sse_events(client.get("/api/events", headers={"Last-Event-ID": snapshot["id"]}).get_data(as_text=True))
    events = [e for e in resumed if "event" in e]
    assert [e["event"] for e in events] == ["state", "state"] and resumed[-1] == {"comment": "heartbeat"}
    assert [e["data"]["game"]["actions"] for e in events] == [2, 3]
    ids = [int(e["id"].split("-")[1]) for e in events]
    assert ids == sorted(ids) and ids[0] == int(snapshot["id"].split("-")[1]) + 1
    stale = sse_events(client.get("/api/events", headers={"Last-Event-ID": "feedface-3"}).get_data(as_text=True))
    assert stale[1]["event"] == "state" and stale[1]["data"]["game"]["actions"] == 3  # a fresh snapshot


ENDPOINTS = ["/api/action", "/api/host/login", "/api/host/new_game", "/api/host/undo", "/api/host/redo",
             "/api/host/end_game",
             "/api/host/resume", "/api/host/enroll_mode", "/api/host/enroll", "/api/host/forget_card",
             "/api/host/import_cards", "/api/sim/place", "/api/sim/remove", "/api/sim/press", "/api/sim/terminal",
             "/api/sim/fail"]
BODIES: list[object] = [None, {}, [], "x", 0, {"action": None}, {"action": {"type": None}}, {"seats": -1},
                        {"game": ["secret_hitler"]}, {"deck": {"format": "companion-deck", "version": 1,
                                                                 "cards": [None]}},
                        {"uid": {"a": 1}}, {"reader": 0, "uid": 0}, {"seat": 10**30, "key": "ja"},
                        {"terminal": "T0", "op": "choose", "ballot": "x", "value": {"deep": [1]}},
                        {"reader": "r0", "times": 10**30}, {"on": None}, {"pin": 1234},
                        {"game": "tiny", "seats": 3, "options": {"x": 1}}, {"token": None, "action": {}}]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_no_body_makes_a_500(client: FlaskClient, path: str) -> None:
    headers = login(client)
    for body in BODIES:
        r = client.post(path, json=body, headers=headers)
        assert r.status_code < 500, (path, body, r.json)
        assert r.json is not None and ("code" in r.json or r.json.get("ok") is True), (path, body, r.json)
