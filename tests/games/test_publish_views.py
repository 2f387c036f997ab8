"""The once-per-publish views (`Rules.views`, `Rules.seat_part`) equal the contract's `view(state, seat)`:
the public view and, for every seat, what its view adds, over random playouts of every game and seat count, with
the options of each components mode the engine tells apart."""

from __future__ import annotations

import random

import pytest

from companion.games import game_names, get_rules
from companion.games.playout import choose_action
from companion.games.rules import private_part
from tests.games.harness import mode_options
from tests.games.test_playouts import CASES

SEEDS = range(3)
MAX_STEPS = 400
"""Steps checked per game (Thief of Baghdad's random games run to thousands of actions)."""



@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_views_equal_the_contract_views(game: str, seats: int) -> None:
    rules = get_rules(game)
    checked = 0
    for options, seed in [(options, seed) for options in mode_options(game) for seed in SEEDS]:
        rng = random.Random(seed)
        state = rules.initial_state(seats, options)
        for _ in range(MAX_STEPS):
            public, parts = rules.views(state)
            assert public == rules.view(state, None)
            assert len(parts) == seats
            for seat in range(seats):
                expected = private_part(rules.view(state, seat), public)
                assert parts[seat] == expected, f"{game}/{seats}/{seed} seat {seat} in {rules.phase(state)}"
                assert rules.seat_part(state, seat, public) == expected
                checked += 1
            assert public == rules.view(state, None), "building the seat parts changed the public view"
            if not rules.to_act(state):
                break
            state = rules.apply(state, choose_action(rules, state, rng))
    assert checked >= seats * len(SEEDS) * len(mode_options(game))


@pytest.mark.parametrize("game", game_names())
def test_seat_part_refuses_a_seat_outside_the_game(game: str) -> None:
    rules = get_rules(game)
    state = rules.initial_state(rules.min_seats)
    public = rules.view(state, None)
    for bad in (-1, rules.min_seats, "0", None, True):
        with pytest.raises(ValueError):
            rules.seat_part(state, bad, public)  # type: ignore[arg-type]
