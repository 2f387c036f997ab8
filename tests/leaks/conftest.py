"""The leak test's tables: the demo config on mock hardware, each served and recorded (tests/leaks/recorder.py)."""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from companion.config import WebConfig
from companion.games.registry import get_rules
from companion.table.runtime import Runtime
from tests.leaks.recorder import Recorder
from tests.leaks.twins import Table, Twins
from tests.table.conftest import table_config
from tests.table.helpers import hw

PIN = "864213"
SPARE = "SPARE"
"""A terminal plugged in and bound to no seat: what it shows is public."""


def seats_for(game: str) -> int:
    """The seat count each game is played at here."""
    rules = get_rules(game)
    return min(rules.max_seats, max(rules.min_seats, 5))


@pytest.fixture()
def started() -> Iterator[list[Table]]:
    """Tables started by a test (stopped at its end)."""
    tables: list[Table] = []
    yield tables
    for t in tables:
        t.rec.stop()
        t.rt.stop()


def table(tables: list[Table], tmp_path: Path, game: str, seed: int) -> Table:
    """A started, recorded table of the demo config playing `game` (digital at first)."""
    cfg = replace(table_config(tmp_path / f"t{len(tables)}", game=game, seats=seats_for(game)),
                  web=WebConfig(host_pin=PIN))
    rng = random.Random(seed)
    rt = Runtime(cfg, rng=rng).start()
    t = Table(rt, Recorder(rt, PIN), rng)
    tables.append(t)
    t.rec.start()
    return t


@pytest.fixture()
def log_text() -> Iterator[list[str]]:
    """The table's log lines while a test runs."""
    lines: list[str] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lambda record: lines.append(handler.format(record))  # type: ignore[method-assign]
    logger = logging.getLogger("companion")
    old = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield lines
    logger.removeHandler(handler)
    logger.setLevel(old)


def plug_terminals(twins: Twins, seats: int) -> None:
    """Every seat's terminal plugged in at both tables, and a spare one bound to no seat."""
    for name in [f"T{s}" for s in range(seats)] + [SPARE]:
        twins.both(f"plug {name} in", lambda t, name=name: hw(t.rt).mock_terminals.connect(name))
