"""What the venue accepts (no broker needed): topics, payload limits and fields, the collector's refusals, the
board's alerts, the store's once-per-game results and standings, the staff login, and `[venue]` in a config."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from companion.config import ConfigError, loads_config
from companion.venue import payloads
from companion.venue.board import Board, Limits, alerts_of
from companion.venue.collector import Collector
from companion.venue.errors import VenueError
from companion.venue.mqtt import Broker
from companion.venue.store import VenueStore
from companion.venue.topics import ANNOUNCEMENT, parse_topic, result_topic, table_topic


def summary_payload(**changes: Any) -> dict[str, Any]:
    base = payloads.summary({"table": {"status": "running"},
                             "game": {"id": 3, "name": "secret_hitler", "seats": 5, "to_act": [2], "outcome": None,
                                      "actions": 7, "view": {"phase": "nominate", "liberal_policies": 1,
                                                             "president": 2, "log": []},
                                      "table_info": {"facts": {"fields": {"seat": ["president"]}}}},
                             "seats": [{"name": "Ann", "colour": "#ffffff"}] * 5}, 100.0, 160.0)
    return {**base, **changes}


def result_payload(**changes: Any) -> dict[str, Any]:
    row = {"id": 4, "game": "secret_hitler", "seats": 5, "started": 100.0, "ended": 900.0,
           "outcome": {"winners": [0, 2], "reason": "liberal_policies"}, "actions": 80}
    return {**payloads.result("t01", row, ["Ann", "", "Cy", "", ""], ["liberal"]), **changes}


@pytest.fixture()
def collector(tmp_path: Path) -> Collector:
    store = VenueStore(tmp_path)
    store.add_tables(["t01", "t02"])
    return Collector(Broker.of("mqtt://127.0.0.1:1", "venue", "x"), Board(store.tables()), store)


def test_topics_parse_and_refuse() -> None:
    assert parse_topic(table_topic("t01", "summary")).kind == "summary"
    assert parse_topic(result_topic("t01", 12)).game_id == 12
    for topic, code in [("elsewhere/x", "unknown_topic"), ("companion/v1/tables/T+1/status", "bad_table_id"),
                        ("companion/v1/tables/t01/secrets", "unknown_topic"), (ANNOUNCEMENT, "unknown_topic"),
                        ("companion/v1/tables/t01/results/x", "bad_game_id"),
                        ("companion/v1/tables/t01/results/0", "bad_game_id")]:
        with pytest.raises(VenueError) as caught:
            parse_topic(topic)
        assert caught.value.code == code


def test_the_summary_is_the_public_snapshot_in_short() -> None:
    s = summary_payload()
    assert s["progress"] == {"liberal_policies": 1}  # a seat field (president) is no progress
    assert (s["game"], s["phase"], s["to_act"], s["actions"], s["seat_names"][0]) == ("secret_hitler", "nominate", [2], 7, "Ann")
    assert payloads.read_summary(payloads.decode(payloads.encode(s), "summary"), {"secret_hitler"}.__contains__)


@pytest.mark.parametrize(("raw", "code"), [
    (b"x" * 20000, "payload_too_large"), (b"\xff\xfe", "malformed_payload"), (b"[1, 2]", "malformed_payload"),
    (b'{"v": 1, "n": NaN}', "malformed_payload"), (b'{"v": 9}', "bad_version"), (b"{" * 5000, "malformed_payload"),
])
def test_bad_bytes_are_refused_with_a_code(raw: bytes, code: str) -> None:
    with pytest.raises(VenueError) as caught:
        payloads.decode(raw, "summary")
    assert caught.value.code == code


@pytest.mark.parametrize(("topic", "payload", "code"), [
    ("companion/v1/tables/t09/summary", summary_payload(), "unknown_table"),
    ("companion/v1/tables/t01/summary", summary_payload(game="chess"), "unknown_game"),
    ("companion/v1/tables/t01/summary", summary_payload(to_act=[9]), "malformed_payload"),
    ("companion/v1/tables/t01/summary", summary_payload(phase="<script>"), "malformed_payload"),
    ("companion/v1/tables/t01/summary", summary_payload(actions=True), "malformed_payload"),
    ("companion/v1/tables/t01/status", {"v": 1, "state": "dancing", "version": "1", "since": 1, "keepalive": 5},
     "malformed_payload"),
    ("companion/v1/tables/t01/health", {"v": 1, "readers": {"r0": "on fire"}, "terminals": {}, "uptime_s": 1,
                                        "journal_bytes": 1}, "malformed_payload"),
    ("companion/v1/tables/t01/results/4", result_payload(game="chess"), "unknown_game"),
    ("companion/v1/tables/t01/results/5", result_payload(), "malformed_payload"),
    ("companion/v1/tables/t01/results/4", result_payload(ended=10.0), "malformed_payload"),
    ("companion/v1/tables/t01/results/4", result_payload(winners=[7]), "malformed_payload"),
])
def test_the_collector_refuses_bad_messages_and_changes_nothing(collector: Collector, topic: str,
                                                                payload: dict[str, Any], code: str) -> None:
    before = collector.board.grid()
    with pytest.raises(VenueError) as caught:
        collector.handle(topic, payloads.encode(payload))
    assert caught.value.code == code
    after = collector.board.grid()
    assert after["tables"] == before["tables"] and collector.store.result_count() == 0


def test_a_result_counts_once_and_a_reopened_game_replaces_it(collector: Collector) -> None:
    topic = result_topic("t01", 4)
    for _ in range(3):  # QoS 1 redelivery, a table restarted before its PUBACK
        collector.handle(topic, payloads.encode(result_payload()))
    assert collector.store.result_count() == 1
    collector.handle(topic, payloads.encode(result_payload(ended=950.0, winners=[1], sides=["fascist"])))
    [kept] = collector.store.results()
    assert kept["winners"] == [1] and kept["ended"] == 950.0
    collector.handle(topic, payloads.encode(result_payload()))  # an older copy arriving late changes nothing
    assert collector.store.results()[0]["ended"] == 950.0
    [standing] = collector.store.standings()
    assert standing["played"] == 1 and standing["by_side"] == [{"side": "fascist", "wins": 1}]
    assert standing["by_name"] == [{"name": "", "table": "t01", "seat": 1, "wins": 1}]


def test_alerts() -> None:
    now = 10_000.0
    limits = Limits(long_game_min=60, idle_min=10)
    online = {"state": "online", "since": 1.0, "version": "1", "keepalive": 15}
    row = {"status": online, "summary": summary_payload(started=now - 3700, last_action=now - 700), "health": {
        "readers": {"board": "faulted", "seat:0": "up"}, "terminals": {"T1": "gone", "T2": "up"}}}
    assert [a["code"] for a in alerts_of(row, now, limits)] == ["reader_faulted", "terminal_gone", "long_game", "idle"]
    assert [a["code"] for a in alerts_of({**row, "status": {**online, "state": "offline"}}, now, limits)] == ["offline"]
    assert alerts_of({"status": online, "summary": summary_payload(started=now - 60, last_action=now - 5),
                      "health": None}, now, limits) == []


def test_staff_login_is_hashed_and_checked(tmp_path: Path) -> None:
    store = VenueStore(tmp_path)
    store.set_staff("staff", "correct horse")
    assert store.check_staff("staff", "correct horse")
    assert not store.check_staff("staff", "wrong") and not store.check_staff("nobody", "correct horse")
    assert b"correct horse" not in (tmp_path / "venue.db").read_bytes()


def test_venue_config() -> None:
    cfg = loads_config('[venue]\nbroker = "mqtts://venue.lan"\ntable = "t07"\npassword_file = "/p"\nca_file = "/ca"\n')
    assert cfg.venue is not None and cfg.venue.account == "t07"
    for text, where in [('broker = "http://x"\ntable = "t1"\npassword_file = "p"', "venue.broker"),
                        ('broker = "mqtt://x"\ntable = "t/1"\npassword_file = "p"', "venue.table"),
                        ('broker = "mqtt://x"\ntable = "t1"\npassword_file = "p"\nca_file = "c"', "venue.ca_file"),
                        ('broker = "mqtt://x"\ntable = "t1"', "venue")]:
        with pytest.raises(ConfigError) as caught:
            loads_config("[venue]\n" + text)
        assert caught.value.where == where


def test_an_announcement_is_bounded_plain_text() -> None:
    ok = payloads.read_announcement(payloads.announcement("ab12", "  Last   orders\nat 11 ", time.time()))
    assert ok["text"] == "Last orders at 11"
    for text in ("", "x" * 281, "bell\x07"):
        with pytest.raises(VenueError):
            payloads.read_announcement(payloads.announcement("ab12", text, time.time()))
    assert json.loads(payloads.encode(payloads.announcement("a1", "<b>hi</b>", 1.0)))["text"] == "<b>hi</b>"


def test_the_tv_shows_the_announcement_until_the_host_dismisses_it_over_http(make_table: Any) -> None:
    from companion.table.core.commands import Announce
    rt = make_table(game="secret_hitler", seats=5)
    rt.loop.post(Announce({"id": "a1", "text": "Quiz at 9", "at": 1.0}))
    rt.loop.wait_idle()
    client = rt.app(TESTING=True).test_client()
    assert client.get("/api/state").get_json()["table"]["announcement"]["text"] == "Quiz at 9"
    assert client.post("/api/host/dismiss_announcement", json={}).status_code == 401  # the host's alone
    csrf = client.post("/api/host/login", json={"pin": rt.host_pin}).get_json()["csrf"]
    answer = client.post("/api/host/dismiss_announcement", json={}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 200 and answer.get_json()["dismissed"] == "a1"
    assert "announcement" not in client.get("/api/state").get_json()["table"]
    rt.loop.post(Announce({"id": "a1", "text": "Quiz at 9", "at": 1.0}))  # the retained copy again: stays dismissed
    rt.loop.wait_idle()
    assert "announcement" not in client.get("/api/state").get_json()["table"]
