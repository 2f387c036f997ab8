"""Every game binding names the refusal codes it raises (the page translates them by code)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import companion.games

GAMES_DIR = Path(companion.games.__file__).parent
BINDINGS = sorted(p.parent.name for p in GAMES_DIR.glob("*/binding.py") if p.parent.name != "secret_hitler")


@pytest.mark.parametrize("game", BINDINGS)
def test_every_code_a_binding_raises_is_documented(game: str) -> None:
    source = (GAMES_DIR / game / "binding.py").read_text()
    raised = set(re.findall(r'refuse\(\s*"([a-z_]+)"', source))
    binding = importlib.import_module(f"companion.games.{game}.binding").BINDING
    assert raised and raised <= set(binding.codes)
    assert all(isinstance(text, str) and text.endswith(".") for text in binding.codes.values())


@pytest.mark.parametrize("game", companion.games.game_names())
def test_every_scene_takes_the_tables_seat_colours(game: str) -> None:
    """The table passes its configured seat colours to whichever game runs, so every binding accepts them."""
    from companion.games import get_rules
    from companion.games.binding import get_binding

    rules = get_rules(game)
    view = rules.view(rules.initial_state(rules.min_seats), None)
    colours = tuple((10 * i, 20, 30) for i in range(rules.min_seats))
    binding, seats = get_binding(game), rules.min_seats
    assert binding.scene(view, seats, seat_colours=colours).keys() == binding.scene(view, seats).keys()
