"""Finished games played through a real table, for the replay, history and reveal tests."""

from __future__ import annotations

import random
from typing import Any

from companion.games import get_rules
from companion.games.playout import choose_action
from companion.table.runtime import Runtime
from tests.table.helpers import host_call

GAMES = (("secret_hitler", 5), ("gangsters_dilemma", 4), ("thief_of_baghdad", 2), ("boss_wallet", 3))
"""A game and a seat count for each kind of finished game the tests keep."""


def start_game(runtime: Runtime, game: str, seats: int) -> int:
    """A new digital game (replacing a running one); returns its id."""
    started = host_call(runtime.loop, "new_game", game=game, seats=seats, components="digital", replace=True)
    assert isinstance(started, dict) and started.get("game_id"), started
    runtime.loop.wait_idle()
    return int(started["game_id"])


def play_some(runtime: Runtime, rng: random.Random, count: int) -> None:
    """Play `count` random actions of the running game (fewer if it ends)."""
    rules = runtime.loop.session.rules
    for _ in range(count):
        state = runtime.loop.session.state
        if not rules.to_act(state):
            return
        result = host_call(runtime.loop, "submit", seat=None, action=choose_action(rules, state, rng), source="test")
        assert isinstance(result, dict), result


def play_game(runtime: Runtime, game: str, seats: int, seed: int) -> dict[str, Any]:
    """Start a game and play it to its end with random legal actions; returns {id, outcome, actions}."""
    game_id = start_game(runtime, game, seats)
    play_some(runtime, random.Random(seed), 100_000)
    session = runtime.loop.session
    outcome = get_rules(game).outcome(session.state)
    assert outcome is not None
    return {"id": game_id, "outcome": {"winners": sorted(outcome.winners), "reason": outcome.reason},
            "actions": len(session.actions)}
