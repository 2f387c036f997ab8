"""The LED renderer: one thread turns the current scene (plus short flashes) into frames; it sleeps while
nothing animates."""

from __future__ import annotations

import math
import threading
import time
from typing import Mapping

from companion.config import LedConfig
from companion.games.binding import RED, Light
from companion.hal.interfaces import RGB, LedStrip

FPS = 30
FLASH_S = 0.6
ANIMATED = ("pulse", "blink")
"""Effects whose pixels change with time (the others depend on the light alone)."""


def _scale(colour: RGB, k: float) -> RGB:
    return (int(colour[0] * k), int(colour[1] * k), int(colour[2] * k))


def render_zone(light: Light, count: int, now: float) -> list[RGB]:
    """The pixels of one zone at time `now`."""
    if light.effect == "off":
        return [(0, 0, 0)] * count
    k = 1.0
    if light.effect == "pulse":
        k = 0.35 + 0.65 * (0.5 + 0.5 * math.sin(2 * math.pi * now / 1.2))
    elif light.effect == "blink" and int(now * 4) % 2:
        k = 0.0
    if light.pixels is not None:  # a pattern (e.g. guards in their owners' colours), with the zone's effect
        pattern = [p if k == 1.0 else _scale(p, k) for p in light.pixels[:count]]
        return pattern + [(0, 0, 0)] * (count - len(pattern))
    colour = light.colour if k == 1.0 else _scale(light.colour, k)
    if light.level is None:
        return [colour] * count
    filled, total = light.level
    lit = round(count * max(0, min(filled, total)) / total) if total > 0 else 0
    return [colour] * lit + [_scale(colour, 0.08)] * (count - lit)


class LedRenderer:
    """Owns the strip: `set_scene` and `flash` wake it; it renders at FPS only while something animates."""

    def __init__(self, strip: LedStrip, layout: LedConfig) -> None:
        self.strip = strip
        self.zones = {z.zone: (z.start, z.count) for z in layout.zones}
        self._scene: dict[str, Light] = {}
        self._flashes: dict[str, tuple[float, RGB]] = {}
        self._cond = threading.Condition()
        self._dirty = True
        self._stop = False
        self._last: tuple[RGB, ...] | None = None
        self.frames = 0
        self.scene_version = 0
        self.rendered_version = 0
        self.errors = 0
        self.last_error: str | None = None
        self._static: dict[str, tuple[Light, list[RGB]]] = {}
        """Each zone's last still light and its pixels (only the renderer's thread paints): a scene usually
        changes a zone or two, and the other zones' pixels need not be worked out again."""
        self._thread = threading.Thread(target=self._run, name="led-renderer", daemon=True)

    def start(self) -> None:
        """Begin rendering."""
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (the strip is closed by the hardware)."""
        with self._cond:
            self._stop = True
            self._cond.notify()
        self._thread.join(timeout=2)

    def set_scene(self, scene: Mapping[str, Light]) -> None:
        """Show a new scene."""
        with self._cond:
            self._scene = dict(scene)
            self._dirty = True
            self.scene_version += 1
            self._cond.notify_all()

    def flash(self, zone: str, until: float | None = None, colour: RGB = RED) -> None:
        """Flash a zone for a moment: red for a refused input (a guided enrollment confirms in other colours)."""
        with self._cond:
            self._flashes[zone] = (until if until is not None else time.monotonic() + FLASH_S, colour)
            self._dirty = True
            self._cond.notify()

    def wait_rendered(self, timeout: float = 2.0) -> bool:
        """Wait until the latest scene is on the strip (tests and the simulator use this)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.rendered_version >= self.scene_version, timeout)

    def frame_at(self, now: float) -> tuple[tuple[RGB, ...], bool]:
        """The frame for time `now` and whether anything in it animates."""
        pixels: list[RGB] = [(0, 0, 0)] * self.strip.pixel_count
        animating = False
        with self._cond:
            scene = dict(self._scene)
            flashes = {z: f for z, f in self._flashes.items() if f[0] > now}
            self._flashes = flashes
        for zone, light in scene.items():
            if zone in flashes:
                light = Light(flashes[zone][1], "blink")
            moving = light.effect in ANIMATED
            self._paint(pixels, zone, light, now, still=not moving)
            animating = animating or moving
        for zone, (_, colour) in flashes.items():
            if zone not in scene:
                self._paint(pixels, zone, Light(colour, "blink"), now)
            animating = True
        return tuple(pixels), animating

    def _paint(self, pixels: list[RGB], zone: str, light: Light, now: float, still: bool = False) -> None:
        span = self.zones.get(zone)
        if not span:
            return
        start, count = span
        if not still:
            pixels[start:start + count] = render_zone(light, count, now)
            return
        last = self._static.get(zone)
        if last is None or last[0] != light:
            last = self._static[zone] = (light, render_zone(light, count, now))
        pixels[start:start + count] = last[1]

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stop:
                    return
                self._dirty = False
                version = self.scene_version
            frame, animating = self.frame_at(time.monotonic())
            if frame != self._last:
                try:
                    self.strip.show(frame)
                except Exception as exc:  # a strip fault is counted and retried, never fatal
                    self.errors += 1
                    self.last_error = f"{type(exc).__name__}: {exc}"
                else:
                    self._last = frame
                    self.frames += 1
            with self._cond:
                self.rendered_version = version
                self._cond.notify_all()
                if self._stop:
                    return
                if not self._dirty:
                    self._cond.wait(1 / FPS if animating else None)
