"""Random playouts: chance sampled with its odds, every seat choosing uniformly among its legal actions."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.rules import Rules


@dataclass(frozen=True)
class Playout:
    """A finished random game: its setup, the actions taken, the final state and outcome."""

    seats: int
    options: Mapping[str, Any] | None
    actions: tuple[dict[str, Any], ...]
    state: Any
    outcome: Outcome | None


class PlayoutTooLong(RuntimeError):
    """A random game did not end within the step limit."""


def choose_action(rules: Rules, state: Any, rng: random.Random) -> dict[str, Any]:
    """The next action of a random game: chance's sample, or a random acting seat's random legal action."""
    acting = rules.to_act(state)
    if acting == frozenset({CHANCE}):
        return rules.sample_chance(state, rng)
    seat = rng.choice(sorted(acting))
    return rng.choice(rules.legal_actions(state, seat))


def random_playout(
    rules: Rules,
    seats: int,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 20_000,
) -> Playout:
    """Play one random game to its end."""
    state = rules.initial_state(seats, options)
    actions: list[dict[str, Any]] = []
    while rules.to_act(state):
        if len(actions) >= max_steps:
            raise PlayoutTooLong(f"{rules.name} with {seats} seats did not end in {max_steps} actions")
        action = choose_action(rules, state, rng)
        state = rules.apply(state, action)
        actions.append(action)
    return Playout(seats, options, tuple(actions), state, rules.outcome(state))
