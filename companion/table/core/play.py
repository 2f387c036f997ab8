"""Game inputs through the binding and the engine: accepted actions become one journal row, shown after."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.binding import TableInput
from companion.table.core.bots import SOURCE_PREFIX
from companion.table.core.effects import AppendActions, Effect, Flash, Publish, PublicEvent, Row
from companion.table.core.outputs import publish
from companion.table.core.refusals import refused
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.values import evolve
from companion.table.records import journal_form
from companion.table.refusal import Refusal
from companion.table.session import auto_chance


def paused(state: TableState) -> Refusal | None:
    """Why the table takes no game input now, or None."""
    if state.session is None:
        return Refusal("no_game", "No game is running.")
    if state.status == TableStatus.RESUME_CHECK:
        return Refusal("table_paused", "The table is checking components after a restart; the host resumes it.")
    if state.enrolling:
        return Refusal("table_paused", "The host is enrolling cards.")
    return None


def bot_refusal(state: TableState, zone: str, source: str) -> Refusal | None:
    """`seat_is_bot` for an input at a bot seat's zone that is not the bot's own move."""
    if not state.bots.seats or not zone.startswith("seat:") or source.startswith(SOURCE_PREFIX):
        return None
    session = state.session
    seat = zone[5:]
    if session is None or state.bots.game_id != session.game_id or not seat.isdigit() or int(seat) not in state.bots.seats:
        return None
    return Refusal("seat_is_bot", f"A bot plays seat {seat} now; the host can hand the seat back.")


def play(state: TableState, event: TableInput, zone: str, source: str, ctx: Context) -> Step:
    """The binding turns an input into actions; the engine judges them (see `apply_actions`)."""
    refusal = paused(state) or bot_refusal(state, zone, source)
    if refusal:
        return Step(state, effects=(Flash(zone),), reply=refusal)
    session = state.session
    assert session is not None
    try:
        actions, pending = session.binding.on_input(session.state, session.pending, event, session.components)
    except Refusal as exc:
        # the binding's codes are public only as the game declares them (a tapped card's kind is hidden)
        exc.public = exc.code in session.rules.public_binding_codes
        return reject(state, zone, exc, source)
    return apply_actions(state, actions, pending, zone, source, ctx)


def apply_actions(state: TableState, actions: list[dict[str, Any]], pending: Any, zone: str, source: str,
                  ctx: Context) -> Step:
    """Apply actions and the digital chance after them; accepted ones become one journal row, shown after."""
    session = state.session
    assert session is not None
    game_state = session.state
    rows: list[tuple[dict[str, Any], str]] = []
    try:
        for action in actions:
            game_state = session.rules.apply(game_state, action)
            rows.append((journal_form(session.rules.actions, action), source))  # as parsed: no junk fields
        game_state, sampled, reserve = auto_chance(session, game_state, ctx.rng)
    except Refusal as exc:  # a refused tile set must be tapped again
        return reject(replace(state, session=replace(session, pending=pending)), zone, exc, source)
    rows += [(a, "chance") for a in sampled]
    outcome = session.rules.outcome(game_state)
    finished = outcome is not None and session.ended is None
    # the game's end goes in the same transaction as the actions that end it: both or neither
    end = ("finished", {"winners": sorted(outcome.winners), "reason": outcome.reason}) if finished else None
    journal: tuple[Row, ...] = (AppendActions(session.game_id, tuple(rows), end),) if rows or end else ()
    new = evolve(session.with_actions(game_state, [a for a, _ in rows], pending), reserved_chance=reserve,
                 redo=() if rows else session.redo)  # the journal drops what was to redo with the same append
    state = evolve(state, session=new, counters=state.counters.add(accepted=len(rows)))
    if finished:
        state = evolve(state, session=evolve(new, ended="finished"), status=TableStatus.OVER)
    effects: list[Effect] = []
    if rows:
        state, effects = publish(state, ctx)
    else:  # part of a multi-tile input (how many tiles were tapped is public): the count moves on the pages
        # and the reader's LEDs (the snapshot's `reading`)
        if pending != session.pending:
            state, effects = publish(state, ctx)
        if pending:
            effects.append(Publish(PublicEvent.COLLECTED, {"zone": zone, "count": len(pending)}))
    reply = {"accepted": len(rows), "pending": pending is not None and bool(pending)}
    return Step(state, journal, tuple(effects), reply, fault_zone=zone)


def reject(state: TableState, zone: str, exc: Refusal, source: str = "") -> Step:
    """A refused input: counted, its zone flashes, everyone hears which zone, the host and the acting seat why
    (see `refusals`); a seat page's own request hears it in its reply, so no note is kept for it."""
    state, effects = refused(state, zone, exc, note=not source.startswith("seat_page:"))
    return Step(state, effects=effects, reply=Refusal(exc.code, exc.message, public=exc.public))
