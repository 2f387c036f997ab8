"""legal_actions lists exactly one action per distinct choice that apply() accepts (checked by brute force)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any, Iterator

import pytest

from companion.games import CHANCE, Refusal
from companion.games.playout import choose_action
from companion.games.thief_of_baghdad.board import CARD_NAMES, COLORS
from tests.games.thief_of_baghdad.helpers import RULES

SAMPLE_STEPS = (40, 150, 400, 800, 1500)


def every_candidate(seat: int) -> Iterator[dict[str, Any]]:
    """Every action of the seat's vocabulary with up to three cards paid, in every combination."""
    payments = [list(c) for n in range(0, 4) for c in combinations_with_replacement(CARD_NAMES, n)]
    for palace in COLORS:
        yield {"type": "place_guard", "seat": seat, "palace": palace}
        for cards in payments:
            yield {"type": "infiltrate", "seat": seat, "palace": palace, "cards": cards}
    for origin in COLORS:
        for destination in COLORS:
            for cards in payments[:36]:  # up to two cards
                yield {"type": "move_neutral", "seat": seat, "from": origin, "to": destination, "cards": cards}
                for carry in (False, True):
                    yield {"type": "move_guard", "seat": seat, "from": origin, "to": destination, "cards": cards,
                           "with_thief": carry}
    for take in (False, True):
        yield {"type": "end_turn", "seat": seat, "take_dancer": take}


def key(action: dict[str, Any]) -> tuple:
    """An action up to the order of its cards."""
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in action.items()))


def sampled_states(seats: int) -> Iterator[Any]:
    rng = random.Random(seats * 31)
    state = RULES.initial_state(seats)
    step = 0
    while RULES.to_act(state) and step <= SAMPLE_STEPS[-1]:
        if step in SAMPLE_STEPS or RULES.phase(state) == "place":
            yield state
        state = RULES.apply(state, choose_action(RULES, state, rng))
        step += 1


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_listed_actions_are_exactly_the_accepted_ones(seats: int) -> None:
    checked = 0
    for state in sampled_states(seats):
        if RULES.to_act(state) == frozenset({CHANCE}):
            continue
        (seat,) = RULES.to_act(state)
        listed = [key(a) for a in RULES.legal_actions(state, seat)]
        assert len(listed) == len(set(listed)), "one representative per distinct choice"
        accepted = set()
        for candidate in every_candidate(seat):
            try:
                RULES.apply(state, candidate)
            except Refusal:
                continue
            accepted.add(key(candidate))
        assert set(listed) == accepted
        checked += 1
    assert checked >= 3
