"""kill -9 of `companion run` at random points of a scripted game (sometimes with an action in flight), each
followed by a restart: the restarted table's state equals the journal replayed, and every acknowledged action is
in the journal. Three kill points in the normal suite; fifty behind the soak marker."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import get_rules
from tests.table.test_crash import ROOT, call, free_port, host_session, start


def _journal(data: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The unfinished game's row, its live actions and the seat-page ones (read with a fresh connection)."""
    db = sqlite3.connect(str(data / "table.db"))
    try:
        gid, game, seats, options = db.execute(
            "SELECT id, game, seats, options FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        rows = [(json.loads(a), s) for a, s in db.execute(
            "SELECT action, source FROM actions WHERE game_id = ? AND undone = 0 ORDER BY idx", (gid,))]
    finally:
        db.close()
    head = {"id": gid, "game": game, "seats": seats, "options": json.loads(options)}
    return head, [a for a, _ in rows], [a for a, s in rows if s.startswith("seat_page")]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def kill_loop(tmp_path: Path, kills: int, seed: int) -> None:
    text = (ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text()
    config = tmp_path / "table.toml"
    config.write_text(text.replace("[web]\n", '[web]\nhost_pin = "123456"\n', 1))
    data, port = tmp_path / "data", free_port()
    rng = random.Random(seed)
    acked: dict[int, list[dict[str, Any]]] = {}  # game id -> acknowledged seat actions
    proc = start(config, data, port)
    try:
        for kill in range(kills):
            opener, csrf = host_session(port)
            host = call(port, "GET", "/api/host/state", opener=opener)[1]
            if call(port, "GET", "/api/state")[1]["table"]["status"] == "resume_check":
                assert call(port, "POST", "/api/host/resume", {}, csrf, opener)[0] == 200
            tokens = [t["token"] for t in host["game"]["seat_tokens"]]
            steps = rng.randint(1, 12)
            for step in range(steps + 1):
                state = call(port, "GET", "/api/state")[1]
                if state["game"]["outcome"] is not None:
                    assert call(port, "POST", "/api/host/new_game", {"replace": True}, csrf, opener)[0] == 200
                    break
                game_id = state["game"]["id"]
                seat = rng.choice(state["game"]["to_act"])
                action = rng.choice(call(port, "GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]["options"])["action"]
                if step < steps:
                    status, body = call(port, "POST", "/api/action", {"token": tokens[seat], "action": action})
                    assert status == 200, body
                    acked.setdefault(game_id, []).append(action)
                    continue
                # the last one is in flight when the kill comes: acknowledged or not, never half-done
                answer: list[Any] = []

                def send() -> None:
                    try:
                        answer.append(call(port, "POST", "/api/action", {"token": tokens[seat], "action": action}))
                    except OSError:
                        pass

                sender = threading.Thread(target=send)
                sender.start()
                time.sleep(rng.uniform(0, 0.03))
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
                sender.join(15)
                if answer and answer[0][0] == 200:
                    acked.setdefault(game_id, []).append(action)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
            head, actions, seat_actions = _journal(data)
            mine = acked.get(head["id"], [])
            assert seat_actions[:len(mine)] == mine, "an acknowledged action is missing from the journal"
            assert len(seat_actions) - len(mine) <= 1, "only the one in-flight action may be journaled unacknowledged"
            acked[head["id"]] = seat_actions  # from now on the journal is what the table acknowledged
            proc = start(config, data, port)
            after = call(port, "GET", "/api/state")[1]
            rules = get_rules(head["game"])
            replayed = rules.initial_state(head["seats"], head["options"])
            for a in actions:
                replayed = rules.apply(replayed, a)
            assert after["game"]["id"] == head["id"]
            assert after["game"]["actions"] == len(actions)
            assert after["game"]["view"] == json.loads(json.dumps(rules.view(replayed, None))), \
                f"kill {kill}: the restarted state is not the journal's"
    finally:
        _stop(proc)


def test_kill_9_at_three_random_points_then_restart_equals_the_journal(tmp_path: Path) -> None:
    kill_loop(tmp_path, kills=3, seed=3)


@pytest.mark.soak
@pytest.mark.timeout(1800)
def test_kill_9_at_fifty_random_points_then_restart_equals_the_journal(tmp_path: Path) -> None:
    kill_loop(tmp_path, kills=50, seed=50)
