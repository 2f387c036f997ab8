"""A table against a real Mosquitto: what it publishes, its last will on kill -9, the broker's ACL and accounts,
TLS with a CA made here, results exactly once across a broker restart and a table restart, the announcement,
and a table that plays on while its broker is down."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.venue import payloads
from companion.venue.board import Board
from companion.venue.collector import Collector
from companion.venue.errors import BrokerRefused
from companion.venue.mqtt import Broker, connect, new_client
from companion.venue.store import VenueStore
from companion.venue.topics import ANNOUNCEMENT, result_topic, table_topic
from tests.table.test_crash import ROOT, call
from tests.venue.broker import TABLES, Listener, VenueBroker, free_port
from tests.venue.tables import act, play_to_end, venue_table, wait_until


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reconnect within a fraction of a second (the product waits 0.5 s doubling to 30 s)."""
    monkeypatch.setattr("companion.venue.publisher.BACKOFF_S", (0.1, 0.5))
    monkeypatch.setattr("companion.venue.publisher.HEALTH_EVERY_S", 0.2)


@pytest.fixture()
def listener(broker: VenueBroker) -> Iterator[Listener]:
    """The venue's account, subscribed to everything."""
    running = Listener(broker)
    yield running
    running.close()


def status_of(table: str, state: str) -> Any:
    return lambda topic, data: topic == table_topic(table, "status") and data and data["state"] == state


def test_a_table_publishes_status_summary_and_health_and_says_goodbye(broker: VenueBroker, listener: Listener,
                                                                       tmp_path: Path) -> None:
    rt = venue_table(tmp_path / "t", broker, "t01")
    try:
        listener.wait_for(status_of("t01", "online"))
        _, summary = listener.wait_for(lambda t, d: t == table_topic("t01", "summary") and d["game"])
        assert summary["game"] == "secret_hitler" and summary["status"] == "running" and summary["started"]
        _, health = listener.wait_for(lambda t, d: t == table_topic("t01", "health"))
        assert health["readers"]["board"] == "up" and health["journal_bytes"] > 0
        act(rt, random.Random(3))
        listener.wait_for(lambda t, d: t == table_topic("t01", "summary") and d["actions"] == summary["actions"] + 1)
        rt.hardware.fail_reader("board", 1000)  # type: ignore[attr-defined]
        listener.wait_for(lambda t, d: t == table_topic("t01", "health") and d["readers"]["board"] == "faulted")
        assert rt.handle.health()["venue"] == {"table": "t01", "connected": True, "problem": None}
    finally:
        rt.stop()
    _, goodbye = listener.wait_for(status_of("t01", "offline"))
    assert goodbye["since"] is not None  # a clean stop, not the last will


