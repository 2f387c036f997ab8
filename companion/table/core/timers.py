"""Advisory turn timers, as values (the core's steps with them: `timer_steps`): off by default, set by the
host per game and phase. They advise, never act.

When the game enters a phase with a timer, a timer starts for the seats a person plays that are to act (bots
get none): the public snapshot's `game.timer` tells the table page the time left, and each timed seat's LEDs
drain as it runs out. At zero the seats' LEDs flash and the host is told (a `timer_expired` event; the seats
timed are public: the table shows whose turn it is); the host chooses to wait, to extend it, or to hand the
seats to a bot. Nothing is ever played for a seat by a timer: a hidden choice is never made at zero. The
pause button stops every timer (the time left is kept) until it is pressed again.

The core is pure: the shell brings a `TimerTick` back when asked (`Later`), about once a second while a timer
runs, and the core reads the wall clock from its context (`ctx.now`). Settings are journaled (`TimerRow`)
and outlive a restart; a running timer does not (the table starts it again when play resumes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.binding import ORANGE, RED, WHITE, Effect as LightEffect, Light

MAX_TIMER_S = 3600
"""The longest timer the host may set (an hour: longer is a typo)."""
TICK_S = 1.0
"""How often a running timer redraws the seats' LEDs."""
TIMER_CODES: Mapping[str, str] = MappingProxyType({
    "bad_timer": "A timer lasts a whole number of seconds, from 1 to 3600 (or is turned off).",
    "unknown_phase": "That game has no such phase.",
    "no_timer": "No timer has run out: there is nothing to wait for, extend or hand to a bot.",
    "bad_choice": "The host's choice at zero is wait, extend or bot.",
})
"""The refusals of this module, with their English text."""


class AtZero(StrEnum):
    """The host's choice once a timer ran out."""

    WAIT = "wait"
    EXTEND = "extend"
    BOT = "bot"


@dataclass(frozen=True)
class TimerTick:
    """The shell brings this back when asked: the running timer redraws, or has run out."""

    ticket: int


@dataclass(frozen=True)
class Running:
    """The timer of the seats to act now."""

    game_id: int
    phase: str
    seats: frozenset[int]
    seconds: int
    deadline: float | None
    """Wall-clock seconds at which it runs out; None while paused."""
    left: float
    """Seconds left when it was paused (or started paused)."""
    ticket: int
    expired: bool = False
    waited: bool = False
    """The host chose to wait after it ran out: the seats' LEDs stop flashing."""

    def remaining(self, now: float) -> float:
        """Seconds left now (0 once run out)."""
        return max(0.0, self.left if self.deadline is None else self.deadline - now)


@dataclass(frozen=True)
class Timers:
    """The host's settings, the running timer, the pause, and what the timer overlays (the last snapshot and
    LED scene the table published, kept so a tick can redraw them)."""

    settings: Mapping[tuple[str, str], int] = field(default_factory=lambda: MappingProxyType({}))
    running: Running | None = None
    paused: bool = False
    tickets: int = 0
    snapshot: Mapping[str, Any] | None = None
    scene: Mapping[str, Light] | None = None
    level: int | None = None
    """The seconds left the seats' LEDs last showed."""

    def for_game(self, game: str) -> dict[str, int]:
        """Phase -> seconds, for one game."""
        return {phase: s for (g, phase), s in sorted(self.settings.items()) if g == game}


def timer_json(timers: Timers, now: float) -> dict[str, Any] | None:
    """What the table page shows of the running timer: its phase, seats, length, time left, pause, end."""
    running = timers.running
    if running is None:
        return None
    return {"phase": running.phase, "seats": sorted(running.seats), "seconds": running.seconds,
            "remaining_ms": int(running.remaining(now) * 1000), "paused": timers.paused,
            "expired": running.expired, "waited": running.waited}


def with_timer(snapshot: Mapping[str, Any], timers: Timers, now: float) -> Mapping[str, Any]:
    """The public snapshot with `game.timer` (and its bots list kept as it was)."""
    game = snapshot.get("game")
    if not isinstance(game, Mapping):
        return snapshot
    return {**snapshot, "game": {**game, "timer": timer_json(timers, now)}}


def overlay(scene: Mapping[str, Light], timers: Timers, now: float) -> dict[str, Light]:
    """The scene with each timed seat's LEDs showing its time left: filled in proportion while it runs
    (pulsing while paused), flashing red at zero, steady red once the host chose to wait."""
    running = timers.running
    out = dict(scene)
    if running is None:
        return out
    for seat in running.seats:
        zone = f"seat:{seat}"
        if running.expired:
            out[zone] = Light(RED, LightEffect.SOLID if running.waited else LightEffect.BLINK)
            continue
        left = math.ceil(running.remaining(now))
        base = scene.get(zone)
        colour = base.colour if base is not None and base.effect != LightEffect.OFF and base.colour != (0, 0, 0) \
            else WHITE
        if left <= max(5, running.seconds // 5):
            colour = ORANGE
        effect = LightEffect.PULSE if timers.paused else LightEffect.SOLID
        out[zone] = Light(colour, effect, level=(left, running.seconds))
    return out
