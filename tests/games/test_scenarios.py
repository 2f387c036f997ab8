"""Every scenario record under tests/scenarios/ runs through the replay path and must pass its checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.replay import ReplayError, replay_lines

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").rglob("*.jsonl"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(p.parents[1])) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    try:
        replay_lines(path.read_text(encoding="utf-8").splitlines())
    except ReplayError as exc:
        pytest.fail(f"{path.name} {exc}")
