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


@pytest.mark.parametrize("game", companion.games.game_names())
def test_every_view_log_param_and_action_field_keeps_to_the_games_declaration(game: str) -> None:
    """Over random playouts at the fewest and most seats, every field of every view (public and each seat's,
    nested records and log params included) and of every action is declared in the game's `fields`, a seat field
    holds a seat, a list of seats seats, a per-seat field one entry per seat; and every seat kind declared turns
    up in a view or an action type (a declaration naming a seat field nothing has is stale)."""
    import random

    from companion.games import get_rules
    from companion.games.playout import random_playout
    from companion.games.registry import get_game
    from companion.games.schema import KIT_FIELDS, FieldKind

    rules, fields = get_rules(game), get_game(game).fields
    action_fields = {name for spec in rules.actions.values() for name in spec.fields}
    assert action_fields <= set(fields), f"action fields not declared: {action_fields - set(fields)}"
    seen = set(action_fields)
    for seed in range(3):
        seats = rules.max_seats if seed % 2 else rules.min_seats
        played = random_playout(rules, seats, random.Random(seed))
        state = rules.initial_state(seats)
        for action in played.actions:
            assert not fields.problems({k: v for k, v in action.items() if k != "type"}, seats), action
            seen.update(action)
            state = rules.apply(state, action)
            for viewer in (None, *range(seats)):
                view = rules.view(state, viewer)
                assert not (problems := fields.problems(view, seats, viewer is None)), (viewer, problems)
                seen.update(_names(view))
    seat_kinds = fields.of_kind(FieldKind.SEAT) | fields.of_kind(FieldKind.SEATS) | fields.of_kind(FieldKind.PER_SEAT)
    assert seat_kinds - set(KIT_FIELDS) <= seen, f"declared, never seen: {seat_kinds - seen}"


def _names(value: object) -> "set[str]":
    """Every key in a view, at any depth (log params, nested records, catalogue entries)."""
    if isinstance(value, dict):
        return set(map(str, value)).union(*map(_names, value.values()))
    if isinstance(value, list):
        return set().union(*map(_names, value))
    return set()


def test_the_view_check_finds_an_undeclared_field_and_a_seat_field_holding_no_seat() -> None:
    from companion.games.schema import FieldKind, ViewFields

    fields = ViewFields(target=FieldKind.SEAT, winners=FieldKind.SEATS, votes=FieldKind.PER_SEAT,
                        players=FieldKind.RECORDS)
    assert fields.problems({"target": 2, "winners": [0, 1], "votes": [None, "ja", None], "phase": "vote"}, 3) == []
    assert fields.problems({"rogue": 1}, 3) == ["'rogue' is not declared"]
    assert fields.problems({"target": 3}, 3) == ["'target' is declared seat but holds 3"]
    assert fields.problems({"target": True}, 3) == ["'target' is declared seat but holds True"]
    assert fields.problems({"winners": [0, "1"]}, 3) == ["'winners' is declared seats but holds [0, '1']"]
    assert fields.problems({"votes": [None, "ja"]}, 3) == ["'votes' is declared per_seat but holds [None, 'ja']"]
    assert fields.problems({"votes": [None, "ja"]}, 3, public=False) == []  # a seat's own list in its view
    assert fields.problems({"players": [{"target": "x"}]}, 3) == ["'target' is declared seat but holds 'x'"]
    assert fields.problems({"log": [{"code": "c", "params": {"who": 1}}]}, 3) == ["'who' is not declared"]
