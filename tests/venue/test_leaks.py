"""Nothing secret goes on the wire: an admin account subscribed to `#` while random games of every registered game
run at once, each at its own table. Every summary must be the summary of one of the public snapshots its table
published (so a function of the public view and two times); every payload (status, health, results) must carry no
seat's secret; and nothing may appear on any other topic."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import game_names, get_rules
from companion.table.prompts import private_part
from companion.venue import payloads
from companion.venue.topics import TABLES
from tests.leaks.twins import pairs, secrets_of
from tests.venue.broker import TABLES as ACCOUNTS, Listener, VenueBroker
from tests.venue.tables import venue_table, wait_until

STEPS = 200
"""Actions per table at most (the short games end before it: their results are checked too)."""


class Recorder:
    """What one table showed in public (every snapshot) and what its seats held secret meanwhile."""

    def __init__(self) -> None:
        self.snapshots: list[dict[str, Any]] = []
        self.secrets: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def snapshot(self, snap: dict[str, Any]) -> None:
        with self._lock:
            self.snapshots.append(json.loads(json.dumps(snap)))


def check(table: str, topic: str, raw: bytes, rec: Recorder) -> None:
    """Fail on a payload that is not a function of its table's public view (or carries a secret)."""
    assert topic.startswith(f"{TABLES}/{table}/"), f"unexpected topic {topic}"
    data = json.loads(raw) if raw else {}
    leaked = pairs(data) & rec.secrets
    assert not leaked, f"{topic} carries secrets {leaked}"
    kind = topic.split("/")[4]
    if kind == "summary":
        made = [payloads.summary(s, data["started"], data["last_action"]) for s in rec.snapshots]
        assert data in made, f"{topic}: a summary that no public snapshot gives: {data}"
    elif kind == "status":
        assert set(data) == {"v", "state", "version", "since", "keepalive"}
    elif kind == "health":
        assert set(data) == {"v", "readers", "terminals", "uptime_s", "journal_bytes"}
        assert set(data["readers"].values()) <= {"up", "faulted"}
    elif kind == "results":
        ends = [s["game"]["outcome"] for s in rec.snapshots if s.get("game") and s["game"].get("outcome")]
        assert {"winners": data["winners"], "reason": data["reason"]} in ends
    else:
        raise AssertionError(f"unexpected topic {topic}")


def test_nothing_secret_goes_on_the_wire_while_every_game_plays(broker: VenueBroker, tmp_path: Path) -> None:
    admin = Listener(broker, "#")
    games = game_names()
    tables = dict(zip(ACCOUNTS, games))
    recorders = {t: Recorder() for t in tables}
    runtimes = {}
    try:
        for i, (table, game) in enumerate(tables.items()):
            rules = get_rules(game)
            seats = min(rules.max_seats, max(rules.min_seats, 5))
            rt = venue_table(tmp_path / table, broker, table, game=game, seats=seats, seed=i)
            recorders[table].snapshot(rt.loop.snapshot)
            rt.loop.watch(recorders[table].snapshot)
            runtimes[table] = rt
        rng = random.Random(31)
        for _ in range(STEPS):
            for table, rt in runtimes.items():
                session = rt.loop.session
                assert session is not None
                rules, state = session.rules, session.state
                acting = sorted(s for s in rules.to_act(state) if s >= 0)
                if not acting:
                    continue
                public = rules.view(state, None)
                shown = pairs(public)
                for seat in range(session.seats):
                    recorders[table].secrets |= secrets_of(private_part(rules.view(state, seat), public)) - shown
                seat = rng.choice(acting)
                from companion.table.core.commands import Submit
                rt.loop.call(Submit(seat, rng.choice(rules.legal_actions(state, seat)), "test"))
        for table, rt in runtimes.items():  # everything published has arrived
            actions = len(rt.loop.session.actions)  # type: ignore[union-attr]
            admin.wait_for(lambda t, d, table=table, actions=actions: t == f"{TABLES}/{table}/summary"
                           and d["actions"] == actions)
            wait_until(lambda table=table: admin.count(lambda t, d: t == f"{TABLES}/{table}/health"), what="health")
        assert all(len(r.secrets) > 0 for r in recorders.values())  # the check had secrets to look for
        for table, rt in runtimes.items():  # each finished game's result has arrived
            if rt.loop.session is not None and rt.loop.session.ended:
                admin.wait_for(lambda t, d, table=table: t.startswith(f"{TABLES}/{table}/results/"))
        seen = 0
        for topic, raw, _ in list(admin.messages):
            table = topic.split("/")[3] if topic.startswith(TABLES) else ""
            assert table in tables, f"unexpected topic {topic}"
            check(table, topic, raw, recorders[table])
            seen += 1
        assert seen >= 4 * len(tables)
        assert any("/results/" in topic for topic, _, _ in admin.messages)
    finally:
        for rt in runtimes.values():
            rt.stop()
        admin.close()


def test_the_check_catches_a_planted_leak() -> None:
    rules = get_rules("secret_hitler")
    state = rules.initial_state(5)
    rng = random.Random(1)
    while rules.to_act(state) == frozenset({-1}):
        state = rules.apply(state, rules.sample_chance(state, rng))
    public = rules.view(state, None)
    rec = Recorder()
    rec.secrets = secrets_of(private_part(rules.view(state, 0), public)) - pairs(public)
    snapshot = {"table": {"status": "running"}, "game": {"id": 1, "name": "secret_hitler", "seats": 5, "to_act": [],
                                                         "outcome": None, "actions": 1, "view": public}, "seats": []}
    rec.snapshot(snapshot)
    honest = payloads.summary(snapshot, 1.0, 2.0)
    check("t01", f"{TABLES}/t01/summary", payloads.encode(honest), rec)
    leaky = {**honest, "progress": {**honest["progress"], **private_part(rules.view(state, 0), public)}}
    with pytest.raises(AssertionError):
        check("t01", f"{TABLES}/t01/summary", payloads.encode(leaky), rec)
    with pytest.raises(AssertionError, match="unexpected topic"):
        check("t01", f"{TABLES}/t02/summary", payloads.encode(honest), rec)
