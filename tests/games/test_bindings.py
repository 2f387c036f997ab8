"""Every game binding names the refusal codes it raises (the page translates them by code)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import companion.games

GAMES_DIR = Path(companion.games.__file__).parent
BINDINGS = sorted(p.parent.name for p in GAMES_DIR.glob("*/binding.py"))


@pytest.mark.parametrize("game", BINDINGS)
def test_every_code_a_binding_raises_is_documented(game: str) -> None:
    source = (GAMES_DIR / game / "binding.py").read_text()
    raised = set(re.findall(r'refuse\(\s*"([a-z_]+)"', source))
    binding = importlib.import_module(f"companion.games.{game}.binding").BINDING
    assert raised and raised <= set(binding.codes)
    assert "Refusal(" not in source, "a binding refuses through refuse(code), the one way (its codes declared)"
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


def _fields(value: object, path: str = "") -> "list[tuple[str, object]]":
    """Every (field name, value) in a view or log params, nested dicts included."""
    found: list[tuple[str, object]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            found.append((str(key), inner))
            found += _fields(inner)
    elif isinstance(value, list):
        for inner in value:
            found += _fields(inner)
    return found


@pytest.mark.parametrize("game", companion.games.game_names())
def test_the_seat_fields_a_binding_exports_hold_seats(game: str) -> None:
    """The page names seats by the fields the binding exports (no JS copy): over random playouts, every field it
    calls a seat holds a seat number, a seat list holds seat numbers, a per-seat field one entry per seat; and
    every field it declares turns up."""
    import random

    from companion.games import get_rules
    from companion.games.binding import get_binding
    from companion.games.playout import random_playout

    rules, binding = get_rules(game), get_binding(game)
    seen: set[str] = set()
    for seed in range(3):
        seats = rules.max_seats if seed % 2 else rules.min_seats
        facts = binding.facts(seats)
        single, lists, per_seat = (set(facts[k]) for k in ("seat_fields", "seat_list_fields", "per_seat_fields"))
        played = random_playout(rules, seats, random.Random(seed))
        state = rules.initial_state(seats)
        for action in played.actions:
            state = rules.apply(state, action)
            for viewer in (None, action["seat"] if action["seat"] >= 0 else None):
                view = rules.view(state, viewer)
                top_level = [(k, v) for k, v in view.items()] + [
                    (k, v) for e in view.get("log") or () for k, v in e["params"].items()] if viewer is None else []
                for name, value in _fields(view):
                    if name in single and value is not None and not isinstance(value, (dict, list)):
                        assert isinstance(value, int) and -1 <= value < seats, (name, value)
                        seen.add(name)
                    if name in lists and isinstance(value, list):
                        assert all(isinstance(s, int) and 0 <= s < seats for s in value), (name, value)
                        seen.add(name)
                    # per seat at the top of the public view and in log params (deeper, e.g. in one player's
                    # entry, a name may stand for that player's own list)
                    if name in per_seat and isinstance(value, list) and (name, value) in top_level:
                        assert len(value) == seats, (name, value)
                        seen.add(name)
    declared = set(binding.seat_fields) | set(binding.seat_list_fields) | set(binding.per_seat_fields)
    assert declared <= seen, f"declared but never seen in a view: {declared - seen}"
