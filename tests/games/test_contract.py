"""Contract tests every registered engine must pass (docs/ARCHITECTURE.md "The engine contract")."""

from __future__ import annotations

import random

import pytest

from companion.games import CHANCE, Refusal, Outcome, game_names, get_rules
from companion.games.contract import COMMON_CODES
from tests.games.harness import check_playout

GAMES = game_names()


def test_contract_names_import() -> None:
    assert CHANCE == -1
    assert issubclass(Refusal, ValueError)
    assert Refusal("malformed").code == "malformed"
    assert Outcome(frozenset({1}), "x").winners == frozenset({1})


def test_unknown_game_is_value_error() -> None:
    with pytest.raises(ValueError):
        get_rules("chess")


@pytest.mark.parametrize("game", GAMES)
def test_seat_bounds_and_options(game: str) -> None:
    rules = get_rules(game)
    rules.initial_state(rules.min_seats)
    rules.initial_state(rules.max_seats, {})
    for bad in (rules.min_seats - 1, rules.max_seats + 1, True, "5", None):
        with pytest.raises(ValueError):
            rules.initial_state(bad)
    with pytest.raises(ValueError, match="no_such_option"):
        rules.initial_state(rules.min_seats, {"no_such_option": 1})
    with pytest.raises(ValueError):
        rules.initial_state(rules.min_seats, ["not", "an", "object"])


@pytest.mark.parametrize("game", GAMES)
def test_codes_listed_with_english_text(game: str) -> None:
    rules = get_rules(game)
    assert set(COMMON_CODES) <= set(rules.codes)
    for code, text in rules.codes.items():
        assert code.isidentifier() and code == code.lower() and text.strip()
    assert rules.phases and all(isinstance(t, str) and t for t in rules.phases.values())


@pytest.mark.parametrize("game", GAMES)
def test_view_of_seat_out_of_range(game: str) -> None:
    rules = get_rules(game)
    state = rules.initial_state(rules.min_seats)
    for bad in (-1, rules.min_seats, True, "0"):
        with pytest.raises(ValueError):
            rules.view(state, bad)


MALFORMED = [
    None, 3, "vote", [], {}, {"type": "no_such_type", "seat": 0}, {"type": 7, "seat": 0},
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", MALFORMED)
def test_malformed_actions(game: str, bad: object) -> None:
    rules = get_rules(game)
    state = rules.initial_state(rules.min_seats)
    with pytest.raises(Refusal) as err:
        rules.apply(state, bad)
    assert err.value.code == "malformed"


@pytest.mark.parametrize("game", GAMES)
def test_seat_fields_reject_booleans_and_out_of_range(game: str) -> None:
    """Every action type with a stray seat (True, -2, n) is malformed, before any other check."""
    rules = get_rules(game)
    state = rules.initial_state(rules.min_seats)
    for kind, spec in rules.actions.items():
        for seat in (True, -2, rules.min_seats, "0", None):
            with pytest.raises(Refusal) as err:
                rules.apply(state, {"type": kind, "seat": seat})
            assert err.value.code == "malformed", (kind, seat)


@pytest.mark.parametrize("game", GAMES)
def test_sample_chance_is_reproducible(game: str) -> None:
    rules = get_rules(game)
    state = rules.initial_state(rules.max_seats)
    assert rules.to_act(state) == frozenset({CHANCE})
    a = rules.sample_chance(state, random.Random(11))
    b = rules.sample_chance(state, random.Random(11))
    assert a == b and a["seat"] == CHANCE
    rules.apply(state, a)
