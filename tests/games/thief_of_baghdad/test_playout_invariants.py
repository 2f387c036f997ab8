"""Conservation laws and turn rules checked at every step of random games (2-4 seats)."""

from __future__ import annotations

import random

import pytest

from companion.games import CHANCE
from companion.games.playout import choose_action
from companion.games.thief_of_baghdad.board import GUARDS_PER_SEAT, WIN_CHESTS
from tests.games.thief_of_baghdad.helpers import RULES, palace_cards

SEEDS = (0,)
MAX_STEPS = 20_000
MAX_LEGAL = 6 * 4 + 4 * 5 * 3 * 2 + 6 * 5 * 4 + 2
"""Infiltrate (6 palaces x 4 payments) + own guards (<=4 origins x 5 x 3 payments x thief or not)
+ neutral guards (6 x 5 x 4 payments) + end_turn twice."""


def check_invariants(state) -> None:
    """Every component is somewhere, exactly once; thefts are never left pending."""
    view = RULES.view(state)
    seats = state.seats
    palaces, players = view["palaces"], view["players"]
    for seat in range(seats):
        assert players[seat]["supply"] + sum(p["thieves"][seat] for p in palaces) == 12
        placed = sum(p["guards"].count(seat) for p in palaces)
        assert placed + players[seat]["guards_unplaced"] == GUARDS_PER_SEAT[seats]
        assert players[seat]["hand_size"] == sum(state.hand(seat))
    assert all(len(p["guards"]) <= 4 for p in palaces)
    assert sum(p["guards"].count("neutral") for p in palaces) == 6
    assert sum(len(p["chests"]) for p in palaces) + sum(p["chests"] for p in players) == 24
    assert palace_cards(state) == 102
    assert view["dancers"] + sum(state.hand(s)[6] for s in range(seats)) == 8
    assert 0 <= view["thief_moves"] <= 3
    for p in palaces:
        if p["chests"]:
            assert max(p["thieves"]) < p["chests"][0], f"a theft was not taken at once in {p}"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_every_invariant_and_end(seats: int) -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        state = RULES.initial_state(seats)
        steps, acted, ended_with = 0, False, None
        while RULES.to_act(state):
            assert steps < MAX_STEPS, f"{seats} seats seed {seed} did not end"
            for seat in RULES.to_act(state) - {CHANCE}:
                assert len(RULES.legal_actions(state, seat)) <= MAX_LEGAL
            action = choose_action(RULES, state, rng)
            if action["type"] == "draw":
                # 3 cards after a turn with an action or a dancer taken, else 4 (fewer only when the cards run out).
                want = 3 if acted or ended_with else 4
                assert len(action["cards"]) == min(want, RULES.view(state)["deck"] + RULES.view(state)["discard"])
                assert action["target"] == RULES.view(state)["turn"]
            state = RULES.apply(state, action)
            steps += 1
            if action["type"] in ("infiltrate", "move_guard", "move_neutral"):
                acted = True
            elif action["type"] == "end_turn":
                ended_with = action["take_dancer"]
            if action["type"] in ("end_turn", "draw") and RULES.phase(state) == "turn":
                acted, ended_with = False, None  # the next seat's turn has begun
            check_invariants(state)
            if action["seat"] != CHANCE and action["type"] == "end_turn":
                assert RULES.to_act(state) in (frozenset({CHANCE}), frozenset({(action["seat"] + 1) % seats}))
        outcome = RULES.outcome(state)
        assert outcome is not None and outcome.reason == "chests"
        (winner,) = outcome.winners
        assert RULES.view(state)["players"][winner]["chests"] == WIN_CHESTS[seats]
