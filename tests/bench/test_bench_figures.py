"""The bench figures' own pieces on tiny inputs (values are not judged; speed is measured by `companion bench`)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

from companion.config import load_config
from companion.games.registry import get_rules
from companion.bench.engines import apply_us, replay_ms
from companion.bench.idle import idle_config
from companion.bench.sse import tap_to_sse

ROOT = Path(__file__).resolve().parents[2]


def test_idle_config_has_eight_readers_polled_at_20_hz(tmp_path: Path) -> None:
    text = idle_config((ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text())
    data = tomllib.loads(text)
    assert len(data["readers"]) == 8 and data["polling"]["interval_ms"] == 50
    path = tmp_path / "idle.toml"
    path.write_text(text)
    assert len(load_config(path).readers) == 8  # a valid table config


def test_engine_figures_are_positive_numbers() -> None:
    rules = get_rules("secret_hitler")
    assert apply_us(rules, random.Random(1), samples=50) > 0
    assert replay_ms(rules, random.Random(1), repeats=1) > 0


def test_tap_to_sse_reaches_every_client(tmp_path: Path) -> None:
    figure = tap_to_sse(3, str(tmp_path), clients=3)
    assert figure["taps"] >= 3 and figure["clients"] == 3 and 0 < figure["p50"] <= figure["p99"] <= figure["max"]
