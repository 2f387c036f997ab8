"""The venue dashboard: its API and login with Flask's test client, then in Debian's Chromium against a real
Mosquitto with two live tables: the grid shows both (game and phase in words), an alert for a faulted reader,
a move made at a table, and an announcement sent from the page reaching the table's TV."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.venue import payloads
from companion.venue.board import Board
from companion.venue.dashboard import Venue, create_app
from companion.venue.server import VenueServer
from companion.venue.store import VenueStore
from companion.venue.topics import result_topic
from companion.web.listener import listen
from tests.venue.broker import VenueBroker, free_port
from tests.venue.tables import act, venue_table, wait_until
from tests.venue.test_messages import result_payload
from tests.web.pages.browser import chromium, csp_errors

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "venue"


@pytest.fixture()
def offline(tmp_path: Path) -> Any:
    """The dashboard over a store and board with no broker."""
    store = VenueStore(tmp_path)
    store.add_tables(["t01", "t02"])
    store.set_staff("staff", "s3cret-words")
    app = create_app({"TESTING": True, "HEARTBEAT_S": 0.05}, Venue(Board(store.tables()), store, None))
    return app, store


def _login(client: Any, password: str = "s3cret-words") -> str:
    answer = client.post("/api/venue/login", json={"login": "staff", "password": password})
    assert answer.status_code == 200, answer.get_json()
    return str(answer.get_json()["csrf"])


def test_everything_needs_a_staff_login(offline: Any) -> None:
    app, _ = offline
    client = app.test_client()
    assert client.get("/").status_code == 302 and client.get("/results").status_code == 302
    for path in ("/api/venue/state", "/api/venue/events", "/api/venue/results", "/venue/results.csv"):
        answer = client.get(path)
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthorised"
    assert client.get("/login").status_code == 200


def test_a_page_elsewhere_can_neither_rebind_the_dashboards_name_nor_post_to_it(offline: Any) -> None:
    client = offline[0].test_client()
    answer = client.post("/api/venue/login", json={"login": "staff", "password": "s3cret-words"},
                         headers={"Host": "evil.example"})
    assert answer.status_code == 421 and answer.get_json()["code"] == "foreign_host"
    answer = client.post("/api/venue/login", json={"login": "staff", "password": "s3cret-words"},
                         headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403 and answer.get_json()["code"] == "foreign_origin"
    csrf = _login(client)
    answer = client.get("/api/venue/state", headers={"Host": "evil.example:8100"})
    assert answer.status_code == 421
    assert client.get("/api/venue/state").status_code == 200 and csrf


def test_a_wrong_login_is_refused_then_locked(offline: Any) -> None:
    client = offline[0].test_client()
    for _ in range(5):
        answer = client.post("/api/venue/login", json={"login": "staff", "password": "guess"})
        assert answer.status_code == 401 and answer.get_json()["code"] == "bad_login"
    answer = client.post("/api/venue/login", json={"login": "staff", "password": "s3cret-words"})
    assert answer.status_code == 429 and answer.get_json()["code"] == "login_locked"
    for body in ({"login": 1, "password": "x"}, [], None):
        assert client.post("/api/venue/login", json=body).status_code in (400, 415)


def test_posts_need_the_csrf_token_and_bad_bodies_get_codes(offline: Any) -> None:
    client = offline[0].test_client()
    csrf = _login(client)
    assert client.post("/api/venue/announce", json={"text": "hi"}).get_json()["code"] == "csrf"
    answer = client.post("/api/venue/announce", data="{", content_type="application/json",
                         headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad_json"
    answer = client.post("/api/venue/announce", json={"text": "hi"}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 503 and answer.get_json()["code"] == "broker_unreachable"


def test_results_standings_and_csv(offline: Any) -> None:
    app, store = offline
    store.add_result({**result_payload(), "seat_names": ["=HYPERLINK(1)", "", "Cy", "", ""]})
    client = app.test_client()
    _login(client)
    data = client.get("/api/venue/results").get_json()
    assert data["count"] == 1 and data["standings"][0]["by_side"] == [{"side": "liberal", "wins": 1}]
    text = client.get("/venue/results.csv").get_data(as_text=True)
    assert text.splitlines()[1].startswith("t01,4,secret_hitler,5,'=HYPERLINK(1)") and "'=HYPERLINK(1) | Cy" in text
    standings = client.get("/venue/standings.csv").get_data(as_text=True)
    assert "secret_hitler,wins_by_side,liberal,1" in standings and "secret_hitler,wins_by_name,Cy,1" in standings


def test_the_live_stream_starts_with_the_whole_grid(offline: Any) -> None:
    app, _ = offline
    client = app.test_client()
    _login(client)
    board: Board = app.extensions["venue"].board
    answer = client.get("/api/venue/events", buffered=False)
    chunks = answer.response
    first = next(chunks).decode()
    assert first.startswith("id: ") and "event: grid" in first
    board.update("t01", "status", {"state": "online", "version": "1", "since": 5.0, "keepalive": 5})
    text = ""
    while "event: row" not in text:
        text += next(chunks).decode()
    row = json.loads(re.search(r"event: row\ndata: (.*)\n", text).group(1))  # type: ignore[union-attr]
    assert row["table"] == "t01" and row["status"]["state"] == "online"
    answer.close()


# --- in Chromium, against a real broker --------------------------------------------------------------------


@pytest.fixture()
def live_venue(broker: VenueBroker, tmp_path: Path) -> Iterator[tuple[str, VenueServer]]:
    """`companion venue` on the test broker, served by waitress on a free port."""
    server = VenueServer(broker.root, broker.url, client_id=f"dash-{free_port()}").start()
    port = free_port()
    thread = threading.Thread(target=server.serve, args=(listen("127.0.0.1", port),), kwargs={"HEARTBEAT_S": 0.5},
                              daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}", server
    server.close()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.browser
def test_the_dashboard_shows_two_live_tables_and_an_alert(broker: VenueBroker, live_venue: tuple[str, VenueServer],
                                                          tmp_path: Path) -> None:
    url, server = live_venue
    first = venue_table(tmp_path / "a", broker, "t01", game="secret_hitler", seats=5)
    second = venue_table(tmp_path / "b", broker, "t02", game="gangsters_dilemma", seats=5)
    try:
        second.hardware.fail_reader("r2", 100000)  # type: ignore[attr-defined]
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1920, "height": 1080}, locale="en-GB")
            errors = csp_errors(page)
            page.goto(f"{url}/login")
            page.fill("#password", broker.accounts["staff"])
            page.click("button[type=submit]")
            page.wait_for_selector("#table-t01 .game")
            page.wait_for_selector("#table-t02 .game")
            assert page.inner_text("#table-t01 .game") == "Secret Hitler"
            assert page.inner_text("#table-t02 .game") == "Gangster's Dilemma"
            assert "online since" in page.inner_text("#table-t01 .state")
            page.wait_for_selector("#alerts li[data-code=reader_faulted]", timeout=10000)
            assert "Seat 3" in page.inner_text("#alerts li[data-code=reader_faulted]")
            before = int(page.get_attribute("#table-t01", "data-actions") or 0)
            act(first, random.Random(4))  # a move at the table reaches the page through the live stream
            page.wait_for_function("n => Number(document.querySelector('#table-t01').dataset.actions) > n", arg=before)
            visible = page.inner_text("main")
            assert not re.search(r"\b[a-z]+_[a-z_]+\b|undefined|NaN|\{\w+\}", visible), visible
            page.fill("#announce-text", "Last orders at 11")
            page.click("#announce-form button[type=submit]")
            wait_until(lambda: (first.loop.snapshot["table"].get("announcement") or {}).get("text")
                       == "Last orders at 11", what="the announcement on table t01's TV")
            page.wait_for_selector("#announcement-now:not([hidden])")
            _shot(page, "dashboard-tv-en")
            page.click("button[data-lang=ko]")
            page.wait_for_function("() => document.documentElement.lang === 'ko'")
            assert page.inner_text("#table-t01 .game") == "시크릿 히틀러"
            _shot(page, "dashboard-tv-ko")
            phone = browser.new_page(viewport={"width": 390, "height": 844}, locale="ko-KR")
            phone.goto(f"{url}/login")
            phone.fill("#password", broker.accounts["staff"])
            phone.click("button[type=submit]")
            phone.wait_for_selector("#table-t02 .game")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the phone scrolls sideways ({width} px)"
            _shot(phone, "dashboard-phone-ko")
            assert not errors, errors
        server.collector.clear()
    finally:
        first.stop()
        second.stop()
