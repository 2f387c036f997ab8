"""The Thief of Baghdad table binding's LED scene and tap bookkeeping, from contract-shaped public views
(docs/RULES.md, Thief of Baghdad), without the engine."""

from __future__ import annotations

import pytest

from companion.games import Refusal
from companion.games.binding import DIM, GOLD, WHITE, Card
from companion.games.thief_of_baghdad.binding import (CHEST_RGB, NEUTRAL_RGB, SEAT_RGB, ThiefOfBaghdadBinding,
                                                      Taps)
from companion.table.leds import render_zone

OFF = (0, 0, 0)


def public(turn: int = 1, moves: int = 1) -> dict:
    palaces = [{"color": c, "guards": ["neutral"], "thieves": [0, 0, 0], "chests": [4, 5, 6, 7]}
               for c in ("red", "blue", "green", "yellow", "purple", "white")]
    palaces[0] = {"color": "red", "guards": ["neutral", 0, 2], "thieves": [2, 0, 1], "chests": [6, 7]}
    return {"turn": turn, "phase": "turn", "palaces": palaces, "thief_moves": moves, "deck": 40,
            "players": [{"supply": 12, "guards_unplaced": 0, "chests": 0, "hand_size": 6}] * 3, "log": []}


def test_palaces_show_guards_by_owner_thieves_and_chests_left() -> None:
    scene = ThiefOfBaghdadBinding().scene(public(), 3)
    red = scene["palace:red"].pixels
    assert red == (NEUTRAL_RGB, SEAT_RGB[0], SEAT_RGB[2], OFF,
                   SEAT_RGB[0], SEAT_RGB[0], SEAT_RGB[2], OFF,
                   CHEST_RGB, CHEST_RGB, OFF, OFF)
    assert scene["palace:white"].pixels[:4] == (NEUTRAL_RGB, OFF, OFF, OFF)
    assert scene["palace:white"].pixels[8:] == (CHEST_RGB,) * 4
    assert scene["seat:1"].colour == GOLD and scene["seat:0"].colour == DIM
    assert scene["moves"].level == (2, 3)
    assert render_zone(scene["palace:red"], 14, 0.0) == list(red) + [OFF, OFF]
    assert render_zone(scene["moves"], 3, 0.0) == [WHITE, WHITE, (16, 16, 16)]


def test_guards_and_thieves_take_the_tables_seat_colours() -> None:
    mine = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    red = ThiefOfBaghdadBinding().scene(public(), 3, seat_colours=mine)["palace:red"].pixels
    assert red[:8] == (NEUTRAL_RGB, mine[0], mine[2], OFF, mine[0], mine[0], mine[2], OFF)
    # too few colours for the seats playing: the binding's own, never a seat sharing another's colour
    assert ThiefOfBaghdadBinding().scene(public(), 3, seat_colours=mine[:2])["palace:red"].pixels[1] == SEAT_RGB[0]


def test_zones_and_card_kinds() -> None:
    binding = ThiefOfBaghdadBinding()
    zones = binding.zones(2)
    assert zones[:3] == ("seat:0", "seat:1", "center") and "palace:purple" in zones and zones[-1] == "moves"
    assert "dancer" in binding.card_kinds["dancer"] and "purple" in binding.card_kinds["palace"]


def test_taps_refuse_the_same_card_twice_and_clear_per_seat() -> None:
    red = Card("0A000001", "thief_of_baghdad", "palace", "red", "red")
    dancer = Card("0A000002", "thief_of_baghdad", "dancer", "dancer", "dancer")
    taps = Taps("k").add(0, red).add(1, dancer)
    assert taps.of(0) == ["red"] and taps.of(1) == ["dancer"] and len(taps) == 2
    with pytest.raises(Refusal) as err:
        taps.add(1, red)
    assert err.value.code == "already_tapped"
    assert taps.clear(0).of(0) == [] and taps.clear(0).of(1) == ["dancer"]


# --- with the engine -------------------------------------------------------------------------------------

from typing import Any  # noqa: E402

from companion.games import CHANCE  # noqa: E402
from companion.games.binding import Chosen, Placed, Pressed, get_binding  # noqa: E402
from companion.games.thief_of_baghdad import RULES  # noqa: E402
from companion.games.thief_of_baghdad.binding import BINDING  # noqa: E402

HANDS = [["red", "red", "blue", "purple", "green", "yellow"],
         ["blue", "blue", "white", "purple", "red", "green", "yellow"]]


def palace_card(colour: str, n: int) -> Card:
    return Card(f"7A{n:06X}", "thief_of_baghdad", "dancer" if colour == "dancer" else "palace", colour, colour)


def run(state: Any, pending: Any, *events: Any) -> tuple[Any, Any, list[dict[str, Any]]]:
    done: list[dict[str, Any]] = []
    for event in events:
        actions, pending = BINDING.on_input(state, pending, event, "physical")
        for action in actions:
            state = RULES.apply(state, action)
        done += actions
    return state, pending, done


