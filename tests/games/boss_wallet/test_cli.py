"""`companion replay` and `companion simulate` run Boss's Wallet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "boss_wallet"


def test_replay_prints_the_final_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SCENARIOS / "three_rounds.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "boss_wallet"
    assert out["outcome"] == {"winners": [0], "reason": "chips"}
    assert out["view"]["phase"] == "game_over"


def test_replay_seat_view_and_a_refused_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (SCENARIOS / "limit_500_with_coin.jsonl").read_text(encoding="utf-8").splitlines()
    head = [line for line in lines if '"#"' not in line and '"expect"' not in line and '"refuse"' not in line]
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(head[:8]) + "\n", encoding="utf-8")
    assert main(["replay", str(record), "--seat", "2"]) == 0
    view = json.loads(capsys.readouterr().out)["view"]
    assert view["seat"] == 2 and view["chip_values"] == [1]
    bad = head[:3] + ['{"type": "reveal_hand", "seat": -1, "target": 0, "cards": ["js1"]}']
    record.write_text("\n".join(bad) + "\n", encoding="utf-8")
    assert main(["replay", str(record)]) == 1
    assert "line 4: not_your_turn" in capsys.readouterr().err


def test_simulate_reports_outcomes_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "boss_wallet", "--seats", "7", "--games", "3", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcomes"] == {"chips": 3}
    assert report["games_per_s"] > 0
    assert main(["simulate", "boss_wallet", "--seats", "3", "--games", "2", "--options",
                 '{"chips": {"1": 1}}']) == 2
    assert "chips" in capsys.readouterr().out
