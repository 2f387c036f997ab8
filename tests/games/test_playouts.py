"""Random playouts of every game x seat count x >= 100 seeds, through the one harness."""

from __future__ import annotations

import pytest

from companion.games import game_names, get_rules
from tests.games.harness import check_playout

SEEDS = range(100)

CASES = [
    (game, seats)
    for game in game_names()
    for seats in range(get_rules(game).min_seats, get_rules(game).max_seats + 1)
]


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_random_playouts(game: str, seats: int) -> None:
    rules = get_rules(game)
    for seed in SEEDS:
        # Every listed action is tried on a quarter of the games: the full check is quadratic in game length.
        check_playout(rules, seats, seed, try_every_legal=seed % 4 == 0)
