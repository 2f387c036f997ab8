"""Random playouts of every game x seat count x >= 100 seeds, through the one harness.

A game whose random games run to thousands of actions (Thief of Baghdad: random seats spend their cards on
guard moves, so ~4,000-7,000 actions a game) declares `quick_playout_seeds`: the default suite plays that many
seeds per seat count and `make soak` plays the rest, in blocks that stay within the per-test timeout.
"""

from __future__ import annotations

import pytest

from typing import Any, Mapping

from companion.games import game_names, get_rules
from tests.games.harness import check_playout, mode_options

SEEDS = range(100)
SOAK_BLOCK = 5

CASES = [
    (game, seats)
    for game in game_names()
    for seats in range(get_rules(game).min_seats, get_rules(game).max_seats + 1)
]


def quick_seeds(game: str) -> range:
    """The seeds the default suite plays for a game: all of SEEDS unless the engine asks for fewer."""
    return SEEDS[: getattr(get_rules(game), "quick_playout_seeds", len(SEEDS))]


DIGITAL_CASES = [(game, seats) for game, seats in CASES if len(mode_options(game)) > 1]
"""The games whose engine plays otherwise with digital components (their binding adds options), at every seat
count: played again with a digital table's options."""


def _play(game: str, seats: int, seeds: range, options: Mapping[str, Any] | None = None) -> None:
    rules = get_rules(game)
    for seed in seeds:
        # Every listed action is tried on a quarter of the games: the full check is quadratic in game length.
        check_playout(rules, seats, seed, options, try_every_legal=seed % 4 == 0)


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_random_playouts(game: str, seats: int) -> None:
    _play(game, seats, quick_seeds(game))


@pytest.mark.parametrize(("game", "seats"), DIGITAL_CASES, ids=[f"{g}-{s}" for g, s in DIGITAL_CASES])
def test_random_playouts_with_digital_components(game: str, seats: int) -> None:
    _play(game, seats, quick_seeds(game), mode_options(game)[1])


SOAK_CASES = [
    (game, seats, first)
    for game, seats in CASES
    for first in range(len(quick_seeds(game)), len(SEEDS), SOAK_BLOCK)
]


@pytest.mark.soak
@pytest.mark.timeout(1800)  # a block of long games on a busy machine can outlast the suite's 300 s default
@pytest.mark.parametrize(("game", "seats", "first"), SOAK_CASES, ids=[f"{g}-{s}-{f}" for g, s, f in SOAK_CASES])
def test_random_playouts_remaining_seeds(game: str, seats: int, first: int) -> None:
    for options in mode_options(game):
        _play(game, seats, SEEDS[first:first + SOAK_BLOCK], options)
