"""The Gangster's Dilemma table binding, pure: enrollment, demand deck from enrolled cards, secret taps ->
actions, buttons, refusals, LED scene (no hidden choice before the reveal) and the bank's instructions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import CHANCE, Refusal
from companion.games.binding import BLUE, DIM, GOLD, GREEN, OFF, WHITE, Card, Placed, Pressed, get_binding
from companion.games.gangsters_dilemma import RULES
from companion.games.gangsters_dilemma.binding import BINDING, CARD_KINDS, demand_of

DECK = Path(__file__).resolve().parents[3] / "hardware" / "decks" / "gangsters-dilemma-sample.json"
CARDS = [Card(c["uid"], c["game"], c["kind"], c["value"], c["label"]) for c in json.loads(DECK.read_text())["cards"]]


def card(kind: str, value: str) -> Card:
    return next(c for c in CARDS if c.kind == kind and c.value == value)


def demand(n: int) -> Card:
    return next(c for c in CARDS if c.label.startswith(f"SAMPLE demand {n} "))


def started(seats: int = 3) -> Any:
    """Physical play with the sample deck, no characters, seat 0 the police; demand 4 (crate+liquor) is out."""
    options = BINDING.table_options({"characters": []}, CARDS, "physical")
    state = RULES.initial_state(seats, options)
    return RULES.apply(state, {"type": "setup", "seat": CHANCE, "police": 0, "characters": [None] * seats,
                               "demands": [demand(4).uid, demand(1).uid, demand(2).uid]})


def feed(state: Any, *events: Any, pending: Any = None) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Feed events through the binding and the engine."""
    done: list[dict[str, Any]] = []
    for event in events:
        actions, pending = BINDING.on_input(state, pending, event, "physical")
        for action in actions:
            state = RULES.apply(state, action)
        done += actions
    return state, pending, done


def gangster(seat: int, location: int, at: int | None = None) -> Placed:
    return Placed(f"seat:{seat if at is None else at}", card("gangster", f"{seat}:{location}"))


def police(location: int, at: int = 0) -> Placed:
    return Placed(f"seat:{at}", card("police", str(location)))


def test_enrollment_values_and_demands_from_enrolled_cards() -> None:
    assert get_binding("gangsters_dilemma") is BINDING
    assert "3:6" in CARD_KINDS["gangster"] and "7:1" not in CARD_KINDS["gangster"]
    assert "10:1,1,1,1" in CARD_KINDS["demand"] and "10:1,1,1" not in CARD_KINDS["demand"]
    assert demand_of(demand(8)) == {"id": demand(8).uid, "vp": 10,
                                    "needs": {"crate": 1, "art": 1, "jewel": 1, "liquor": 1}}
    options = BINDING.table_options({}, CARDS, "physical")
    assert len(options["demands"]) == 9 and BINDING.table_options({}, CARDS, "digital") == {}
    assert RULES.view(started())["sample_deck"] is False
    assert BINDING.zones(3)[-1] == "location:5" and BINDING.zones(6)[-1] == "location:6"


def test_secret_taps_choose_and_patrol_and_nothing_shows_before_the_reveal() -> None:
    state = started()
    state, pending, done = feed(state, gangster(1, 1), police(2))
    assert done == [{"type": "choose", "seat": 1, "location": 1}] and len(pending) == 1
    public = RULES.view(state)
    assert public["chosen"] == [False, True, False]
    scene = BINDING.scene(public, 3)
    assert scene["seat:1"].colour == WHITE and scene["seat:0"].colour == GOLD
    assert all(scene[f"location:{i}"].colour == GOLD for i in range(1, 6))  # money only, no visitor, no patrol
    state, pending, done = feed(state, police(3), pending=pending)
    assert done == [{"type": "patrol", "seat": 0, "locations": [2, 3]}] and len(pending) == 0
    assert BINDING.scene(RULES.view(state), 3)["seat:0"].colour == WHITE
    state, pending, done = feed(state, gangster(2, 1), pending=pending)
    view = RULES.view(state)
    assert view["locations"][0]["visitors"] == [1, 2]
    scene = BINDING.scene(view, 3)
    assert scene["location:2"].colour == BLUE and scene["location:3"].colour == BLUE
    bank = BINDING.info(view, 3)["bank"]
    assert {"location": 1, "seat": 1, "takes": {"money": 1, "crate": 1}, "hands_over": {}, "to": "bank"} in bank


