"""Engine speed figures per registered game: median apply, replay of a 300-action journal, random games per second."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from companion.games.playout import choose_action, random_playout
from companion.games.registry import game_names, get_rules
from companion.games.rules import Rules

JOURNAL_ACTIONS = 300


def _journal(rules: Rules, seats: int, rng: random.Random, length: int) -> list[dict[str, Any]]:
    """`length` actions of random play (a new game starts whenever one ends); one list per game played."""
    actions: list[dict[str, Any]] = []
    state = rules.initial_state(seats)
    while len(actions) < length and rules.to_act(state):
        action = choose_action(rules, state, rng)
        state = rules.apply(state, action)
        actions.append(action)
    return actions


def _journals(rules: Rules, seats: int, rng: random.Random, total: int) -> list[list[dict[str, Any]]]:
    """Random games whose actions add up to `total` (the last one cut short)."""
    out: list[list[dict[str, Any]]] = []
    left = total
    while left > 0:
        actions = _journal(rules, seats, rng, left)
        out.append(actions)
        left -= len(actions)
    return out


def _seats(rules: Rules) -> int:
    return min(rules.max_seats, max(rules.min_seats, 5))


def apply_us(rules: Rules, rng: random.Random, samples: int = 2000) -> float:
    """Median microseconds of one `apply` over random play."""
    seats = _seats(rules)
    times: list[float] = []
    while len(times) < samples:
        state = rules.initial_state(seats)
        while rules.to_act(state) and len(times) < samples:
            action = choose_action(rules, state, rng)
            t0 = time.perf_counter()
            state = rules.apply(state, action)
            times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1e6, 2)


def replay_ms(rules: Rules, rng: random.Random, repeats: int = 5) -> float:
    """Median milliseconds to rebuild the states of a 300-action journal (several games if they end sooner)."""
    seats = _seats(rules)
    journals = _journals(rules, seats, rng, JOURNAL_ACTIONS)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for actions in journals:
            state = rules.initial_state(seats)
            for action in actions:
                state = rules.apply(state, action)
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 2)


def games_per_s(rules: Rules, rng: random.Random, budget_s: float = 1.0) -> float:
    """Random games (chance sampled, seats choosing uniformly) finished per second."""
    seats = _seats(rules)
    games, t0 = 0, time.perf_counter()
    while True:
        random_playout(rules, seats, rng)
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= budget_s and games >= 3:
            return round(games / elapsed, 2)


def engine_figures(seed: int = 1, budget_s: float = 1.0) -> dict[str, dict[str, float]]:
    """apply_us, replay_ms and games_per_s, each {game: number}, over every registered game."""
    out: dict[str, dict[str, float]] = {"apply_us": {}, "replay_ms": {}, "games_per_s": {}}
    for name in game_names():
        rules = get_rules(name)
        out["apply_us"][name] = apply_us(rules, random.Random(seed))
        out["replay_ms"][name] = replay_ms(rules, random.Random(seed))
        out["games_per_s"][name] = games_per_s(rules, random.Random(seed), budget_s)
    return out