def test_kill_9_of_a_table_shows_offline_by_its_last_will(broker: VenueBroker, listener: Listener,
                                                          tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    text = (ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text()
    config.write_text(text + f'\n[venue]\nbroker = "{broker.url}"\ntable = "t02"\n'
                             f'password_file = "{broker.password_file("t02")}"\nkeepalive = 5\n')
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data",
                             str(tmp_path / "data"), "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        listener.wait_for(status_of("t02", "online"), timeout=30)
        assert call(port, "GET", "/api/state")[1]["health"]["venue"]["connected"] is True
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        _, will = listener.wait_for(status_of("t02", "offline"), timeout=8)  # within 1.5 keep-alives at worst
        assert will["since"] is None  # the last will: the venue dates it when it hears it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _client(broker: VenueBroker, account: str) -> Any:
    settings = broker.broker(account)
    client = new_client(settings, f"acl-{account}-{time.monotonic_ns()}")
    connect(client, settings, 30)
    client.loop_start()
    return client


def test_the_broker_refuses_a_table_writing_into_another_tables_topic(broker: VenueBroker, listener: Listener) -> None:
    intruder = _client(broker, "t03")
    try:
        answers: list[Any] = []
        intruder.on_publish = lambda c, u, mid, reason, props: answers.append(reason)
        forged = payloads.encode({"v": 1, "state": "offline", "version": "x", "since": 1.0, "keepalive": 5})
        intruder.publish(table_topic("t04", "status"), forged, qos=1).wait_for_publish(5)
        own = intruder.publish(table_topic("t03", "health"), b"{}", qos=1)
        own.wait_for_publish(5)
        wait_until(lambda: len(answers) == 2, what="both PUBACKs")
        assert answers[0].is_failure and int(answers[0].value) == 135  # not authorised
        assert not answers[1].is_failure
        listener.wait_for(lambda t, d: t == table_topic("t03", "health"))
        assert listener.count(lambda t, d: t == table_topic("t04", "status")) == 0
        heard: list[str] = []
        intruder.on_message = lambda c, u, message: heard.append(message.topic)
        intruder.subscribe([("companion/v1/tables/t04/#", 1), (ANNOUNCEMENT, 1)])
        owner = _client(broker, "t04")
        owner.publish(table_topic("t04", "health"), b"{}", qos=1).wait_for_publish(5)
        venue = _client(broker, "venue")
        venue.publish(ANNOUNCEMENT, b"", qos=1, retain=True).wait_for_publish(5)  # an empty retained: nothing kept
        venue.publish(ANNOUNCEMENT, b"x", qos=1).wait_for_publish(5)
        wait_until(lambda: ANNOUNCEMENT in heard, what="the announcement at another table")
        listener.wait_for(lambda t, d: t == table_topic("t04", "health"))
        assert set(heard) == {ANNOUNCEMENT}  # the broker delivers another table's topics to nobody but the venue
        for c in (owner, venue):
            c.disconnect()
            c.loop_stop()
    finally:
        intruder.disconnect()
        intruder.loop_stop()


@pytest.mark.parametrize(("account", "password", "code"), [
    ("t01", "wrong-password", "broker_auth_refused"), ("nobody", "x", "broker_auth_refused"),
])
def test_wrong_credentials_are_refused(broker: VenueBroker, account: str, password: str, code: str) -> None:
    settings = broker.broker(account, password=password)
    with pytest.raises(BrokerRefused) as caught:
        connect(new_client(settings, "wrong"), settings, 30)
    assert caught.value.code == code


def test_anonymous_and_unreachable_are_refused(broker: VenueBroker) -> None:
    import paho.mqtt.client as mqtt
    reasons: list[Any] = []
    anonymous = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    anonymous.on_connect = lambda c, u, f, reason, p: reasons.append(reason)
    anonymous.connect("127.0.0.1", broker.port)
    wait_until(lambda: anonymous.loop(0.05) is not None and reasons, what="CONNACK")
    assert reasons[0].is_failure
    closed = Broker.of(f"mqtt://127.0.0.1:{free_port()}", "t01", "x")
    with pytest.raises(BrokerRefused) as caught:
        connect(new_client(closed, "closed"), closed, 30)
    assert caught.value.code == "broker_unreachable"


def test_tls_with_the_venues_ca(broker: VenueBroker, listener: Listener, tmp_path: Path) -> None:
    rt = venue_table(tmp_path / "t", broker, "t05", tls=True)
    try:
        listener.wait_for(status_of("t05", "online"))
        listener.wait_for(lambda t, d: t == table_topic("t05", "summary"))
    finally:
        rt.stop()
    stranger = Broker.of(broker.tls_url, "t05", broker.accounts["t05"])  # the system's CAs never signed it
    with pytest.raises(BrokerRefused) as caught:
        connect(new_client(stranger, "stranger"), stranger, 30)
    assert caught.value.code == "broker_tls_failed"


def _outbox(data: Path) -> list[int]:
    db = sqlite3.connect(str(data / "table.db"))
    try:
        return [g for (g,) in db.execute("SELECT game_id FROM outbox")]
    finally:
        db.close()


def test_results_arrive_exactly_once_across_a_broker_restart_and_a_table_restart(broker: VenueBroker,
                                                                                  tmp_path: Path) -> None:
    store = VenueStore(tmp_path / "venue")
    store.add_tables(TABLES)
    venue = Collector(broker.broker("venue"), Board(store.tables()), store, client_id="exactly-once").start()
    data = tmp_path / "t06"
    rng = random.Random(5)
    try:
        rt = venue_table(data, broker, "t06")
        wait_until(lambda: rt.venue.state()["connected"], what="the table connected")
        broker.stop()  # the broker goes away; the table finishes its game meanwhile
        first = play_to_end(rt, rng)
        assert _outbox(data) == [first]
        broker.start()
        wait_until(lambda: store.result_count() == 1, timeout=15, what="the result after the broker came back")
        wait_until(lambda: _outbox(data) == [], what="the outbox row deleted on PUBACK")
        # the table restarts with a finished game in its outbox: the broker is down when it ends
        broker.stop()
        second = play_to_end(_new_game(rt), rng)
        rt.stop()
        assert _outbox(data) == [second]
        broker.start()
        rt = venue_table(data, broker, "t06")
        wait_until(lambda: store.result_count() == 2, timeout=15, what="the result after the table restarted")
        wait_until(lambda: _outbox(data) == [], what="the outbox emptied")
        rt.stop()
        # a table killed after the broker took a result but before it deleted the row sends it again: counted once
        db = sqlite3.connect(str(data / "table.db"))
        with db:
            db.execute("INSERT INTO outbox (game_id, queued) VALUES (?, ?)", (second, time.time()))
        db.close()
        rt = venue_table(data, broker, "t06")
        wait_until(lambda: _outbox(data) == [], what="the resend acknowledged")
        time.sleep(0.3)
        rt.stop()
        assert sorted(r["game_id"] for r in store.results()) == sorted([first, second])
        assert store.result_count() == 2
        [row] = [r for r in store.results() if r["game_id"] == first]
        assert row["table"] == "t06" and row["game"] == "secret_hitler" and row["sides"] in (["liberal"], ["fascist"])
    finally:
        venue.stop()
        store.close()
        if broker.proc is None:
            broker.start()


def _new_game(rt: Any) -> Any:
    from tests.table.helpers import host_call
    result = host_call(rt.loop, "new_game", game="secret_hitler", seats=5, replace=True)
    assert isinstance(result, dict), result
    return rt


def test_the_announcement_shows_until_the_host_dismisses_it(broker: VenueBroker, tmp_path: Path) -> None:
    store = VenueStore(tmp_path / "venue")
    store.add_tables(TABLES)
    venue = Collector(broker.broker("venue"), Board(store.tables()), store, client_id="announcer").start()
    rt = venue_table(tmp_path / "t", broker, "t01")
    try:
        said = venue.announce("Last orders at 11 <b>please</b>")
        shown = wait_until(lambda: rt.loop.snapshot["table"].get("announcement"), what="the announcement on the TV")
        assert shown["text"] == "Last orders at 11 <b>please</b>" and shown["id"] == said["id"]
        from tests.table.helpers import host_call
        assert host_call(rt.loop, "dismiss_announcement") == {"dismissed": said["id"]}
        assert "announcement" not in rt.loop.snapshot["table"]
        rt.stop()  # another table hears the retained copy; once dismissed, a reconnect does not bring it back
        rt = venue_table(tmp_path / "t2", broker, "t01")
        wait_until(lambda: rt.loop.snapshot["table"].get("announcement"), what="a new table shows it")
        host_call(rt.loop, "dismiss_announcement")
        broker.restart()
        wait_until(lambda: rt.venue.state()["connected"], timeout=10, what="the table reconnected")
        time.sleep(0.3)
        assert "announcement" not in rt.loop.snapshot["table"]
        wait_until(lambda: venue.client.is_connected(), timeout=10, what="the venue reconnected")
        venue.announce("Quiz at 9")
        wait_until(lambda: (rt.loop.snapshot["table"].get("announcement") or {}).get("text") == "Quiz at 9")
        venue.clear()
        wait_until(lambda: "announcement" not in rt.loop.snapshot["table"], what="taken down")
    finally:
        rt.stop()
        venue.stop()
        store.close()


def test_a_table_plays_on_with_its_broker_down(tmp_path: Path, broker: VenueBroker) -> None:
    rt = venue_table(tmp_path / "t", broker, "t01", url=f"mqtt://127.0.0.1:{free_port()}")
    try:
        rng = random.Random(2)
        for _ in range(20):
            assert act(rt, rng)
        wait_until(lambda: rt.venue.state()["problem"] == "broker_unreachable", what="the refusal")
        assert rt.loop.alive and rt.handle.health()["venue"]["connected"] is False
    finally:
        rt.stop()


def test_a_missing_password_file_is_said_and_the_table_plays_on(tmp_path: Path, broker: VenueBroker) -> None:
    rt = venue_table(tmp_path / "t", broker, "t01", password_file=tmp_path / "nowhere")
    try:
        wait_until(lambda: rt.venue.state()["problem"] == "password_unreadable", what="the refusal")
        assert act(rt, random.Random(1))
    finally:
        rt.stop()
