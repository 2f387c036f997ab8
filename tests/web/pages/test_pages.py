"""Every page route and every refusal, through Flask's test client against a real (mock-hardware) table."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask.testing import FlaskClient

from companion.table.runtime import Runtime
from tests.web.pages.conftest import PIN, host_post, login, new_game

PAGES = ["/", "/about", "/host", "/sim"]


class Tags(HTMLParser):
    """Collects tags with their attributes, and the text inside <script> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text = ""
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.script_text += data.strip()


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def assert_self_contained(html: str) -> None:
    """No inline script or style, nothing loaded from another origin."""
    tags = parse(html)
    assert tags.script_text == "", "inline script"
    scripts = [a for t, a in tags.tags if t == "script"]
    assert scripts and all(a.get("src", "").startswith("/assets/") and a.get("type") == "module" for a in scripts)
    assert not [t for t, a in tags.tags if t == "style" or "style" in a], "inline style"
    assert not [t for t, a in tags.tags if any(k.startswith("on") for k in a)], "inline event handler"
    for tag, attrs in tags.tags:
        for key in ("src", "href"):
            value = attrs.get(key) or ""
            if tag != "a" and re.match(r"^(https?:)?//", value):
                raise AssertionError(f"<{tag} {key}={value}> loads from another origin")


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_served_with_a_strict_policy(client: FlaskClient, path: str) -> None:
    res = client.get(path)
    assert res.status_code == 200
    csp = res.headers["Content-Security-Policy"]
    assert csp.startswith("default-src 'self'") and "unsafe-inline" not in csp
    assert res.headers["X-Content-Type-Options"] == "nosniff"
    assert res.headers["Referrer-Policy"] == "no-referrer"
    assert_self_contained(res.get_data(as_text=True))


def test_about_credits_secret_hitler(client: FlaskClient) -> None:
    html = client.get("/about").get_data(as_text=True)
    assert "Goat, Wolf &amp; Cabbage" in html and "CC BY-NC-SA 4.0" in html


