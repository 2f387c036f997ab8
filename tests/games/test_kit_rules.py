"""The kit behind `Rules`: it dispatches every action to its `ActionSpec` handler in the contract's order, marks
each refusal public or private as the game declares, and carries the publish caching; no game writes its own
dispatch or names the memo."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.errors import Refusal
from companion.games import game_names, get_rules
from companion.games.contract import CHANCE, IllegalAction
from companion.games.memo import Memo
from companion.games.playout import choose_action
from companion.games.rules import Rules
from companion.table.refusal import Refusal as TableRefusal

GAMES = game_names()
GAMES_DIR = Path(__file__).resolve().parents[2] / "companion" / "games"


def test_one_refusal_type() -> None:
    assert IllegalAction is Refusal is TableRefusal
    refusal = Refusal("term_limited", "no", {"seat": 2}, public=True)
    assert isinstance(refusal, ValueError) and refusal.public and refusal.params == {"seat": 2}
    assert Refusal("x", "y") == Refusal("x", "y", public=True) and not Refusal("x", "y").public


@pytest.mark.parametrize("game", GAMES)
def test_the_game_declares_and_the_kit_dispatches(game: str) -> None:
    rules = get_rules(game)
    own = type(rules).__dict__
    assert "apply" not in own and "views" not in own and "allowed" not in own, "the kit's, not the game's"
    assert not [name for name in own if name.startswith("_apply_")], "handlers live in the ActionSpecs"
    assert all(spec.handler is not None for spec in rules.actions.values())
    phases = {getattr(phase, "value", phase) for phase in rules.phase_actions}
    assert phases == set(rules.phases), "every phase says which action types it takes"
    assert set().union(*rules.phase_actions.values()) == set(rules.actions), "every action type has a phase"


def test_no_game_names_the_memo() -> None:
    named = [path.relative_to(GAMES_DIR) for path in GAMES_DIR.glob("*/*.py")
             if "games.memo" in path.read_text() or "Memo" in path.read_text()]
    assert not named, f"the kit carries the publish caching: {named}"


def _wrong_fields(action: dict, seats: int) -> list[dict]:
    """Variants of a legal action with one int field set to every seat (some the game's own checks refuse)."""
    out = []
    for name, value in action.items():
        if name not in ("type", "seat") and type(value) is int:
            out += [{**action, name: seat} for seat in range(seats)]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_says_whether_its_code_is_public(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(5)
    refused: dict[str, bool] = {}
    for _ in range(3):
        seats = rng.randint(rules.min_seats, rules.max_seats)
        state = rules.initial_state(seats)
        for _ in range(150):
            acting = rules.to_act(state)
            if not acting:
                break
            for seat in range(seats):
                for action in rules.legal_actions(state, seat)[:3]:
                    others = [{**action, "seat": other} for other in range(seats) if other not in acting]
                    for probe in others + _wrong_fields(action, seats) + [{**action, "type": "no_such"}]:
                        try:
                            rules.apply(state, probe)
                        except Refusal as refusal:
                            assert refusal.public == (refusal.code in rules.public_codes), (probe, refusal.code)
                            refused[refusal.code] = refusal.public
            state = rules.apply(state, choose_action(rules, state, rng))
    assert refused.get("malformed") is True and refused.get("not_your_turn", True) is True
    assert not acting or CHANCE in acting or refused


@pytest.mark.parametrize("game", GAMES)
def test_the_kit_reuses_a_publish_of_the_same_state(game: str) -> None:
    rules: Rules = get_rules(game)
    memo = Memo()
    state = rules.initial_state(rules.min_seats)
    rng = random.Random(3)
    for _ in range(40):
        if not rules.to_act(state):
            break
        state = rules.apply(state, choose_action(rules, state, rng))
        views = rules.views(state, memo)
        assert rules.views(state, memo) is views, "the same state again: the very same views"
        assert views == rules.views(state), "what the kit reuses is what a fresh build gives"
