"""The LED renderer's frames: a still zone's pixels are reused only while its light is the same."""

from __future__ import annotations

from companion.config import LedConfig, LedZone
from companion.games.binding import Light
from companion.hal.mock import MockStrip
from companion.table.leds import LedRenderer, render_zone

RED, BLUE, OFF = (200, 0, 0), (0, 0, 200), (0, 0, 0)


def _renderer() -> LedRenderer:
    layout = LedConfig(pixels=8, zones=(LedZone("a", 0, 4), LedZone("b", 4, 4)))
    return LedRenderer(MockStrip(8), layout)


def test_a_changed_light_is_painted_anew_and_an_unchanged_one_as_before() -> None:
    leds = _renderer()
    leds.set_scene({"a": Light(RED), "b": Light(BLUE, level=(1, 4))})
    assert leds.frame_at(0.0) == ((RED,) * 4 + (BLUE,) + (render_zone(Light(BLUE, level=(1, 4)), 4, 0.0)[1],) * 3,
                                  False)
    leds.set_scene({"a": Light(RED), "b": Light(BLUE, level=(3, 4))})  # a new, equal light for "a"
    frame, animating = leds.frame_at(1.0)
    assert frame[:4] == (RED,) * 4 and frame[4:] == tuple(render_zone(Light(BLUE, level=(3, 4)), 4, 1.0))
    leds.set_scene({"a": Light(BLUE, "off")})
    assert leds.frame_at(2.0) == ((OFF,) * 8, False), "a zone left out of the scene is dark"


def test_blinking_and_flashing_zones_follow_the_clock_over_a_still_painted_one() -> None:
    leds = _renderer()
    leds.set_scene({"a": Light(RED), "b": Light(BLUE, "blink")})
    on, animating = leds.frame_at(0.0)
    off, _ = leds.frame_at(0.3)  # blink: dark in the second quarter second
    assert animating and on[4:] == (BLUE,) * 4 and off[4:] == (OFF,) * 4 and on[:4] == off[:4] == (RED,) * 4
    leds.flash("a", until=10.0, colour=BLUE)
    flashed, _ = leds.frame_at(0.3)
    assert flashed[:4] == (OFF,) * 4 and leds.frame_at(0.0)[0][:4] == (BLUE,) * 4
    assert leds.frame_at(11.0)[0][:4] == (RED,) * 4, "after the flash the still light is back"