def test_language_follows_the_browser(client: FlaskClient) -> None:
    assert '<html lang="ko">' in client.get("/", headers={"Accept-Language": "ko-KR,ko;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)


def test_assets_and_texts(client: FlaskClient) -> None:
    js = client.get("/assets/js/table.js")
    assert js.status_code == 200 and "javascript" in js.mimetype
    assert client.get("/assets/css/app.css").mimetype == "text/css"
    assert client.get("/i18n/ko.json").get_json()["lang"] == "ko"
    assert client.get("/i18n/fr.json").status_code == 404
    assert client.get("/assets/../../setup.py").status_code == 404
    assert client.get("/assets/js/nothing.js").status_code == 404


def test_seat_page_needs_a_token_of_the_running_game(client: FlaskClient) -> None:
    assert client.get("/seat/not-a-token").status_code == 404
    csrf = login(client)
    first = new_game(client, csrf)
    page = client.get(f"/seat/{first[1]}")
    assert page.status_code == 200 and f'data-token="{first[1]}"' in page.get_data(as_text=True)
    assert_self_contained(page.get_data(as_text=True))
    assert host_post(client, csrf, "end_game", {}).status_code == 200
    second = new_game(client, csrf)
    assert set(first).isdisjoint(second), "tokens are new each game"
    old = client.get(f"/seat/{first[1]}")
    assert old.status_code == 404 and "not valid for the running game" in old.get_data(as_text=True)
    assert client.get(f"/api/seat/{first[1]}").status_code == 401
    refused = client.post("/api/action", json={"token": first[1], "action": {"type": "vote", "seat": 1, "vote": "ja"}})
    assert refused.status_code == 401 and refused.get_json()["code"] == "unauthorised"


def test_a_seat_token_acts_only_for_its_seat(client: FlaskClient) -> None:
    tokens = new_game(client, login(client))
    res = client.post("/api/action", json={"token": tokens[0], "action": {"type": "vote", "seat": 1, "vote": "ja"}})
    assert res.status_code == 403 and res.get_json()["code"] == "not_your_seat"
    ok = client.post("/api/action", json={"token": tokens[0], "action": {"type": "vote", "seat": 0, "vote": "ja"}})
    assert ok.status_code == 200, ok.get_json()
    again = client.post("/api/action", json={"token": tokens[0], "action": {"type": "vote", "seat": 0, "vote": "nein"}})
    assert again.status_code == 409 and again.get_json()["code"] == "not_your_turn"


@pytest.mark.parametrize(("body", "ctype", "status", "code"), [
    (b"{not json", "application/json", 400, "bad_json"),
    (b"[1, 2]", "application/json", 400, "bad_json"),
    (b'{"token": "x"}', "application/json", 400, "bad_field"),
    (b'{"action": {"type": "vote"}}', "text/plain", 415, "unsupported_media_type"),
    (b"\xff\xfe", "application/json", 400, "bad_json"),
])
def test_bad_requests_are_4xx_with_a_message(client: FlaskClient, body: bytes, ctype: str, status: int, code: str) -> None:
    for url in ("/api/action", "/api/host/login"):
        res = client.post(url, data=body, content_type=ctype)
        assert 400 <= res.status_code < 500
        assert res.get_json()["message"]
    res = client.post("/api/action", data=body, content_type=ctype)
    assert (res.status_code, res.get_json()["code"]) == (status, code)


def test_wrong_pin_and_lockout(client: FlaskClient) -> None:
    for _ in range(4):
        res = client.post("/api/host/login", json={"pin": "0000"})
        assert res.status_code == 401 and res.get_json()["code"] == "bad_pin"
    assert client.post("/api/host/login", json={"pin": "0000"}).status_code == 401
    locked = client.post("/api/host/login", json={"pin": PIN})
    assert locked.status_code == 429 and locked.get_json()["code"] == "pin_locked"
    assert client.get("/api/host/state").status_code == 401


def test_host_posts_need_the_session_and_its_csrf_token(client: FlaskClient, app) -> None:
    assert client.post("/api/host/undo", json={}).status_code == 401
    csrf = login(client)
    missing = client.post("/api/host/enroll_mode", json={"on": True})
    assert missing.status_code == 403 and missing.get_json()["code"] == "csrf"
    wrong = client.post("/api/host/enroll_mode", json={"on": True}, headers={"X-CSRF-Token": csrf + "x"})
    assert wrong.status_code == 403
    assert host_post(client, csrf, "enroll_mode", {"on": True}).status_code == 200
    other = app.test_client()  # another browser: no session cookie, even with the token
    assert other.post("/api/host/enroll_mode", json={"on": False}, headers={"X-CSRF-Token": csrf}).status_code == 401
    assert host_post(client, csrf, "no_such_command", {}).status_code == 400


def test_host_session_cookie_is_httponly_and_samesite(client: FlaskClient) -> None:
    res = client.post("/api/host/login", json={"pin": PIN})
    cookie = res.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_host_page_carries_the_csrf_token_only_in_a_session(client: FlaskClient) -> None:
    assert '<meta name="csrf-token" content="">' in client.get("/host").get_data(as_text=True)
    csrf = login(client)
    assert f'<meta name="csrf-token" content="{csrf}">' in client.get("/host").get_data(as_text=True)


def test_qr_codes_are_svg_for_the_host_only(client: FlaskClient, app) -> None:
    assert app.test_client().get("/host/qr/0.svg").status_code == 401
    csrf = login(client)
    host_post(client, csrf, "end_game", {})
    assert client.get("/host/qr/0.svg").status_code == 404  # no game running
    new_game(client, csrf)
    res = client.get("/host/qr/2.svg")
    assert res.status_code == 200 and res.mimetype == "image/svg+xml"
    assert b"<svg" in res.data and b"<script" not in res.data
    assert client.get("/host/qr/3.svg").status_code == 404


def test_games_catalogue_lists_options_with_defaults(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/host/games.json").get_json()["games"]}
    assert games["tiny"]["min_seats"] == 2 and games["tiny"]["max_seats"] == 4
    assert isinstance(games["tiny"]["options"], dict)


def test_exports(client: FlaskClient, app) -> None:
    assert app.test_client().get("/host/export/cards.json").status_code == 401
    csrf = login(client)
    assert host_post(client, csrf, "enroll", {"uid": "04A1B2C3", "game": "tiny", "kind": "ballot", "value": "ja",
                                              "label": "ja 1"}).status_code == 200
    deck = client.get("/host/export/cards.json")
    assert deck.status_code == 200 and "attachment" in deck.headers["Content-Disposition"]
    assert "04A1B2C3" in deck.get_data(as_text=True)
    assert client.get("/host/export/nothing.json").status_code == 404
    tokens = new_game(client, csrf)
    running = client.get("/host/export/record.json")
    assert running.status_code == 409 and running.get_json()["code"] == "game_running"
    vote = client.post("/api/action", json={"token": tokens[0], "action": {"type": "vote", "seat": 0, "vote": "ja"}})
    assert vote.status_code == 200, vote.get_json()
    assert host_post(client, csrf, "end_game", {}).status_code == 200
    record = client.get("/host/export/record.json").get_data(as_text=True).splitlines()
    assert '"game": "tiny"' in record[0] and any('"vote"' in line for line in record[1:])


def test_sim_page_only_with_the_mock_backend(client: FlaskClient, runtime: Runtime,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    login(client)
    assert client.get("/sim").status_code == 200
    monkeypatch.setattr(runtime.handle, "sim", None)
    res = client.get("/sim")
    assert res.status_code == 404 and "mock hardware" in res.get_data(as_text=True)


def test_unknown_paths_and_methods(client: FlaskClient) -> None:
    assert client.get("/nothing").status_code == 404
    assert client.post("/").status_code == 405
    assert client.delete("/api/state").status_code == 405