@pytest.mark.parametrize(("event", "code"), [
    (gangster(2, 3, at=1), "wrong_reader"),                 # another seat's gangster
    (police(2, at=1), "not_police"),
    (Placed("center", card("gangster", "1:2")), "wrong_reader"),
    (Placed("seat:1", Card("04AABBCC", "secret_hitler", "policy", "L", "L")), "wrong_game"),
    (Placed("seat:1", Card("04AABBCD", "gangsters_dilemma", "demand", "4:1,0,0,0", "new")), "not_enrolled"),
    (Placed("seat:1", demand(1)), "wrong_phase"),
    (Pressed(1, "ja"), "unknown_key"),
])
def test_wrong_inputs_are_refused(event: Any, code: str) -> None:
    with pytest.raises(Refusal) as err:
        BINDING.on_input(started(), None, event, "physical")
    assert err.value.code == code


def test_the_same_patrol_card_twice_is_refused() -> None:
    _, pending = BINDING.on_input(started(), None, police(2), "physical")
    with pytest.raises(Refusal) as err:
        BINDING.on_input(started(), pending, police(2), "physical")
    assert err.value.code == "already_tapped"


def test_a_demand_tapped_in_the_fulfil_step_fulfils_it_and_the_next_is_read() -> None:
    state, _, _ = feed(started(), gangster(1, 1), gangster(2, 1), police(2), police(3))
    assert RULES.phase(state) == "fulfil" and RULES.to_act(state) == frozenset({1})
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state, None, Placed("seat:2", demand(4)), "physical")
    assert err.value.code == "not_your_turn"
    state, _, done = feed(state, Placed("seat:1", demand(4)))
    assert done == [{"type": "fulfil", "seat": 1, "demand": demand(4).uid}]
    assert RULES.phase(state) == "reveal_demand" and BINDING.chance_is_physical(state, "physical")
    state, _, done = feed(state, Placed("center", demand(7)))
    assert done == [{"type": "reveal_demand", "seat": -1, "demand": demand(7).uid}]
    bank = BINDING.info(RULES.view(state), 3)["bank"]
    assert {"seat": 1, "takes": {"demand": demand(4).uid}, "hands_over": {"crate": 1, "liquor": 1},
            "to": "bank"} in bank


def test_buttons_respond_and_pass() -> None:
    state, _, _ = feed(started(), gangster(1, 2), gangster(2, 2), police(2), police(3))
    assert RULES.phase(state) == "respond"
    scene = BINDING.scene(RULES.view(state), 3)
    assert scene["seat:1"].colour == GOLD and scene["seat:2"].colour == GOLD and scene["location:2"].colour == BLUE
    state, _, done = feed(state, Pressed(1, "silence"))
    assert done == [{"type": "respond", "seat": 1, "response": "silence"}]
    assert RULES.view(state)["responded"] == [False, True, False]
    state, _, done = feed(state, Pressed(2, "bribe"))
    assert done[0] == {"type": "respond", "seat": 2, "response": "bribe", "pay": "liquor"}
    view = RULES.view(state)
    bank = BINDING.info(view, 3)["bank"]
    assert {"location": 2, "seat": 2, "takes": {}, "hands_over": {"liquor": 1}, "to": 0} in bank
    assert {"location": 2, "seat": 1, "takes": {"money": 2, "art": 1}, "hands_over": {}, "to": "bank"} in bank


def test_an_arrest_blinks_red_and_hands_loot_to_the_police() -> None:
    state, _, _ = feed(started(), gangster(1, 2), gangster(2, 4), police(2), police(3))
    view = RULES.view(state)
    scene = BINDING.scene(view, 3)
    assert scene["location:2"].colour == (255, 0, 0) and scene["location:2"].effect == "blink"
    assert scene["location:4"].colour == GREEN and scene["location:5"].colour in (GOLD, OFF)
    bank = BINDING.info(view, 3)["bank"]
    assert {"location": 2, "seat": 1, "takes": {}, "hands_over": {"liquor": 1}, "to": 0} in bank
    assert BINDING.expected(state) == {"seat:0": (), "seat:1": (), "seat:2": ()}
    assert scene["seat:0"].colour in (BLUE, DIM, GOLD)


def test_bank_reads_every_logged_trade_including_none() -> None:
    """`trade none` is logged as `traded` too: the bank lists nothing for it and never fails on it."""
    from companion.games.gangsters_dilemma.binding import bank

    view = {"log": [
        {"code": "traded", "params": {"seat": 1, "trade": "none", "price": 1}},
        {"code": "traded", "params": {"seat": 2, "trade": "buy_art", "price": 1}},
    ]}
    assert bank(view) == [{"seat": 2, "takes": {"art": 1}, "hands_over": {"money": 1}, "to": "bank"}]
