"""Gangster's Dilemma end to end on mock hardware: a whole game driven only by taps, buttons and terminal
choices; journal rows, LED frames, the bank's instructions, wrong inputs, and no hidden choice in any public
output (or on another seat's terminal) before the reveal."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.binding import BLUE, GOLD, GREEN, WHITE
from companion.table.runtime import Runtime
from tests.table.bindhelp import PublicFeed, deck, example_table, refused, shows, tables, view
from tests.table.helpers import host_call, hw, live_rows, played, tap

__all__ = ["tables"]

SAMPLE = deck("gangsters-dilemma-sample.json")
CHEAP = [{"uid": f"6D00000{i}", "game": "gangsters_dilemma", "kind": "demand", "value": "4:1,0,0,0",
          "label": f"SAMPLE one-crate demand {i}"} for i in range(3)]
DECK = {**SAMPLE, "cards": [c for c in SAMPLE["cards"] if c["kind"] != "demand"] + CHEAP}


def uid(kind: str, value: str) -> str:
    return next(c["uid"] for c in DECK["cards"] if c["kind"] == kind and c["value"] == value)


def level(colour: tuple[int, int, int], money: int, count: int = 4) -> tuple[tuple[int, int, int], ...]:
    """A location segment showing `money` of 10 dollars."""
    lit = round(count * min(money, 10) / 10)
    dim = (int(colour[0] * 0.08), int(colour[1] * 0.08), int(colour[2] * 0.08))
    return (colour,) * lit + (dim,) * (count - lit)


def start(tables: list[Runtime], tmp_path: Path) -> Runtime:
    """The example table, 3 seats, physical components, the deck imported before the game starts."""
    rt = example_table(tmp_path, "mock-gangsters-dilemma.toml", "gangsters_dilemma", 3, "physical", seed=5)
    tables.append(rt)
    assert host_call(rt.loop, "import_cards", deck=DECK) == {"imported": len(DECK["cards"])}
    host_call(rt.loop, "enroll", uid="04C0FFEE", game="secret_hitler", kind="policy", value="L")
    result = host_call(rt.loop, "new_game", options={"characters": []}, replace=True)
    assert isinstance(result, dict) and result["accepted"] == 1  # the setup (police, demands) is sampled
    for t in ("T0", "T1", "T2"):
        hw(rt).mock_terminals.connect(t)
    rt.loop.wait_idle()
    return rt


def test_a_whole_game_through_mock_hardware(tables: list[Runtime], tmp_path: Path) -> None:
    rt = start(tables, tmp_path)
    feed = PublicFeed(rt)
    hub = hw(rt).mock_terminals
    assert view(rt)["sample_deck"] is False and sorted(view(rt)["demands"]) == sorted(played(rt, c["uid"]) for c in CHEAP)
    for round_no in (1, 2):
        v = view(rt)
        assert v["round"] == round_no and v["phase"] == "plan"
        cop = v["police"]
        first, second = (cop + 1) % 3, (cop + 2) % 3
        open_ = [loc["id"] for loc in v["locations"] if not loc["closed"] and loc["id"] != 1]
        patrol = open_[:2]
        money_before = v["locations"][0]["money"]
        feed.drain()
        sent = {t: len(hub.sent[t]) for t in ("T0", "T1", "T2")}
        if round_no == 1:
            rows, shown = len(live_rows(rt)), hw(rt).mock_strip.shown
            tap(rt, f"r{first}", uid("gangster", f"{second}:1"))                # another seat's gangster
            refused(rt, feed, f"seat:{first}", "wrong_reader", rows, shown)
            tap(rt, f"r{first}", uid("police", "2"))                            # not the police seat
            refused(rt, feed, f"seat:{first}", "not_police", rows, shown)
            tap(rt, f"r{first}", "04C0FFEE")                                    # a Secret Hitler tile
            refused(rt, feed, f"seat:{first}", "wrong_game", rows, shown)
            tap(rt, "center", uid("gangster", f"{first}:1"))                    # not a seat reader
            refused(rt, feed, "center", "wrong_reader", rows, shown)
        tap(rt, f"r{first}", uid("gangster", f"{first}:1"))
        assert live_rows(rt)[-1]["action"] == {"type": "choose", "seat": first, "location": 1}
        assert live_rows(rt)[-1]["source"] == f"reader:r{first}"
        tap(rt, f"r{cop}", uid("police", str(patrol[0])))
        assert rt.loop.session.pending is not None and len(rt.loop.session.pending) == 1  # type: ignore[union-attr]
        tap(rt, f"r{cop}", uid("police", str(patrol[1])))
        assert live_rows(rt)[-1]["action"] == {"type": "patrol", "seat": cop, "locations": patrol}
        assert shows(rt, f"seat:{first}", (WHITE,) * 6) and shows(rt, f"seat:{cop}", (WHITE,) * 6)
        assert shows(rt, f"seat:{second}", (GOLD,) * 6)
        for loc in v["locations"]:  # before the reveal a location shows its money only
            if not loc["closed"]:
                assert shows(rt, f"location:{loc['id']}", level(GOLD, loc["money"]))
        public = feed.drain() + json.dumps(rt.handle.public_state())
        assert '"code": "chose"' not in public and '"code": "patrolled"' not in public
        assert '"patrolled": true' not in public
        assert all(loc["visitors"] == [] for loc in view(rt)["locations"]) and view(rt)["patrols"] == []
        assert '"choice": 1' not in json.dumps(hub.sent[f"T{second}"][sent[f"T{second}"]:])
        assert '"choice": 1' in json.dumps(hub.sent[f"T{first}"][sent[f"T{first}"]:])
        assert json.dumps(patrol) not in json.dumps(hub.sent[f"T{first}"][sent[f"T{first}"]:])
        tap(rt, f"r{second}", uid("gangster", f"{second}:1"))                   # the last choice: the reveal
        v = view(rt)
        assert v["locations"][0]["visitors"] == sorted([first, second]) and v["patrols"] == sorted(patrol)
        assert shows(rt, "location:1", level(GREEN, v["locations"][0]["money"]))
        assert shows(rt, f"location:{patrol[0]}", level(BLUE, v["locations"][patrol[0] - 1]["money"]))
        bank = rt.handle.public_state()["game"]["table_info"]["bank"]
        share = money_before // 2
        for seat in (first, second):
            takes = {"money": share, "crate": 1} if share else {"crate": 1}
            assert {"location": 1, "seat": seat, "takes": takes, "hands_over": {}, "to": "bank"} in bank
        assert v["phase"] == "fulfil" and v["to_act"] == [first]
        row = v["demands"]  # the demands' ids in this game: never their tags' UIDs
        tag = {played(rt, c["uid"]): c["uid"] for c in CHEAP}
        tap(rt, f"r{first}", tag[row[0]])
        assert live_rows(rt)[-1]["action"] == {"type": "fulfil", "seat": first, "demand": row[0]}
        if round_no == 1:
            assert view(rt)["to_act"] == [second]
            tap(rt, f"r{second}", tag[row[1]])
        bank = rt.handle.public_state()["game"]["table_info"]["bank"]
        assert {"seat": first, "takes": {"demand": row[0]}, "hands_over": {"crate": 1}, "to": "bank"} in bank
    v = view(rt)
    assert v["phase"] == "game_over" and rt.loop.status == "over"
    outcome = rt.handle.public_state()["game"]["outcome"]
    assert outcome["reason"] == "vp"
    rows = live_rows(rt)
    types = [r["action"]["type"] for r in rows]
    assert types == ["setup", "choose", "patrol", "choose", "fulfil", "fulfil",
                     "choose", "patrol", "choose", "fulfil"]
    assert rows[0]["source"] == "chance" and all(r["source"].startswith("reader:") for r in rows[1:])


def test_responses_by_button_and_terminal_and_an_arrest(tables: list[Runtime], tmp_path: Path) -> None:
    rt = start(tables, tmp_path)
    v = view(rt)
    cop = v["police"]
    first, second = (cop + 1) % 3, (cop + 2) % 3
    tap(rt, f"r{cop}", uid("police", "2"))
    tap(rt, f"r{cop}", uid("police", "3"))
    tap(rt, f"r{first}", uid("gangster", f"{first}:2"))
    tap(rt, f"r{second}", uid("gangster", f"{second}:2"))
    assert view(rt)["phase"] == "respond" and view(rt)["to_act"] == sorted([first, second])
    hw(rt).press(first, "inform")
    rt.loop.wait_idle()
    assert view(rt)["responded"][first] is True
    assert "inform" not in json.dumps(rt.handle.public_state()["game"]["view"])  # hidden until both are in
    prompt = hw(rt).mock_terminals.last_prompt(f"T{second}")
    assert prompt is not None
    option = next(o for o in prompt["options"] if o["action"].get("response") == "silence")
    hw(rt).mock_terminals.choose(f"T{second}", prompt["ballot"], option["value"])
    rt.loop.wait_idle()
    rows = live_rows(rt)
    assert [r["source"] for r in rows[-2:]] == [f"button:{first}:inform", f"terminal:T{second}"]
    bank = rt.handle.public_state()["game"]["table_info"]["bank"]
    assert {"location": 2, "seat": second, "takes": {}, "hands_over": {"liquor": 1}, "to": cop} in bank
    assert {"location": 2, "seat": first, "takes": {"money": 2, "art": 1}, "hands_over": {},
            "to": "bank"} in bank


def test_demo_config_and_run_flag_choose_the_game() -> None:
    import argparse

    from companion.commands import run
    from companion.config import demo_config
    parser = argparse.ArgumentParser()
    run.add_arguments(parser)
    for game, seats in (("gangsters_dilemma", 5), ("boss_wallet", 4)):
        cfg = run.with_game(demo_config(), parser.parse_args(["--game", game]))
        assert cfg is not None and (cfg.game.name, cfg.game.seats) == (game, seats)
    assert run.with_game(demo_config(), parser.parse_args(["--game", "boss_wallet", "--seats", "9"])) is None
    assert run.with_game(demo_config(), parser.parse_args(["--game", "chess"])) is None
    cfg = run.with_game(demo_config(), parser.parse_args([]))
    assert cfg is not None and cfg.game.name == "secret_hitler"
