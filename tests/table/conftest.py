"""Fixtures: a running table on mock hardware in a temporary data directory."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from companion.config import BotsConfig, GameConfig, PollingConfig, TableConfig, demo_config
from companion.games import registry
from companion.table.runtime import Runtime


@pytest.fixture()
def tiny_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the test-only game for one test."""
    monkeypatch.setitem(registry.GAMES, "tiny", "tests.table.tinygame")


def table_config(data: Path, game: str = "tiny", seats: int = 3, mode: str = "digital",
                 without_readers: tuple[str, ...] = (), confirm_polls: int = 2) -> TableConfig:
    """The demo table (optionally missing some readers), fast polling, data in `data`."""
    cfg = demo_config()
    return replace(cfg, data_dir=str(data), game=GameConfig(game, seats, mode),
                   polling=PollingConfig(interval_ms=5, removal_ms=25, confirm_polls=confirm_polls),
                   readers=tuple(r for r in cfg.readers if r.name not in without_readers))


@pytest.fixture()
def bot_table(tmp_path: Path) -> Iterator[Callable[..., Runtime]]:
    """Start Secret Hitler tables (7 seats unless told) whose bots play after `bots`' pause, none by default
    (stopped at the end of the test); `data` keeps a table's database for a restart."""
    started: list[Runtime] = []

    def make(bots: BotsConfig = BotsConfig(0, 0), seed: int = 1, data: Path | None = None, **kwargs: Any) -> Runtime:
        cfg = table_config(data or tmp_path / f"bots{len(started)}", **{"game": "secret_hitler", "seats": 7, **kwargs})
        runtime = Runtime(replace(cfg, bots=bots), rng=random.Random(seed)).start()
        started.append(runtime)
        return runtime

    yield make
    for runtime in started:
        runtime.stop()


@pytest.fixture()
def make_table(tmp_path: Path) -> Iterator[Callable[..., Runtime]]:
    """Start tables (stopped at the end of the test)."""
    started: list[Runtime] = []

    def make(**kwargs: Any) -> Runtime:
        cfg = table_config(tmp_path / f"data{len(started)}", **kwargs)
        runtime = Runtime(cfg, rng=random.Random(len(started))).start()
        started.append(runtime)
        return runtime

    yield make
    for runtime in started:
        try:
            runtime.stop()
        except Exception:
            pass
