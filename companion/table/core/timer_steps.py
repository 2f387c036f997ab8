"""The core's steps with advisory timers: the host's settings, pause and choice at zero, the ticks, and the
timer kept with the seats to act after every step (see `timers` for what a timer does and never does)."""

from __future__ import annotations

import math
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games.contract import CHANCE
from companion.games.registry import get_rules
from companion.table.core import bot_steps
from companion.table.core import commands as c
from companion.table.core.bots import BOT
from companion.table.core.effects import Later, Publish, PublicEvent, PublishState, SetScene, TimerRow
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.timers import TIMER_CODES, TICK_S, AtZero, Running, TimerTick, Timers, overlay, with_timer
from companion.table.refusal import Refusal


# --- host commands ------------------------------------------------------------------------------------------


def set_timer(state: TableState, cmd: c.SetTimer, ctx: Context) -> Step:
    """Set (or turn off: `seconds` None) the timer of one phase of a game (the running game's by default)."""
    session = state.session
    game = cmd.game if cmd.game is not None else session.game if session is not None else None
    if game is None:
        return Step(state, reply=Refusal("no_game", "No game is running: name the game the timer is for."))
    try:
        rules = get_rules(game)
    except ValueError:
        return Step(state, reply=Refusal("bad_setup", f"unknown game {game!r}"[:200]))
    if cmd.phase not in rules.phases:
        return Step(state, reply=Refusal("unknown_phase", f"{rules.title} has no phase {cmd.phase!r}"[:200]))
    settings = {k: v for k, v in state.timers.settings.items() if k != (game, cmd.phase)}
    if cmd.seconds is not None:
        settings[(game, cmd.phase)] = cmd.seconds
    timers = replace(state.timers, settings=MappingProxyType(settings))
    return Step(replace(state, timers=timers), (TimerRow(game, cmd.phase, cmd.seconds),),
                reply={"game": game, "timers": timers.for_game(game)})


def pause(state: TableState, cmd: c.PauseTimers, ctx: Context) -> Step:
    """Stop every timer (keeping the time left), or start them again."""
    timers = state.timers
    running = timers.running
    if running is not None and cmd.on != timers.paused:
        if cmd.on:
            running = replace(running, left=running.remaining(ctx.now), deadline=None)
        else:
            running = replace(running, deadline=ctx.now + running.left)
    timers = replace(timers, paused=cmd.on, running=running)
    effects = list(_redraw(timers, ctx))
    if running is not None and not cmd.on and not running.expired:
        timers, later = _next_tick(timers, ctx)
        effects.append(later)
    return Step(replace(state, timers=timers), effects=tuple(effects), reply={"paused": cmd.on})


def choose(state: TableState, cmd: c.TimerChoice, ctx: Context) -> Step:
    """The host's choice once a timer ran out: wait, extend it, or hand its seats to a bot."""
    running = state.timers.running
    if running is None or not running.expired:
        return Step(state, reply=Refusal("no_timer", TIMER_CODES["no_timer"]))
    if cmd.choice == AtZero.WAIT:
        timers = replace(state.timers, running=replace(running, waited=True))
        return Step(replace(state, timers=timers), effects=tuple(_redraw(timers, ctx)), reply={"choice": "wait"})
    if cmd.choice == AtZero.EXTEND:
        seconds = cmd.seconds or running.seconds
        paused = state.timers.paused
        extended = replace(running, expired=False, waited=False, seconds=seconds, left=seconds,
                           deadline=None if paused else ctx.now + seconds)
        timers = replace(state.timers, running=extended, level=None)
        effects = list(_redraw(timers, ctx))
        if not paused:
            timers, later = _next_tick(timers, ctx)
            effects.append(later)
        return Step(replace(state, timers=timers), effects=tuple(effects), reply={"choice": "extend",
                                                                                  "seconds": seconds})
    rows, effects, reply = [], [], {"choice": "bot", "bots": []}
    for seat in sorted(running.seats):
        done = bot_steps.seat_player(state, c.SeatPlayer(seat, BOT), ctx)
        if isinstance(done.reply, Refusal):
            return Step(state, reply=done.reply)  # nothing handed over: a physical game refuses them all
        state, rows, effects = done.state, rows + list(done.rows), effects + list(done.effects)
        reply["bots"] = done.reply["bots"]
    return Step(state, tuple(rows), tuple(effects), reply)


# --- after every step, and the ticks ---------------------------------------------------------------------------


