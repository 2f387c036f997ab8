"""Shared helpers of the bot tests: seeded games, every seat count kept small."""

from __future__ import annotations

import random
from typing import Any, Iterator

from companion.bots import Player, get_bot, get_player, play_match
from companion.bots.match import Match
from companion.games import get_rules
from companion.games.registry import game_names

SEAT_COUNTS = {"secret_hitler": (5, 7, 10), "gangsters_dilemma": (3, 5, 7), "boss_wallet": (2, 4, 7),
               "thief_of_baghdad": (2, 3, 4)}
"""The seat counts each game's bot tests play (the extremes and a middle); a game not listed plays its own
minimum and maximum."""


def seat_counts(game: str) -> tuple[int, ...]:
    """The seat counts the bot tests play for `game`."""
    rules = get_rules(game)
    return SEAT_COUNTS.get(game, (rules.min_seats, rules.max_seats))


def every_game_and_seats() -> Iterator[tuple[str, int]]:
    """(game, seats) for every registered game."""
    for game in game_names():
        for seats in seat_counts(game):
            yield game, seats


def bot_against(game: str, seats: int, bot_seat: int, others: str = "random") -> list[Player]:
    """The bot in one seat, `others` everywhere else."""
    bot, other = get_bot(game), get_player(game, others)
    return [bot if seat == bot_seat else other for seat in range(seats)]


def match(game: str, players: list[Player], seed: int, record: bool = True) -> tuple[Any, Match]:
    """One seeded game (its rules and the finished match)."""
    rules = get_rules(game)
    return rules, play_match(rules, players, random.Random(seed), record=record)
