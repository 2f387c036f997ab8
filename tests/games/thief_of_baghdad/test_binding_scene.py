"""The Thief of Baghdad table binding's LED scene and tap bookkeeping, from contract-shaped public views
(RULES.md section 4), without the engine."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
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
    with pytest.raises(IllegalAction) as err:
        taps.add(1, red)
    assert err.value.code == "already_tapped"
    assert taps.clear(0).of(0) == [] and taps.clear(0).of(1) == ["dancer"]
