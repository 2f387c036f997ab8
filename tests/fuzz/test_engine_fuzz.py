"""Random JSON actions into every registered engine at states reached by random play: `apply` either accepts
(a new state) or raises Refusal with a known code; never another exception; its input never changes."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import Refusal
from companion.games.playout import choose_action
from companion.games.registry import game_names, get_rules
from companion.games.rules import Rules

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
SMALL_INT = st.integers(-3, 12)


def _states(rules: Rules, count: int = 6) -> list[Any]:
    """States spread over a few random games (start, middle, near the end, over)."""
    rng = random.Random(rules.name)
    seats = rules.min_seats + (rules.max_seats - rules.min_seats) // 2
    out = []
    for _ in range(1):
        state = rules.initial_state(seats)
        trail = [state]
        while rules.to_act(state) and len(trail) < 600:
            state = rules.apply(state, choose_action(rules, state, rng))
            trail.append(state)
        out += [trail[0], trail[1], trail[len(trail) // 3], trail[2 * len(trail) // 3], trail[-2], trail[-1]]
    return out


def _field_names(rules: Rules) -> list[str]:
    names = {"seat", "type", "target"}
    for spec in rules.actions.values():
        names.update(spec.fields)
    return sorted(names)


@st.composite
def actions(draw: st.DrawFn, rules: Rules, state: Any) -> Any:
    """Mostly near-misses: a legal action with one field replaced or dropped, or a made-up action of a real type."""
    legal = [a for s in sorted(rules.to_act(state)) for a in rules.legal_actions(state, s)] if rules.to_act(state) else []
    fields = _field_names(rules)
    mode = draw(st.integers(0, 3))
    if mode == 0 and legal:
        action = dict(draw(st.sampled_from(legal)))
        key = draw(st.sampled_from(sorted(action) + fields))
        if draw(st.booleans()):
            action.pop(key, None)
        else:
            action[key] = draw(JSON | SMALL_INT)
        return action
    if mode == 1:
        action = {"type": draw(st.sampled_from(sorted(rules.actions))), "seat": draw(SMALL_INT)}
        for key in draw(st.lists(st.sampled_from(fields), max_size=4)):
            action[key] = draw(JSON | SMALL_INT | st.lists(SMALL_INT | st.text(max_size=3), max_size=5))
        return action
    if mode == 2:
        return draw(st.dictionaries(st.sampled_from(fields) | st.text(max_size=6), JSON | SMALL_INT, max_size=5))
    return draw(JSON)


@pytest.mark.parametrize("examples", [40, pytest.param(1500, marks=pytest.mark.soak)])
@pytest.mark.parametrize("game", game_names())
def test_random_actions_raise_only_illegal_action_and_never_change_the_state(game: str, examples: int) -> None:
    rules = get_rules(game)
    states = _states(rules)
    codes = set(rules.codes)

    @settings(max_examples=examples, deadline=None, derandomize=examples < 100,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        state = data.draw(st.sampled_from(states))
        action = data.draw(actions(rules, state))
        before = copy.deepcopy(state)
        sent = copy.deepcopy(action)
        try:
            rules.apply(state, action)
        except Refusal as exc:
            assert exc.code in codes, f"unlisted code {exc.code!r} for {action!r}"
        assert state == before, f"apply changed its input state for {action!r}"
        assert action == sent or action != action, f"apply changed the action it was given: {action!r}"

    check()
