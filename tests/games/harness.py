"""The one random-simulation harness every engine runs through (docs/ARCHITECTURE.md "Tests" item 2)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Mapping

from companion.games import CHANCE, Refusal, Rules
from companion.games.binding import get_binding
from companion.games.contract import Components
from companion.games.playout import choose_action
from companion.games.replay import replay_actions


def mode_options(game: str) -> list[dict[str, Any] | None]:
    """The engine options `game` is played with in each mode its engine tells apart: the defaults (None: what a
    physical table plays, its enrolled cards aside) and, where the binding adds options for digital components
    (Boss's Wallet's known hands), a digital table's."""
    digital = get_binding(game).table_options({}, (), Components.DIGITAL)
    return [None, digital] if digital else [None]


def check_step_contract(rules: Rules, state: Any) -> None:
    """Contract facts about one state: to_act shape, legal lists, views JSON-able."""
    acting = rules.to_act(state)
    assert isinstance(acting, frozenset)
    assert acting == frozenset({CHANCE}) or CHANCE not in acting, "chance never acts beside seats"
    seats = rules.seat_count(state)
    assert rules.legal_actions(state, CHANCE) == []
    for seat in range(seats):
        if seat not in acting:
            assert rules.legal_actions(state, seat) == []
        elif acting != frozenset({CHANCE}):
            assert rules.legal_actions(state, seat), f"seat {seat} is asked but has nothing to do"
    json.dumps(rules.view(state, None))
    for seat in range(seats):
        json.dumps(rules.view(state, seat))


def check_playout(
    rules: Rules,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 20_000,
    try_every_legal: bool = True,
) -> list[dict[str, Any]]:
    """Play one random game asserting the contract at every step; return its actions."""
    rng = random.Random(seed)
    state = rules.initial_state(seats, options)
    actions: list[dict[str, Any]] = []
    while rules.to_act(state):
        assert len(actions) < max_steps, f"{rules.name}/{seats}/{seed} did not end"
        check_step_contract(rules, state)
        if try_every_legal:
            for seat in rules.to_act(state) - {CHANCE}:
                for legal in rules.legal_actions(state, seat):
                    json.dumps(legal)
                    try:
                        rules.apply(state, legal)
                    except Refusal as exc:  # pragma: no cover - the assertion names it
                        raise AssertionError(f"listed action {legal} refused: {exc}") from exc
        action = choose_action(rules, state, rng)
        snapshot = copy.deepcopy(state)
        after = rules.apply(state, action)
        assert state == snapshot, f"apply({action}) mutated its input state"
        state = after
        actions.append(action)
    assert rules.outcome(state) is not None, "a game with nobody to act must have an outcome"
    assert rules.legal_actions(state, 0) == []
    try:
        rules.apply(state, actions[-1])
    except Refusal as exc:
        assert exc.code in ("game_over", "malformed")
    else:  # pragma: no cover
        raise AssertionError("an action was accepted after the game ended")
    replayed = replay_actions(rules, seats, options, actions)
    assert replayed == state, "replaying the actions must rebuild the same state"
    assert rules.view(replayed, None) == rules.view(state, None)
    return actions


def assert_same_public_views(
    rules: Rules, seats: int, options: Any, actions_a: list[dict], actions_b: list[dict]
) -> None:
    """Two games differing only in hidden facts show equal public views after every step."""
    assert len(actions_a) == len(actions_b)
    a = rules.initial_state(seats, options)
    b = rules.initial_state(seats, options)
    for step, (x, y) in enumerate(zip(actions_a, actions_b)):
        a, b = rules.apply(a, x), rules.apply(b, y)
        assert rules.view(a, None) == rules.view(b, None), f"public views differ after step {step}: {x} vs {y}"
