"""Small seeded strength checks: in a few hundred games each, the bots beat the baselines by a margin outside
the 95% intervals (the full table, 10,000 games a line, is `companion bench --only strength`)."""

from __future__ import annotations

import pytest

from companion.bench.strength import Setup, play_chunk
from companion.bots.stats import Rate


def rate(setup: Setup, games: int) -> Rate:
    _, wins, played, _, unfinished = play_chunk((setup, 7, 0, games))
    assert unfinished == 0
    return Rate(wins, played)


def test_bot_liberals_beat_random_and_trust_liberals() -> None:
    for opponents in ("random", "trust"):
        bots = rate(Setup("secret_hitler", 7, teams=("bot", opponents)), 150)
        baseline = rate(Setup("secret_hitler", 7, teams=(opponents, opponents)), 150)
        assert bots.beats(baseline), (opponents, bots.text(), baseline.text())


def test_bot_fascists_beat_random_fascists() -> None:
    liberal_wins = rate(Setup("secret_hitler", 10, teams=("random", "bot")), 200)
    baseline = rate(Setup("secret_hitler", 10, teams=("random", "random")), 200)
    bots, random_fascists = (Rate(r.games - r.wins, r.games) for r in (liberal_wins, baseline))
    assert bots.beats(random_fascists), (bots.text(), random_fascists.text())


@pytest.mark.parametrize(("game", "seats", "games"), [("gangsters_dilemma", 5, 100), ("boss_wallet", 4, 100),
                                                      ("thief_of_baghdad", 3, 12)])
def test_a_bot_beats_a_random_seat(game: str, seats: int, games: int) -> None:
    bot = rate(Setup(game, seats, seat_kind="bot"), games)
    if game == "thief_of_baghdad":  # exactly one winner a game: a random seat wins 1/seats of them
        assert bot.interval[0] > 1 / seats, bot.text()
    else:
        base = rate(Setup(game, seats, seat_kind="random"), games)
        assert bot.beats(base), (bot.text(), base.text())
