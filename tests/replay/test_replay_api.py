"""Finished games: kept by the journal across restarts, listed, exported, replayed to their outcome; the history;
the replay and reveal routes open nothing while a game runs, or without the host session or a share link."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from companion.config import GameConfig, PollingConfig, demo_config
from companion.games import get_rules
from companion.games.replay import replay_lines
from companion.table.runtime import Runtime
from tests.replay.helpers import GAMES, play_game, play_some, start_game

PIN = "135791"


def start_table(data: Path) -> Runtime:
    """The demo table on mock hardware, named seats, a known PIN."""
    base = demo_config()
    seats = tuple(replace(s, name=n) for s, n in zip(base.seats, ["Ana", "Bo", "Cy", "Di", "Ed", "", "", "", "", ""]))
    cfg = replace(base, data_dir=str(data), game=GameConfig("thief_of_baghdad", 2, "digital"), seats=seats,
                  polling=PollingConfig(interval_ms=5, removal_ms=25), web=replace(base.web, host_pin=PIN))
    return Runtime(cfg, rng=random.Random(11)).start()


def host(client: FlaskClient) -> dict[str, str]:
    """Log in; the CSRF header for host POSTs."""
    res = client.post("/api/host/login", json={"pin": PIN})
    assert res.status_code == 200, res.get_json()
    return {"X-CSRF-Token": res.get_json()["csrf"]}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Runtime, list[dict[str, Any]]]]:
    """A table that finished three games, was restarted, and runs a fourth (unfinished) game."""
    data = tmp_path_factory.mktemp("journal")
    first = start_table(data)
    played = [play_game(first, game, seats, seed) for seed, (game, seats) in enumerate(GAMES[:3])]
    first.stop()
    rt = start_table(data)  # the restart starts the default game: the finished ones stay kept
    start_game(rt, "secret_hitler", 5)
    play_some(rt, random.Random(5), 12)
    yield rt, played
    rt.stop()


@pytest.fixture()
def client(table: tuple[Runtime, list[dict[str, Any]]]) -> FlaskClient:
    return table[0].app(TESTING=True).test_client()


def test_three_finished_games_outlive_a_restart_and_each_exports_and_replays_to_its_outcome(
        client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    _, played = table
    host(client)
    listing = client.get("/api/host/games").get_json()
    by_id = {g["id"]: g for g in listing["games"]}
    for game, want in zip(GAMES, played):
        row = by_id[want["id"]]
        assert (row["game"], row["seats"], row["outcome"], row["actions"]) == (game[0], game[1], want["outcome"],
                                                                               want["actions"])
        assert row["started"] <= row["ended"]
        res = client.get(f"/host/export/record.json?game={want['id']}")
        assert res.status_code == 200 and res.headers["Content-Disposition"].endswith(f'game-{want["id"]}.jsonl"')
        replayed = replay_lines(res.get_data(as_text=True).splitlines())
        outcome = replayed.rules.outcome(replayed.state)
        assert {"winners": sorted(outcome.winners), "reason": outcome.reason} == want["outcome"]
        rec = client.get(f"/api/replay/{want['id']}").get_json()
        assert rec["steps"] == want["actions"] and rec["outcome"] == want["outcome"]
        last = client.get(f"/api/replay/{want['id']}/step/{rec['steps']}").get_json()
        assert last["snapshot"]["game"]["outcome"] == want["outcome"]
        first = client.get(f"/api/replay/{want['id']}/step/0").get_json()
        assert first["action"] is None and first["snapshot"]["game"]["outcome"] is None


def test_the_reveal_says_what_really_happened(client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    _, played = table
    host(client)
    sh = client.get(f"/api/replay/{played[0]['id']}").get_json()
    sessions = [line for line in sh["reveal"] if line["code"] in ("session", "vetoed")]
    assert sessions and all(len(s["params"]["drew"]) == 3 and s["params"]["discarded"] in s["params"]["drew"]
                            for s in sessions)
    assert sh["sides"] in (["liberal"], ["fascist"])
    enacted = [s["params"]["policy"] for s in sessions if s["code"] == "session"]
    chaos = [line["params"]["policy"] for line in sh["reveal"] if line["code"] == "chaos"]
    final = client.get(f"/api/replay/{played[0]['id']}/step/{sh['steps']}").get_json()["snapshot"]["game"]["view"]
    assert enacted.count("L") + chaos.count("L") == final["liberal_policies"]
    assert enacted.count("F") + chaos.count("F") == final["fascist_policies"]
    gangsters = client.get(f"/api/replay/{played[1]['id']}").get_json()["reveal"]
    assert all(line["code"] in ("informed", "silent", "bribed") for line in gangsters)
    thief = client.get(f"/api/replay/{played[2]['id']}").get_json()
    chests = [line for line in thief["reveal"] if line["code"] == "chest"]
    assert chests and [c["params"]["turn_no"] for c in chests] == sorted(c["params"]["turn_no"] for c in chests)


def test_history_counts_games_wins_and_lengths_and_exports_csv(
        client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    _, played = table
    host(client)
    stats = {s["game"]: s for s in client.get("/api/host/games/stats").get_json()["stats"]}
    names = ["Ana", "Bo", "Cy", "Di", "Ed"]
    for (game, _), want in zip(GAMES, played):
        s = stats[game]
        assert s["played"] == 1 and s["average_actions"] == want["actions"]
        assert s["wins_by_seat"] == {str(w): 1 for w in want["outcome"]["winners"]}
        assert s["wins_by_reason"] == {want["outcome"]["reason"]: 1}
    assert sum(stats["secret_hitler"]["wins_by_side"].values()) == 1
    res = client.get("/host/export/history.csv")
    assert res.status_code == 200 and res.mimetype == "text/csv"
    lines = res.get_data(as_text=True).splitlines()
    assert lines[0] == "game,measure,name,value" and "secret_hitler,played,,1" in lines
    sh_winners = played[0]["outcome"]["winners"]
    assert {f"secret_hitler,wins_by_seat,{names[w]},1" for w in sh_winners} <= set(lines)


def test_share_links_open_one_finished_game_only_and_can_be_revoked(
        client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    _, played = table
    csrf = host(client)
    one, other = played[0]["id"], played[1]["id"]
    url = client.post(f"/api/host/games/{one}/share", headers=csrf).get_json()["url"]
    token = url.split("t=")[1]
    guest = table[0].app(TESTING=True).test_client()
    assert guest.get(f"/api/replay/{one}?t={token}").status_code == 200
    assert guest.get(f"/api/replay/{one}/step/3?t={token}").get_json()["hidden"]["seats"]
    assert guest.get(f"/replay/{one}?t={token}").status_code == 200
    res = guest.get(f"/api/replay/{other}?t={token}")
    assert (res.status_code, res.get_json()["code"]) == (403, "bad_share")
    assert guest.get(f"/api/host/games").status_code == 401
    assert client.post(f"/api/host/games/{one}/unshare", headers=csrf).status_code == 200
    res = guest.get(f"/api/replay/{one}?t={token}")
    assert (res.status_code, res.get_json()["code"]) == (403, "bad_share")


def test_nothing_of_a_running_game_is_reachable_and_no_route_answers_500(
        client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    rt, _ = table
    running = rt.loop.session.game_id
    guest = rt.app(TESTING=True).test_client()
    for path in (f"/api/replay/{running}", f"/api/replay/{running}/step/1", f"/replay/{running}", "/api/host/games",
                 "/api/host/games/stats", "/host/export/history.csv", f"/api/replay/{running}?t=x"):
        res = guest.get(path)
        assert res.status_code in (401, 403), (path, res.status_code)
    assert guest.get("/api/reveal").get_json()["code"] == "game_running"
    csrf = host(client)
    for path, code in ((f"/api/replay/{running}", "game_running"), (f"/api/replay/{running}/step/1", "game_running"),
                       (f"/host/export/record.json?game={running}", "game_running"),
                       ("/api/replay/99999", "no_such_game"), ("/host/export/record.json?game=abc", "bad_game_id"),
                       ("/api/reveal", "game_running")):
        res = client.get(path)
        assert res.get_json()["code"] == code and 400 <= res.status_code < 500, (path, res.get_json())
    res = client.post(f"/api/host/games/{running}/share", headers=csrf)
    assert res.get_json()["code"] == "game_running"
    assert client.get(f"/replay/{running}").status_code == 409
    finished = client.get("/api/host/games").get_json()["games"][0]["id"]
    res = client.get(f"/api/replay/{finished}/step/100000")
    assert (res.status_code, res.get_json()["code"]) == (400, "bad_step")
    assert running not in {g["id"] for g in client.get("/api/host/games").get_json()["games"]}
    body = json.dumps(client.get("/api/host/games/stats").get_json())
    assert "roles" not in body


def test_the_table_page_reveal_opens_once_the_game_is_over(tmp_path: Path) -> None:
    rt = start_table(tmp_path)
    try:
        guest = rt.app(TESTING=True).test_client()
        start_game(rt, "secret_hitler", 5)
        play_some(rt, random.Random(2), 6)
        assert guest.get("/api/reveal").status_code == 409
        play_some(rt, random.Random(2), 100_000)
        res = guest.get("/api/reveal").get_json()
        roles = [seat["role"] for seat in res["seats"]]
        assert sorted(set(roles)) == ["fascist", "hitler", "liberal"]
        assert res["reveal"] and res["game"] == "secret_hitler"
        assert get_rules("secret_hitler").name == res["game"]
    finally:
        rt.stop()


def test_the_command_line_lists_and_exports_finished_games(
        table: tuple[Runtime, list[dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    rt, played = table
    data = ["--data", str(rt.config.data_dir)]
    assert main(["games", "list", "--json", *data]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert all(rows[p["id"]]["outcome"] == p["outcome"] for p in played)
    assert rt.loop.session.game_id not in rows
    assert main(["games", "list", *data]) == 0
    assert "thief_of_baghdad" in capsys.readouterr().out
    out = tmp_path / "sh.jsonl"
    assert main(["games", "export", str(played[0]["id"]), "-o", str(out), *data]) == 0
    replayed = replay_lines(out.read_text(encoding="utf-8").splitlines())
    assert len(replayed.actions) == played[0]["actions"]
    assert main(["games", "export", str(played[0]["id"]), "-o", str(out), *data]) == 2
    assert "file_exists" in capsys.readouterr().err
    assert main(["games", "export", str(rt.loop.session.game_id), "-o", str(tmp_path / "x"), *data]) == 2
    assert "game_running" in capsys.readouterr().err and not (tmp_path / "x").exists()
    assert main(["games", "export", "9999", "-o", "-", *data]) == 2
    assert "no_such_game" in capsys.readouterr().err


def test_each_move_keeps_what_the_table_saw_it_do(client: FlaskClient, table: tuple[Runtime, list[dict[str, Any]]]) -> None:
    """With hidden things closed a replay still says each move's public facts: the lines it added to the public log
    (the nominee of a nomination), and nothing a seat alone knew."""
    _, played = table
    host(client)
    rec = client.get(f"/api/replay/{played[0]['id']}").get_json()
    lines = rec["public_lines"]
    assert len(lines) == rec["steps"]
    nominations = [(a, ls) for a, ls in zip(rec["actions"], lines) if a["type"] == "nominate"]
    assert nominations and all(any(e["code"] == "nominated" and e["params"].get("chancellor") == a["target"]
                                   for e in ls) for a, ls in nominations), nominations[:2]
    final = client.get(f"/api/replay/{played[0]['id']}/step/{rec['steps']}").get_json()["snapshot"]["game"]["view"]
    shown = [e for ls in lines for e in ls]
    assert all(e in shown for e in final["log"])  # every public line came from some move, in the public view
