"""Thefts, wins, draws and reshuffles on constructed states."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games import CHANCE, Refusal
from companion.games.thief_of_baghdad.chance import check_draw, sample_draw
from companion.games.thief_of_baghdad.state import bump
from tests.games.thief_of_baghdad.helpers import RULES, act, thieves, two_seat_game

GREEN = 2


def with_green_thieves(state, seat: int, count: int):
    return replace(state, thieves=bump(state.thieves, GREEN * state.seats + seat, count),
                   supply=bump(state.supply, seat, -count))


@pytest.mark.parametrize(("seats", "needed"), [(2, 6), (3, 5), (4, 4)])
def test_win_at_the_seat_count_threshold_at_once_without_draw(seats: int, needed: int) -> None:
    sizes = [6, 7, 8, 9][:seats]
    hands = [["green"] * 2 + ["red"] * (sizes[0] - 2)] + [[("white", "purple", "blue")[i]] * n for i, n in enumerate(sizes[1:])]
    state = RULES.apply(RULES.initial_state(seats), act("deal", CHANCE, hands=hands))
    state = RULES.apply(state, act("place_guard", 0, palace="green"))
    while RULES.phase(state) == "place":
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, next(a for a in RULES.legal_actions(state, seat) if a["palace"] != "green"))
    state = with_green_thieves(state, 0, 3)
    for won in (needed - 2, needed - 1):
        trial = replace(state, won=bump(state.won, 0, won))
        after = RULES.apply(trial, act("infiltrate", 0, palace="green", cards=["green"]))
        view = RULES.view(after)
        assert view["players"][0]["chests"] == won + 1
        assert view["palaces"][GREEN]["chests"] == [5, 6, 7]
        assert view["players"][0]["supply"] == 12
        if won + 1 == needed:
            assert RULES.outcome(after) is not None and RULES.outcome(after).winners == frozenset({0})
            assert RULES.outcome(after).reason == "chests"
            assert RULES.to_act(after) == frozenset() and view["phase"] == "over"
            assert view["log"][-1] == {"code": "win", "params": {"seat": 0, "chests": needed}}
        else:
            assert RULES.outcome(after) is None and RULES.to_act(after) == frozenset({0})


def test_theft_takes_the_top_chest_and_later_needs_five() -> None:
    state = with_green_thieves(two_seat_game(hand0=["green"] * 6), 0, 3)
    state = RULES.apply(state, act("infiltrate", 0, palace="green", cards=["green"]))
    assert thieves(state, "green") == [0, 0]
    state = with_green_thieves(state, 0, 3)
    state = RULES.apply(state, act("infiltrate", 0, palace="green", cards=["green"]))
    assert thieves(state, "green") == [4, 0], "the top chest is now 5"
    state = RULES.apply(state, act("move_guard", 0, **{"from": "green"}, to="yellow", cards=["green"]))
    assert thieves(state, "green") == [4, 0]


def test_a_palace_without_chests_can_still_be_entered() -> None:
    state = two_seat_game(hand0=["green"] * 6)
    state = replace(state, chests=bump(state.chests, GREEN, -4))
    state = with_green_thieves(state, 0, 6)
    state = RULES.apply(state, act("infiltrate", 0, palace="green", cards=["green"]))
    assert thieves(state, "green") == [7, 0]
    assert RULES.view(state)["palaces"][GREEN]["chests"] == []
    assert RULES.view(state)["players"][0]["chests"] == 0


def test_nothing_to_draw_passes_the_turn_and_a_short_pile_draws_what_is_left() -> None:
    state = two_seat_game()
    empty = replace(state, pile=bytes(6), discard=bytes(6))
    after = RULES.apply(empty, act("end_turn", 0))
    assert RULES.phase(after) == "turn" and RULES.to_act(after) == frozenset({1})
    assert RULES.view(after)["log"][-1]["params"]["draws"] == 0
    short = replace(state, pile=bytes([1, 0, 0, 0, 0, 0]), discard=bytes([0, 1, 0, 0, 0, 0]))
    after = RULES.apply(short, act("end_turn", 0))
    assert RULES.view(after)["draw_pending"] == 2
    with pytest.raises(Refusal) as err:
        RULES.apply(after, act("draw", CHANCE, cards=["blue", "blue"]))
    assert err.value.code == "card_not_in_pile"
    done = RULES.apply(after, act("draw", CHANCE, cards=["blue", "red"], target=0))
    assert RULES.view(done)["deck"] == 0 and RULES.view(done)["discard"] == 0


def test_check_draw_takes_the_whole_pile_before_the_reshuffle() -> None:
    pile, discard = bytes([1, 0, 0, 0, 0, 1]), bytes([0, 3, 2, 0, 0, 0])
    assert check_draw(pile, discard, bytes([1, 0, 0, 0, 0, 1])) == (bytes(6), discard, 0)
    assert check_draw(pile, discard, bytes([1, 1, 0, 0, 0, 1])) == (bytes([0, 2, 2, 0, 0, 0]), bytes(6), 5)
    for drawn in (bytes([0, 2, 0, 0, 0, 1]), bytes([1, 0, 0, 0, 0, 2]), bytes([2, 0, 0, 0, 0, 0])):
        with pytest.raises(Refusal) as err:
            check_draw(pile, discard, drawn)
        assert err.value.code == "card_not_in_pile"


def test_sampled_draws_follow_the_pile_then_the_discard() -> None:
    pile, discard = bytes([1, 0, 0, 0, 0, 0]), bytes([0, 0, 0, 0, 0, 5])
    for seed in range(20):
        cards = sample_draw(pile, discard, 3, random.Random(seed))
        assert sorted(cards) == ["red", "white", "white"]
    counts = {c: 0 for c in ("red", "blue")}
    rng = random.Random(1)
    for _ in range(2000):
        counts[sample_draw(bytes([3, 1, 0, 0, 0, 0]), bytes(6), 1, rng)[0]] += 1
    assert 1350 < counts["red"] < 1650, "a 3:1 pile draws red about three times in four"


def test_take_dancer_only_after_an_idle_turn_and_while_any_is_left() -> None:
    state = two_seat_game()
    acted = RULES.apply(state, act("infiltrate", 0, palace="green", cards=["green"]))
    with pytest.raises(Refusal) as err:
        RULES.apply(acted, act("end_turn", 0, take_dancer=True))
    assert err.value.code == "dancer_needs_idle_turn"
    with pytest.raises(Refusal) as err:
        RULES.apply(replace(state, dancers=0), act("end_turn", 0, take_dancer=True))
    assert err.value.code == "no_dancer_left"
    took = RULES.apply(state, act("end_turn", 0, take_dancer=True))
    assert RULES.view(took)["dancers"] == 7 and RULES.view(took, 0)["hand"][-1] == "dancer"
