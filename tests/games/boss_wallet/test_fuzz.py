"""Bad input from anywhere: mutated actions are refused with a listed code and change nothing."""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.games import CHANCE, Refusal
from companion.games.boss_wallet import RULES
from companion.games.playout import choose_action

JUNK: list[Any] = [True, None, -1, 99, "x", "", 1.5, [], {}, ["red250a"], [1, 2], "red250a", "extra_police"]


def mutations(action: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Variants of a valid action: a field replaced by junk, dropped, or the seat moved."""
    out = []
    for key in action:
        if key == "type":
            continue
        bad = dict(action)
        bad[key] = rng.choice(JUNK)
        out.append(bad)
        dropped = dict(action)
        del dropped[key]
        out.append(dropped)
    out.append({**action, "type": rng.choice(list(RULES.actions))})
    return out


def test_mutated_actions_are_refused_cleanly() -> None:
    codes = set(RULES.codes)
    for seats, seed in ((2, 1), (4, 2), (7, 3)):
        rng = random.Random(seed)
        state = RULES.initial_state(seats, {"specials": {"s": {"name": "S", "timing": "turn_start"}}})
        steps = 0
        while RULES.to_act(state) and steps < 400:
            action = choose_action(RULES, state, rng)
            snapshot = copy.deepcopy(state)
            for bad in mutations(action, rng):
                try:
                    RULES.apply(state, bad)
                except Refusal as exc:
                    assert exc.code in codes, (bad, exc.code)
            assert state == snapshot
            state = RULES.apply(state, action)
            steps += 1
        assert RULES.outcome(state) is not None
        assert RULES.legal_actions(state, CHANCE) == []
