"""Options: every bad value raises ValueError naming its option; the sample deck is labelled; player-count marks."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.boss_wallet import RULES
from companion.games.boss_wallet.cards import SAMPLE_CARDS, Kind


def small_deck(play_cards: int, **extra: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A custom catalogue of `play_cards` red 10-CU bills plus given entries."""
    cards: dict[str, dict[str, Any]] = {f"b{i}": {"type": "bill", "value": 10, "currency": "red"}
                                        for i in range(play_cards)}
    cards.update(extra)
    return cards


BAD: list[tuple[str, Any]] = [
    ("cards", []),
    ("cards", {}),
    ("cards", {"x": {"type": "coin"}}),
    ("cards", small_deck(10, x={"type": "bill", "value": 0, "currency": "red"})),
    ("cards", small_deck(10, x={"type": "bill", "value": True, "currency": "red"})),
    ("cards", small_deck(10, x={"type": "bill", "value": 5})),
    ("cards", small_deck(10, x={"type": "id", "person": "king"})),
    ("cards", small_deck(10, x={"type": "id", "person": "police", "extra": "yes"})),
    ("cards", small_deck(10, x={"type": "badge", "min_seats": 8})),
    ("cards", small_deck(10, x={"type": "badge", "colour": "red"})),
    ("cards", small_deck(9)),
    ("specials", []),
    ("specials", {"s": {"name": "S", "timing": "whenever"}}),
    ("specials", {"s": {"name": "", "timing": "round_end"}}),
    ("specials", {"s": {"name": "S", "timing": "round_end", "replaces_action": 1}}),
    ("specials", {"red10a": {"name": "S", "timing": "round_end"}}),
    ("chips", {"1": 20, "2": 10, "3": 6}),
    ("chips", {"1": 20, "2": 10, "4": 7}),
    ("chips", {"1": 38, "2": -1}),
    ("chips", {"1": 1, "2": 29, "3": 7}),
    ("chips", [20, 10, 7]),
    ("rank_guilty", "yes"),
    ("rank_guilty", None),
    ("credit_card_limit", -1),
    ("credit_card_limit", True),
    ("balanced_deck", 1),
]


@pytest.mark.parametrize(("option", "value"), BAD, ids=[f"{o}-{i}" for i, (o, _) in enumerate(BAD)])
def test_bad_option_values_name_the_option(option: str, value: Any) -> None:
    with pytest.raises(ValueError, match=option):
        RULES.initial_state(2, {option: value})


def test_defaults_use_the_labelled_sample_deck() -> None:
    state = RULES.initial_state(7)
    view = RULES.view(state)
    assert view["sample_deck"] is True
    assert view["chip_pool"] == 37 - 7
    assert [p["chips"] for p in view["players"]] == [1] * 7
    assert RULES.view(state, 3)["chip_values"] == [1]


def test_custom_cards_are_not_labelled_sample() -> None:
    state = RULES.initial_state(2, {"cards": small_deck(10)})
    assert RULES.view(state)["sample_deck"] is False
    assert state.cfg.payment is None  # ten 10-CU bills never reach 300 CU
    state = RULES.initial_state(2, {"cards": small_deck(40)})
    assert len(state.cfg.payment) == 30


def test_sample_catalogue_shape() -> None:
    play = [c for c in SAMPLE_CARDS if not c.extra]
    extra = [c for c in SAMPLE_CARDS if c.extra]
    assert len(play) == 80 and len(extra) == 5
    assert len({c.id for c in SAMPLE_CARDS}) == len(SAMPLE_CARDS)
    assert {c.currency for c in play if c.kind is Kind.BILL} == {"red", "green", "blue", "yellow"}
    assert {c.person for c in extra} == {"john_smith", "police", "model", "millionaire", "secret_agent"}
    assert all(2 <= c.min_seats <= 7 for c in SAMPLE_CARDS)


@pytest.mark.parametrize("seats", range(2, 8))
def test_player_count_marks(seats: int) -> None:
    play = [c for c in SAMPLE_CARDS if not c.extra]
    plain = RULES.initial_state(seats).cfg.in_use
    balanced = RULES.initial_state(seats, {"balanced_deck": True}).cfg.in_use
    assert set(balanced) == {c.id for c in play if c.min_seats <= seats}
    if seats == 2:
        assert set(plain) == {c.id for c in play if c.min_seats == 2}
    else:
        assert len(plain) == 80
    assert len(balanced) >= 5 * seats + 10  # the deal and a wallet to draw from
    for person in ("john_smith", "police", "model", "millionaire", "secret_agent"):
        assert any(state_card.person == person for state_card in play
                   if state_card.id in balanced)


def test_enrolled_cards_round_trip_through_entries() -> None:
    cards = {c.id: c.entry() for c in SAMPLE_CARDS}
    state = RULES.initial_state(4, {"cards": cards})
    assert tuple(state.cfg.cards.values()) == SAMPLE_CARDS
    assert RULES.view(state)["sample_deck"] is False
