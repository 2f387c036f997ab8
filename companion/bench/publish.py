"""Publish-cycle cost per game: the public view, table info, LED scene and every seat's prompt, as the table
builds them after each accepted action, at the game's largest seat count, in CPU microseconds."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable

from companion.games.binding import get_binding
from companion.games.playout import choose_action
from companion.games.registry import game_names, get_rules
from companion.table.prompts import prompt

STATES = 300
"""States sampled per game (random play, a new game whenever one ends)."""


def sample_states(game: str, seats: int, rng: random.Random, count: int = STATES) -> list[Any]:
    """`count` states met in random play of `game` at `seats` seats."""
    rules = get_rules(game)
    states: list[Any] = []
    state = rules.initial_state(seats)
    while len(states) < count:
        if not rules.to_act(state):
            state = rules.initial_state(seats)
        state = rules.apply(state, choose_action(rules, state, rng))
        states.append(state)
    return states


def publish_cycle(game: str, seats: int, mode: str = "digital") -> Callable[[Any], list[dict[str, Any]]]:
    """One publish of a state as the table does it: the views (public once, each seat's part of it), table
    info, scene, then each seat's legal actions, table choices and prompt message; returns the prompts."""
    rules, binding = get_rules(game), get_binding(game)
    names = [f"Seat {i + 1}" for i in range(seats)]

    def cycle(state: Any) -> list[dict[str, Any]]:
        public, parts = rules.views(state)
        binding.info(public, seats)
        binding.scene(public, seats)
        prompts = []
        for seat in range(seats):
            legal = rules.legal_actions(state, seat) + binding.choices(state, seat, mode)
            prompts.append(prompt("g.1", legal, names, parts[seat]))
        return prompts

    return cycle


def publish_us(game: str, seed: int = 1, repeats: int = 7) -> float:
    """CPU microseconds of one publish cycle at the game's largest seat count: per sampled state the least of
    `repeats` runs (a shared machine only ever adds time), then the median over the states."""
    seats = get_rules(game).max_seats
    states = sample_states(game, seats, random.Random(seed))
    cycle = publish_cycle(game, seats)
    best = [float("inf")] * len(states)
    for _ in range(repeats):
        for i, state in enumerate(states):
            t0 = time.thread_time_ns()
            cycle(state)
            best[i] = min(best[i], time.thread_time_ns() - t0)
    return round(statistics.median(best) / 1000, 1)


def publish_figures(seed: int = 1) -> dict[str, dict[str, float]]:
    """`publish_us`: {game: CPU microseconds of one whole publish cycle at its largest seat count}."""
    return {"publish_us": {name: publish_us(name, seed) for name in game_names()}}
