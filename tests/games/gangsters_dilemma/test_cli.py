"""`companion replay` and `companion simulate` work for Gangster's Dilemma."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "gangsters_dilemma" / "rule_end_shared_win.jsonl"


def test_replay_prints_the_final_view_and_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SCENARIO)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "gangsters_dilemma"
    assert out["outcome"] == {"winners": [1, 2], "reason": "vp"}
    assert out["view"]["phase"] == "game_over" and out["to_act"] == []


def test_replay_of_a_seat_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SCENARIO), "--seat", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["view"]["seat"] == 2


def test_replay_reports_a_refused_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = SCENARIO.read_text(encoding="utf-8").splitlines()[:3]
    lines.append(json.dumps({"type": "choose", "seat": 0, "location": 1}))  # seat 0 is the police
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(record)]) == 1
    assert "police_no_gangster" in capsys.readouterr().err


@pytest.mark.parametrize("seats", [3, 7])
def test_simulate(seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gangsters_dilemma", "--seats", str(seats), "--games", "2", "--seed", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["outcomes"] == {"vp": 2}


def test_simulate_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    options = json.dumps({"characters": [], "market_price": 2, "lone_gangster_may_bribe": True})
    assert main(["simulate", "gangsters_dilemma", "--seats", "4", "--games", "2", "--options", options, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcomes"] == {"vp": 2}
    assert main(["simulate", "gangsters_dilemma", "--seats", "4", "--options", '{"market_price": 0}']) == 2
    assert "market_price" in capsys.readouterr().out
