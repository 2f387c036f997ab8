"""Payments: exact count, colours per slot with dancers wild, only cards held; the listed options are exactly
the payments the checker accepts."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from companion.games import Refusal
from companion.games.thief_of_baghdad.board import CARD_NAMES, PALACES
from companion.games.thief_of_baghdad.payments import (
    affordable, card_counts, check_payment, infiltrate_slots, move_guard_slots, move_neutral_slots,
    payment_options,
)

RED, BLUE, GREEN = 0, 1, 2
FULL = bytes([3] * 7)
"""A hand holding three of every card, dancers included."""


def code(hand: bytes, cards: list[str], slots: tuple) -> str | None:
    try:
        check_payment(hand, cards, slots)
    except Refusal as exc:
        return exc.code
    return None


def test_each_wrong_payment_has_its_own_code() -> None:
    slots = infiltrate_slots(RED, 2)
    hand = bytes([1, 1, 0, 0, 0, 0, 0])
    assert code(FULL, ["red"], slots) == "too_few_cards"
    assert code(FULL, ["red"] * 3, slots) == "too_many_cards"
    assert code(FULL, ["red", "blue"], slots) == "wrong_colour"
    assert code(hand, ["red", "dancer"], slots) == "dancer_not_held"
    assert code(hand, ["red", "red"], slots) == "card_not_in_hand"
    assert code(FULL, ["dancer", "red"], slots) is None


def test_checks_run_count_then_colour_then_hand() -> None:
    empty = bytes(7)
    slots = move_neutral_slots(RED, BLUE)
    assert code(empty, ["green"], slots) == "too_few_cards"
    assert code(empty, ["green", "green"], slots) == "wrong_colour"
    assert code(empty, ["red", "dancer"], slots) == "dancer_not_held"
    assert code(empty, ["red", "blue"], slots) == "card_not_in_hand"


def test_move_guard_takes_origin_or_destination_colour() -> None:
    slots = move_guard_slots(RED, BLUE)
    assert code(FULL, ["red"], slots) is None
    assert code(FULL, ["blue"], slots) is None
    assert code(FULL, ["dancer"], slots) is None
    assert code(FULL, ["green"], slots) == "wrong_colour"


def test_move_neutral_needs_one_of_each_colour() -> None:
    slots = move_neutral_slots(RED, BLUE)
    assert code(FULL, ["blue", "red"], slots) is None
    assert code(FULL, ["red", "red"], slots) == "wrong_colour"
    assert code(FULL, ["blue", "blue"], slots) == "wrong_colour"
    assert code(FULL, ["dancer", "dancer"], slots) is None


def test_paid_counts() -> None:
    assert check_payment(FULL, ["red", "dancer"], infiltrate_slots(RED, 2)) == (1, 0, 0, 0, 0, 0, 1)


SLOT_CASES = [infiltrate_slots(p, k) for p in (RED, GREEN) for k in (1, 2, 3)] + [
    move_guard_slots(RED, BLUE), move_guard_slots(GREEN, RED), move_neutral_slots(RED, BLUE),
    move_neutral_slots(BLUE, GREEN),
]
HANDS = [FULL, bytes(7), bytes([1, 1, 0, 0, 0, 0, 1]), bytes([2, 0, 1, 0, 0, 0, 0]), bytes([0, 0, 0, 0, 0, 0, 2]),
         bytes([3, 1, 1, 0, 0, 0, 1])]


@pytest.mark.parametrize("slots", SLOT_CASES)
@pytest.mark.parametrize("hand", HANDS)
def test_listed_options_are_exactly_the_accepted_payments(slots: tuple, hand: bytes) -> None:
    """Brute force over every multiset of cards of the right size: accepted <=> listed (one per multiset)."""
    accepted = {
        combo for combo in combinations_with_replacement(range(len(CARD_NAMES)), len(slots))
        if code(hand, [CARD_NAMES[i] for i in combo], slots) is None
    }
    listed = [tuple(sorted(CARD_NAMES.index(c) for c in cards)) for cards in affordable(payment_options(slots), hand)]
    assert len(listed) == len(set(listed)), "one representative per multiset"
    assert set(listed) == accepted


def test_option_counts() -> None:
    assert len(payment_options(infiltrate_slots(RED, 3))) == 4
    assert len(payment_options(move_guard_slots(RED, BLUE))) == 3
    assert len(payment_options(move_neutral_slots(RED, BLUE))) == 4
    assert card_counts([0, 0, 6]) == (2, 0, 0, 0, 0, 0, 1)
    assert PALACES == 6
