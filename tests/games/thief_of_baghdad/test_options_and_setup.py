"""Options, seat counts and the setup of Thief of Baghdad."""

from __future__ import annotations

import pytest

from companion.games import CHANCE, Refusal
from tests.games.thief_of_baghdad.helpers import RULES, act, two_seat_game


@pytest.mark.parametrize("bad", [0, 13, -1, True, "6", 6.5, None])
def test_first_hand_must_be_a_small_integer(bad: object) -> None:
    with pytest.raises(ValueError, match="first_hand"):
        RULES.initial_state(2, {"first_hand": bad})


@pytest.mark.parametrize(("seats", "guards", "sizes", "win"), [
    (2, 4, [6, 7], 6), (3, 3, [6, 7, 8], 5), (4, 2, [6, 7, 8, 9], 4),
])
def test_parameters_by_seat_count(seats: int, guards: int, sizes: list[int], win: int) -> None:
    state = RULES.initial_state(seats)
    view = RULES.view(state)
    assert [p["guards_unplaced"] for p in view["players"]] == [guards] * seats
    assert [p["supply"] for p in view["players"]] == [12] * seats
    assert view["chests_to_win"] == win
    assert all(p["guards"] == ["neutral"] and p["chests"] == [4, 5, 6, 7] for p in view["palaces"])
    hands = [["white"] * n for n in sizes]
    with pytest.raises(Refusal) as err:
        RULES.apply(state, act("deal", CHANCE, hands=[h + ["white"] for h in hands]))
    assert err.value.code in ("wrong_hand_size", "card_not_in_pile")
    dealt = RULES.apply(state, act("deal", CHANCE, hands=[["red"] * n for n in sizes[:1]] + [
        [("blue", "green", "yellow")[i]] * n for i, n in enumerate(sizes[1:])]))
    assert [p["hand_size"] for p in RULES.view(dealt)["players"]] == sizes
    assert RULES.view(dealt)["deck"] == 102 - sum(sizes)


def test_first_hand_changes_only_the_first_seat() -> None:
    state = RULES.initial_state(3, {"first_hand": 5})
    state = RULES.apply(state, act("deal", CHANCE, hands=[["red"] * 5, ["blue"] * 7, ["green"] * 8]))
    assert [p["hand_size"] for p in RULES.view(state)["players"]] == [5, 7, 8]


def test_sampled_deal_has_the_right_sizes_and_is_accepted() -> None:
    import random

    for seats in (2, 3, 4):
        state = RULES.initial_state(seats)
        deal = RULES.sample_chance(state, random.Random(seats))
        assert [len(h) for h in deal["hands"]] == [6, 7, 8, 9][:seats]
        assert "dancer" not in sum(deal["hands"], [])
        RULES.apply(state, deal)


def test_placement_goes_round_in_turn_order_then_seat_0_plays() -> None:
    state = RULES.apply(RULES.initial_state(3), act("deal", CHANCE, hands=[["red"] * 6, ["blue"] * 7, ["green"] * 8]))
    order = []
    while RULES.phase(state) == "place":
        (seat,) = RULES.to_act(state)
        order.append(seat)
        state = RULES.apply(state, RULES.legal_actions(state, seat)[0])
    assert order == [0, 1, 2] * 3
    assert RULES.phase(state) == "turn" and RULES.to_act(state) == frozenset({0})


def test_two_seat_setup_helper_matches_the_rules() -> None:
    view = RULES.view(two_seat_game())
    assert [p["guards"] for p in view["palaces"]] == [
        [0, 0, 1, "neutral"], [0, 1, "neutral"], [0, "neutral"], ["neutral"], [1, "neutral"], [1, "neutral"]]
