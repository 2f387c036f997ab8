"""Options: defaults, validation (ValueError naming the option) and the labelled sample deck."""

from __future__ import annotations

import pytest

from companion.games.gangsters_dilemma.options import sample_deck
from companion.games.gangsters_dilemma.board import CHARACTERS
from tests.games.gangsters_dilemma.helpers import HARD, RULES, play, setup_action


def test_defaults_use_the_labelled_sample_deck() -> None:
    deck = sample_deck()
    assert 17 <= len(deck) <= 19
    assert {card.vp for card in deck} == {4, 7, 10}
    assert all(card.id.startswith("sample-") for card in deck)
    state = RULES.initial_state(5)
    view = RULES.view(state)
    assert view["sample_deck"] is True and view["market_price"] == 1 and view["lone_gangster_may_bribe"] is False
    assert view["deck"] == 0 and view["phase"] == "setup"
    ids = [card.id for card in deck]
    state = play(5, None, [setup_action(0, list(CHARACTERS[:5]), ids[:3])])
    view = RULES.view(state)
    assert view["deck"] == len(deck) - 3
    assert all(card["sample"] is True for card in view["demand_cards"].values())
    assert any(entry["params"].get("sample_deck") is True for entry in view["log"])


def test_an_enrolled_deck_is_not_a_sample() -> None:
    state = play(3, {"demands": HARD, "characters": []}, [setup_action(1, [None] * 3, ["h1", "h2", "h3"])])
    view = RULES.view(state)
    assert view["sample_deck"] is False
    assert view["demand_cards"]["h1"] == {"vp": 4, "needs": {"crate": 6, "art": 0, "jewel": 0, "liquor": 0}}


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"demands": "nope"}, "demands"),
        ({"demands": [{"id": "a", "vp": 4, "needs": {"crate": 1}}] * 3}, "demands"),
        ({"demands": HARD[:2]}, "demands"),
        ({"demands": HARD[:4]}, "demands"),  # the elite can be dealt: 6 cards needed
        ({"demands": [{"id": "a", "vp": 0, "needs": {"crate": 1}}] + HARD}, "demands"),
        ({"demands": [{"id": "a", "vp": 4, "needs": {"gold": 1}}] + HARD}, "demands"),
        ({"demands": [{"id": "a", "vp": 4, "needs": {}}] + HARD}, "demands"),
        ({"demands": [{"id": "a", "vp": True, "needs": {"crate": 1}}] + HARD}, "demands"),
        ({"demands": [{"id": "a", "vp": 4, "needs": {"crate": 1}, "colour": "red"}] + HARD}, "demands"),
        ({"characters": ["hitman", "wizard", "lady"]}, "characters"),
        ({"characters": ["hitman", "hitman", "lady"]}, "characters"),
        ({"characters": ["hitman", "lady"]}, "characters"),
        ({"characters": "hitman"}, "characters"),
        ({"market_price": 0}, "market_price"),
        ({"market_price": True}, "market_price"),
        ({"market_price": "1"}, "market_price"),
        ({"lone_gangster_may_bribe": 1}, "lone_gangster_may_bribe"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_name_the_option(options: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        RULES.initial_state(3, options)


def test_a_small_enrolled_deck_without_the_elite_is_fine() -> None:
    state = RULES.initial_state(3, {"demands": HARD[:3], "characters": ["hitman", "lady", "flapper"]})
    assert RULES.view(state)["sample_deck"] is False


@pytest.mark.parametrize(("seats", "locations"), [(3, 5), (4, 5), (5, 5), (6, 6), (7, 6)])
def test_location_count_by_seats(seats: int, locations: int) -> None:
    view = RULES.view(RULES.initial_state(seats))
    assert [loc["id"] for loc in view["locations"]] == list(range(1, locations + 1))
    assert len(view["players"]) == seats and view["police"] is None
    assert all(p == {"money": 1, "crate": 0, "art": 0, "jewel": 0, "liquor": 1, "vp": 0, "demands": [],
                     "character": None, "private_demand_count": 0} for p in view["players"])
    assert all(loc["money"] == 2 and not loc["closed"] and loc["visitors"] == [] for loc in view["locations"])