def dealt() -> Any:
    """Two seats, hands tapped; every guard placed by choices (seat 0: red, green; seat 1: red, blue...)."""
    state = RULES.initial_state(2, {})
    taps = [Placed(f"seat:{s}", palace_card(c, 100 * s + i)) for s, hand in enumerate(HANDS) for i, c in enumerate(hand)]
    state, _, done = run(state, None, *taps)
    assert done == [{"type": "deal", "seat": CHANCE, "hands": HANDS}]
    plan = ["red", "red", "green", "blue", "yellow", "blue", "white", "white"]
    for palace in plan:
        (seat,) = RULES.to_act(state)
        state, _, _ = run(state, None, Chosen(seat, {"type": "place_guard", "palace": palace}))
    assert RULES.phase(state) == "turn" and RULES.view(state)["turn"] == 0
    return state


def test_the_deal_is_read_from_every_seat_s_taps() -> None:
    assert get_binding("thief_of_baghdad") is BINDING
    state = RULES.initial_state(2, {})
    assert BINDING.chance_is_physical(state, "physical") and not BINDING.chance_is_physical(state, "digital")
    pending: Any = None
    for i, colour in enumerate(HANDS[0]):
        state, pending, done = run(state, pending, Placed("seat:0", palace_card(colour, i)))
        assert done == []
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state, pending, Placed("seat:0", palace_card("red", 50)), "physical")
    assert err.value.code == "hand_full"
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state, pending, Placed("seat:1", palace_card("red", 0)), "physical")
    assert err.value.code == "already_tapped"


def test_a_payment_is_tapped_then_chosen_and_the_draw_is_tapped() -> None:
    state = dealt()
    # seat 0 has guards in red and green, seat 1 in red: infiltrating red costs one red (one foreign guard... and
    # the neutral one): the engine says how many; tap them, then pick any listed infiltrate red
    legal = [a for a in RULES.legal_actions(state, 0) if a["type"] == "infiltrate" and a["palace"] == "red"]
    cost = len(legal[0]["cards"])
    taps = [Placed("seat:0", palace_card("red", i)) for i in range(cost)]
    state2, pending, done = run(state, None, *taps)
    assert done == [] and pending.of(0) == ["red"] * cost
    other = dict(legal[-1])
    state2, pending, done = run(state2, pending, Chosen(0, other))
    assert done == [{**other, "cards": ["red"] * cost}]
    assert RULES.view(state2)["palaces"][0]["thieves"] == [1, 0]
    state3, _, done = run(state2, pending, Pressed(0, "end"))
    assert done == [{"type": "end_turn", "seat": 0, "take_dancer": False}]
    assert BINDING.chance_is_physical(state3, "physical")
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state3, None, Placed("seat:1", palace_card("blue", 60)), "physical")
    assert err.value.code == "wrong_reader"
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state3, None, Placed("seat:0", palace_card("dancer", 61)), "physical")
    assert err.value.code == "unexpected_card"
    drawn = [Placed("seat:0", palace_card(c, 70 + i)) for i, c in enumerate(("white", "white", "purple"))]
    state4, _, done = run(state3, None, *drawn)
    assert done == [{"type": "draw", "seat": CHANCE, "cards": ["white", "white", "purple"], "target": 0}]
    assert RULES.view(state4)["turn"] == 1


@pytest.mark.parametrize(("event", "code"), [
    (Placed("seat:1", Card("7A000001", "thief_of_baghdad", "palace", "red", "red")), "not_your_turn"),
    (Placed("seat:0", Card("7A000002", "thief_of_baghdad", "palace", "white", "white")), "not_in_hand"),
    (Placed("center", Card("7A000003", "thief_of_baghdad", "palace", "red", "red")), "wrong_reader"),
    (Placed("seat:0", Card("04AABBCC", "secret_hitler", "policy", "L", "L")), "wrong_game"),
    (Chosen(0, {"type": "infiltrate", "palace": "red", "cards": ["red"]}), "nothing_tapped"),
    (Pressed(0, "ja"), "unknown_key"),
])
def test_wrong_inputs_are_refused(event: Any, code: str) -> None:
    with pytest.raises(Refusal) as err:
        BINDING.on_input(dealt(), None, event, "physical")
    assert err.value.code == code


def test_a_payment_that_does_not_cover_the_cost_is_refused_by_the_engine() -> None:
    state = dealt()
    legal = next(a for a in RULES.legal_actions(state, 0) if a["type"] == "infiltrate" and a["palace"] == "red")
    _, pending, _ = run(state, None, Placed("seat:0", palace_card("blue", 1)))
    actions, _ = BINDING.on_input(state, pending, Chosen(0, legal), "physical")
    with pytest.raises(Refusal) as err:
        RULES.apply(state, actions[0])
    assert err.value.code in RULES.own_codes
    assert BINDING.choices(state, 0, "physical") == [{"type": "clear_taps", "seat": 0}]
    assert BINDING.choices(state, 1, "physical") == [] and BINDING.choices(state, 0, "digital") == []
    assert BINDING.expected(state) == {"seat:0": (), "seat:1": ()}


def test_a_pixel_pattern_blinks_and_pulses_as_a_whole() -> None:
    from companion.games.binding import Light
    light = Light(WHITE, "blink", pixels=((10, 20, 30), (40, 50, 60)))
    assert render_zone(light, 3, 0.0) == [(10, 20, 30), (40, 50, 60), OFF]
    assert render_zone(light, 3, 0.3) == [OFF, OFF, OFF]
    pulsing = render_zone(Light(WHITE, "pulse", pixels=((100, 200, 0),)), 1, 0.9)[0]
    assert 0 < pulsing[0] < 100 and abs(pulsing[1] - 2 * pulsing[0]) <= 1 and pulsing[2] == 0
