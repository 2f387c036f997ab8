"""Shared helpers of the bot tests: seeded games, every seat count kept small."""

from __future__ import annotations

import random
from typing import Any, Iterator

from companion.bots import Player, get_bot, get_player, play_match
from companion.bots.match import Match
from companion.games import get_rules
from companion.games.registry import game_names, get_game

def seat_counts(game: str) -> tuple[int, ...]:
    """The seat counts the bot tests play for `game`: the extremes and its declared demo count."""
    declared = get_game(game)
    return tuple(sorted({declared.rules.min_seats, declared.demo_seats, declared.rules.max_seats}))


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
