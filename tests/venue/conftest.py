"""Fixtures: one real Mosquitto per test module (on free ports, with `venue init`'s config) and tables."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from tests.table.conftest import make_table, tiny_game  # noqa: F401  (pytest fixtures)
from tests.venue.broker import VenueBroker, start_broker


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VenueBroker]:
    """A Mosquitto for the whole module."""
    running = start_broker(tmp_path_factory.mktemp("broker"))
    yield running
    running.stop()
