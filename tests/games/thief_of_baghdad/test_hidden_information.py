"""Hands and the pile's make-up are hidden: public views never depend on them; a draw is shown to its drawer only."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import CHANCE
from tests.games.thief_of_baghdad.helpers import RULES, act, two_seat_game

STEPS = 1500


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_twin_games_differing_only_in_hidden_cards_look_the_same(seats: int) -> None:
    """Two games dealt and drawn differently, with the same public moves (taken from what both allow)."""
    rng_a, rng_b, rng_moves = random.Random(seats), random.Random(100 + seats), random.Random(7)
    a = b = RULES.initial_state(seats)
    hidden_differs = False
    for _ in range(STEPS):
        if not RULES.to_act(a):
            break
        if RULES.to_act(a) == frozenset({CHANCE}):
            a = RULES.apply(a, RULES.sample_chance(a, rng_a))
            b = RULES.apply(b, RULES.sample_chance(b, rng_b))
        else:
            (seat,) = RULES.to_act(a)
            both = {_key(x) for x in RULES.legal_actions(b, seat)}
            common = [x for x in RULES.legal_actions(a, seat) if _key(x) in both]
            action = rng_moves.choice(common)
            a, b = RULES.apply(a, action), RULES.apply(b, action)
        assert RULES.view(a) == RULES.view(b)
        hidden_differs = hidden_differs or any(RULES.view(a, s) != RULES.view(b, s) for s in range(seats))
    assert hidden_differs, "the twins must really differ in their hidden cards"
    assert a.hands != b.hands or a.pile != b.pile


def test_public_view_shows_counts_never_cards() -> None:
    state = two_seat_game()
    public = RULES.view(state)
    assert "hand" not in public and "pile" not in public
    assert [p["hand_size"] for p in public["players"]] == [6, 7]
    text = json.dumps(public)
    assert "dealt" not in text and "drew" not in text
    assert RULES.view(state, 0)["hand"] == ["red", "red", "red", "blue", "green", "yellow"]
    assert RULES.view(state, 1)["hand"] == ["blue", "blue", "green", "purple", "purple", "white", "white"]


def test_the_deal_and_a_draw_are_logged_to_their_seat_only() -> None:
    state = RULES.apply(RULES.initial_state(2), act("deal", CHANCE, hands=[["red"] * 6, ["blue"] * 7]))
    for seat in (0, 1):
        private = [e for e in RULES.view(state, seat)["log"] if e["code"] == "dealt"]
        assert private == [{"code": "dealt", "params": {"seat": seat, "cards": [["red", "blue"][seat]] * (6 + seat)}}]
    assert [e["code"] for e in RULES.view(state)["log"]] == ["deal"]
    assert RULES.view(state)["log"][0]["params"] == {"hand_sizes": [6, 7]}
    state = two_seat_game()
    state = RULES.apply(state, act("end_turn", 0))
    state = RULES.apply(state, act("draw", CHANCE, cards=["white", "white", "green", "red"]))
    drew = {"code": "drew", "params": {"seat": 0, "cards": ["white", "white", "green", "red"]}}
    assert drew in RULES.view(state, 0)["log"]
    assert drew not in RULES.view(state, 1)["log"] and drew not in RULES.view(state)["log"]
    assert {"code": "draw", "params": {"seat": 0, "count": 4}} in RULES.view(state, 1)["log"]