def follow(before: TableState, done: Step, ctx: Context) -> Step:
    """Start, keep or stop the timer for the seats now to act; put the timer and the bot seats into the public
    snapshot and the timer onto the seats' LEDs."""
    state = done.state
    timers = _remember(state.timers, done.effects)
    running = timers.running
    session = state.session
    wanted = None
    if session is not None and session.ended is None and state.status == TableStatus.RUNNING and not state.enrolling:
        acting = session.rules.to_act(session.state) - {CHANCE} - set(bot_steps.current(state).seats)
        phase = session.rules.phase(session.state)
        if acting:
            if (running is not None and running.game_id == session.game_id and running.phase == phase
                    and acting <= running.seats):
                wanted = running if acting == running.seats else replace(running, seats=frozenset(acting))
            else:
                seconds = timers.settings.get((session.game, phase))
                if seconds is not None:
                    wanted = Running(session.game_id, phase, frozenset(acting), seconds,
                                     None if timers.paused else ctx.now + seconds, seconds, timers.tickets + 1)
                    timers = replace(timers, tickets=timers.tickets + 1, level=None)
    effects = list(done.effects)
    if wanted is not running:
        timers = replace(timers, running=wanted)
        if wanted is not None and wanted.ticket != (running.ticket if running else None) and not timers.paused:
            timers, later = _next_tick(timers, ctx)
            effects.append(later)
    if timers is state.timers and not _shows_extras(state, timers):
        return done
    effects = [_decorated(e, state, timers, ctx) for e in effects]
    return replace(done, state=replace(state, timers=timers), effects=tuple(effects))


def tick(state: TableState, item: TimerTick, ctx: Context) -> Step:
    """A running timer's tick: redraw the seats' LEDs, or tell the host that it ran out (playing nothing)."""
    timers = state.timers
    running = timers.running
    if running is None or running.ticket != item.ticket or timers.paused or running.expired:
        return Step(state)
    left = running.remaining(ctx.now)
    if left > 0:
        timers, later = _next_tick(timers, ctx)
        effects = [later]
        level = math.ceil(left)
        if level != timers.level and timers.scene is not None:
            timers = replace(timers, level=level)
            effects.append(SetScene(overlay(timers.scene, timers, ctx.now)))
        return Step(replace(state, timers=timers), effects=tuple(effects))
    timers = replace(timers, running=replace(running, expired=True), level=0)
    effects = list(_redraw(timers, ctx))
    effects.append(Publish(PublicEvent.TIMER_EXPIRED, {"seats": sorted(running.seats), "phase": running.phase}))
    return Step(replace(state, timers=timers), effects=tuple(effects))


def _next_tick(timers: Timers, ctx: Context) -> tuple[Timers, Later]:
    running = timers.running
    assert running is not None
    left = running.remaining(ctx.now)
    return timers, Later(min(TICK_S, left) if left > 0 else 0.0, TimerTick(running.ticket))


def _remember(timers: Timers, effects: tuple[Any, ...]) -> Timers:
    """The last undecorated snapshot and scene a step published (a tick redraws them)."""
    snapshot, scene = timers.snapshot, timers.scene
    for effect in effects:
        if isinstance(effect, PublishState):
            snapshot = effect.snapshot
        elif isinstance(effect, SetScene):
            scene = effect.scene
    if snapshot is timers.snapshot and scene is timers.scene:
        return timers
    return replace(timers, snapshot=snapshot, scene=scene)


def _shows_extras(state: TableState, timers: Timers) -> bool:
    return timers.running is not None or bool(bot_steps.current(state).seats)


def _redraw(timers: Timers, ctx: Context) -> list[Any]:
    """The last snapshot and scene again, with the timer as it is now (a pause, a choice, the end)."""
    out: list[Any] = []
    if timers.scene is not None:
        out.append(SetScene(overlay(timers.scene, timers, ctx.now)))
    if timers.snapshot is not None:
        out.append(PublishState(with_timer(timers.snapshot, timers, ctx.now)))
    return out


def _decorated(effect: Any, state: TableState, timers: Timers, ctx: Context) -> Any:
    if isinstance(effect, PublishState):
        snapshot = with_timer(effect.snapshot, timers, ctx.now)
        game = snapshot.get("game")
        if isinstance(game, dict):
            snapshot = {**snapshot, "game": {**game, "bots": bot_steps.current(state).listed()}}
        return PublishState(snapshot)
    if isinstance(effect, SetScene) and timers.running is not None:
        return SetScene(overlay(effect.scene, timers, ctx.now))
    return effect
