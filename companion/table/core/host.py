"""Host and seat commands in the core: each returns its journal rows; nothing changes until they commit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.binding import Chosen, get_binding
from companion.games.log import Log
from companion.table.card_values import CardError, as_played, card_json, check_card, deck_of
from companion.table.core import bot_steps, enroll, notice, timer_steps
from companion.table.core import commands as c
from companion.table.core.bots import BOT
from companion.table.core.timers import timer_json
from companion.table.core.archive import HANDLERS as ARCHIVE_HANDLERS
from companion.table.core.guide import guide_json, start_check
from companion.table.core.effects import (BindTerminals, DeleteCard, EndGameRow, HostEvent, PublishHost,
                                          RedoActions, SendTerminal, StartGame, UndoActions, WriteCards)
from companion.table.core.outputs import game_json, publish, seat_screen
from companion.table.core.play import apply_actions, paused, play
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.refusal import Refusal
from companion.table.session import (Components, Session, auto_chance, check_setup, new_tokens, rebuild,
                                     table_options)
from companion.table.terminals import IDLE, check_binding


STALE_PROMPT = "The table moved on since this choice was shown: here are the choices that hold now."
"""The English text of `stale_prompt` (a seat page then draws its fresh prompt)."""


def run(state: TableState, command: c.Command, ctx: Context) -> Step:
    """One typed command -> Step."""
    if isinstance(command, c.Ping):
        return Step(state, reply={})
    if isinstance(command, c.Submit):
        return _submit(state, command, ctx)
    if isinstance(command, c.NewGame):
        return new_game(state, command, ctx)
    handler = HANDLERS.get(type(command))
    if handler is None:
        return Step(state, reply=Refusal("unknown_command", f"unknown command {type(command).__name__}"))
    return handler(state, command, ctx)


def _submit(state: TableState, cmd: c.Submit, ctx: Context) -> Step:
    if cmd.seat is None:  # the host acts directly (e.g. entering a draw by hand): the engine judges it alone
        refusal = paused(state)
        if refusal:
            return Step(state, reply=refusal)
        return apply_actions(state, [dict(cmd.action)], state.session.pending, "center", cmd.source, ctx)
    step = play(state, Chosen(cmd.seat, dict(cmd.action)), f"seat:{cmd.seat}", cmd.source, ctx)
    session = state.session
    if (isinstance(step.reply, Refusal) and cmd.version is not None and session is not None
            and cmd.version != f"{session.game_id}.{session.revision}"):
        # chosen on a prompt the table has moved past (an undo, another seat's move): not a mistake of the
        # player's, so nothing flashes or is counted; the page draws the prompt that holds now
        return Step(state, reply=Refusal("stale_prompt", STALE_PROMPT))
    return step


def default_game(ctx: Context) -> c.NewGame:
    """The config's game."""
    game = ctx.config.game
    return c.NewGame(game.name, game.seats, {}, Components(game.components), check_deck=False)


def new_game(state: TableState, cmd: c.NewGame, ctx: Context) -> Step:
    """Check the setup, deal digitally, and journal the game, the deal and the end of the game it replaces."""
    cfg = ctx.config.game
    game = cmd.game if cmd.game is not None else cfg.name
    seats = cmd.seats if cmd.seats is not None else cfg.seats
    components = cmd.components if cmd.components is not None else Components(cfg.components)
    game_id = ctx.journal.next_game_id()
    try:  # the binding reads the enrolled cards by their ids in this game, never by their UIDs, nor in their order
        played = sorted((as_played(card, ctx.card_key, game_id) for card in ctx.cards.all()),
                        key=lambda c: (c.game, c.kind, c.value, c.label, c.uid))
        options = table_options(game, dict(cmd.options), played, components)
        rules, game_state = check_setup(game, seats, options, len(ctx.config.seats))
        tokens = new_tokens(seats, ctx.tokens)
        session = Session(game_id, rules, get_binding(rules.name), seats, options or {}, components, tokens, Log(),
                          game_state)
    except Refusal as exc:
        return Step(state, reply=Refusal(exc.code, exc.message))
    refusal = bot_steps.check_new_bots(rules.name, seats, components, cmd.bots)
    if refusal is not None:
        return Step(state, reply=refusal)
    if components == Components.PHYSICAL and cmd.check_deck:
        gap = start_check(rules.name, seats, ctx.cards.all())
        if gap is not None:
            return Step(state, reply=gap)
    running = state.session
    if running is not None and running.ended is None and not cmd.replace:  # after the setup check: a bad
        # setup is said first, before the host is asked to end the running game for it; before the deal's draws
        return Step(state, reply=Refusal("game_running", "A game is running: send replace: true to end it and "
                                                         "start this one."))
    try:
        game_state, sampled, _ = auto_chance(session, game_state, ctx.rng)  # the deal, before anything is written
    except Refusal as exc:
        return Step(state, reply=Refusal(exc.code, exc.message))
    replacing = running.game_id if running is not None and running.ended is None else None
    chance = tuple((a, "chance") for a in sampled)
    players = tuple((seat, BOT) for seat in cmd.bots)
    row = StartGame(session.game_id, rules.name, seats, options or {}, components, tokens, chance, replacing,
                    players)
    session = session.with_actions(game_state, sampled, None)
    enrolling = state.enrolling
    # a game never waits silently on enrollment: starting one ends it (its taps are the game's from now on)
    state = replace(state, session=session, status=TableStatus.RUNNING, prompts={}, notes={}, scan=(),
                    counters=state.counters.add(accepted=len(sampled)), bots=bot_steps.start_bots(session, cmd.bots),
                    enrolling=False, guide=None)
    state, effects = publish(state, ctx)
    if enrolling:
        effects.append(enroll.ended_event())
    reply = {"accepted": len(sampled), "pending": False, "game_id": session.game_id}
    return Step(state, (row,), tuple(effects), reply, fault_zone="center")


def _closed(session: Session | None, verb: str) -> Refusal | None:
    """Why a game cannot be undone or redone now (`no_game`, or `game_revealed` once it is over: its outcome and
    the reveal showed everyone every secret), else None."""
    if session is None or session.ended not in (None, "finished"):
        return Refusal("no_game", f"No game to {verb} in.")
    if session.ended is not None:
        return Refusal("game_revealed", "The game is over and its secrets were shown to everyone: nothing in it "
                                        "can be undone or redone. Start a new game.")
    return None


def _undo(state: TableState, cmd: c.Undo, ctx: Context) -> Step:
    """Undo the last player action and the chance actions after it: replay all but them. A finished game is never
    reopened: its outcome and the reveal showed everyone every secret (`game_revealed`)."""
    session = state.session
    closed = _closed(session, "undo")
    if closed is not None or session is None:
        return Step(state, reply=closed)
    keep = max((i for i, a in enumerate(session.actions) if a.get("seat", -1) != -1), default=None)
    if keep is None:
        return Step(state, reply=Refusal("nothing_to_undo", "No player action to undo."))
    row = UndoActions(session.game_id, keep)
    taken_back = tuple(a for a in session.actions[keep:] if a.get("seat", -1) == -1)
    undone = replace(rebuild(session, keep), reserved_chance=taken_back + session.reserved_chance,
                     redo=tuple(session.actions[keep:]) + session.redo)
    state, effects = publish(replace(state, session=undone, status=TableStatus.RUNNING), ctx)
    return Step(state, (row,), tuple(effects), {"undone": len(session.actions) - keep, "actions": keep})


def _redo(state: TableState, cmd: c.Redo, ctx: Context) -> Step:
    """Re-apply what the last undo took back: its player action and the chance actions after it, exactly as
    journaled (nothing is drawn again). Any new action empties what there is to redo, so a game can only end by
    a new action and a finished game has nothing to redo: refused `game_revealed`, as its undo is."""
    session = state.session
    closed = _closed(session, "redo")
    if closed is not None or session is None:
        return Step(state, reply=closed)
    again = session.next_redo()
    if not again:
        return Step(state, reply=Refusal("nothing_to_redo", "Nothing to redo: no undo since the last action."))
    game_state = session.state
    for action in again:  # the state these were applied to before the undo: they apply again, the same way
        game_state = session.rules.apply(game_state, action)
    chance = tuple(a for a in again if a.get("seat", -1) == -1)
    reserve = session.reserved_chance
    if reserve[:len(chance)] == chance:  # re-applied here, so no longer held for a fresh draw
        reserve = reserve[len(chance):]
    redone = replace(session.with_actions(game_state, list(again), None), redo=session.redo[len(again):],
                     redone=session.redone + len(again), reserved_chance=reserve)
    state, effects = publish(replace(state, session=redone, status=TableStatus.RUNNING), ctx)
    return Step(state, (RedoActions(session.game_id, len(again)),), tuple(effects),
                {"redone": len(again), "actions": len(redone.actions)})


def _end_game(state: TableState, cmd: c.EndGame, ctx: Context) -> Step:
    session = state.session
    if session is None:
        return Step(state, reply=Refusal("no_game", "No game is running."))
    rows = (EndGameRow(session.game_id, "ended_by_host"),) if session.ended is None else ()
    state, effects = publish(replace(state, session=None, status=TableStatus.IDLE, prompts={}, notes={}), ctx)
    effects += [SendTerminal(t, dict(IDLE)) for t in sorted(state.terminals.seats)]
    return Step(state, rows, tuple(effects), {"ended": session.game_id})


def _bind_terminal(state: TableState, cmd: c.BindTerminal, ctx: Context) -> Step:
    """Bind a terminal to a seat (`seat` None unbinds it). A seat that has another terminal moves to this one:
    the old terminal is unbound and shown idle."""
    try:
        terminal, seat = check_binding(cmd.terminal, cmd.seat, len(ctx.config.seats))
    except Refusal as exc:
        return Step(state, reply=exc)
    rows = state.terminals.plan(terminal, seat)
    state = replace(state, terminals=state.terminals.apply(rows))
    # the new terminal shows the seat's open prompt at once; the old one idles
    effects = [SendTerminal(bound, seat_screen(state, bound_seat)) for bound, bound_seat in rows]
    effects.append(PublishHost(HostEvent.TERMINAL, {"terminal": terminal, "seat": seat}))
    reply = {"terminal": terminal, "seat": seat, "unbound": [t for t, _ in rows[1:]]}
    return Step(state, (BindTerminals(tuple(rows)),), tuple(effects), reply)


def _resume(state: TableState, cmd: c.Resume, ctx: Context) -> Step:
    if state.status != TableStatus.RESUME_CHECK:
        return Step(state, reply=Refusal("not_paused", "The table is not waiting to resume."))
    status = TableStatus.OVER if state.session and state.session.ended else TableStatus.RUNNING
    state, effects = publish(replace(state, status=status, scan=()), ctx)
    return Step(state, effects=tuple(effects), reply={"status": str(status)})


def _enroll_mode(state: TableState, cmd: c.EnrollMode, ctx: Context) -> Step:
    state, effects = publish(replace(state, enrolling=cmd.on, guide=state.guide if cmd.on else None), ctx)
    return Step(state, effects=tuple(effects), reply={"enrolling": cmd.on})


def _enroll(state: TableState, cmd: c.Enroll, ctx: Context) -> Step:
    game = cmd.game if cmd.game is not None else state.session.game if state.session is not None else None
    try:
        card = check_card({"uid": cmd.uid, "game": game, "kind": cmd.kind, "value": cmd.value, "label": cmd.label})
    except CardError as exc:
        return Step(state, reply=Refusal(exc.code, exc.message))
    return Step(state, (WriteCards((card,)),), (PublishHost(HostEvent.CARD_ENROLLED, {"uid": card.uid}),),
                 {"card": card_json(card)})


def _forget_card(state: TableState, cmd: c.ForgetCard, ctx: Context) -> Step:
    return Step(state, (DeleteCard(cmd.uid),), reply={"forgotten": ctx.cards.get(cmd.uid) is not None})


def _export_cards(state: TableState, cmd: c.ExportCards, ctx: Context) -> Step:
    return Step(state, reply={"deck": deck_of(ctx.cards.all(), cmd.game)})


def _import_cards(state: TableState, cmd: c.ImportCards, ctx: Context) -> Step:
    return Step(state, (WriteCards(cmd.cards),), reply={"imported": len(cmd.cards)})


def _host_state(state: TableState, cmd: c.HostState, ctx: Context) -> Step:
    session = state.session
    return Step(state, reply={
        "status": str(state.status),
        "enrolling": state.enrolling,
        "guide": None if state.guide is None else guide_json(state.guide),
        "game": None if session is None else {
            **game_json(session), "options": session.options, "ended": session.ended,
            "can_redo": bool(session.redo) and session.ended is None,
            "seat_tokens": [{"seat": i, "token": t, "path": f"/seat/{t}"} for i, t in enumerate(session.tokens)],
            "pending_inputs": len(session.pending or ()),
        },
        "expected_vs_seen": list(state.scan),
        "terminals": state.terminals.rows(),
        "table_seats": [s.name for s in ctx.config.seats],
        "counters": state.counters.as_dict(),
        "cards": len(ctx.cards.all()),
        "history": ctx.journal.history(20),
        "bots": bot_steps.current(state).listed(),
        "timers": {"settings": None if session is None else state.timers.for_game(session.game),
                   "running": timer_json(state.timers, ctx.now), "paused": state.timers.paused,
                   "phases": [] if session is None else list(session.rules.phases)},
    })


HANDLERS: dict[type, Any] = {
    c.Undo: _undo, c.Redo: _redo, c.EndGame: _end_game, c.BindTerminal: _bind_terminal, c.Resume: _resume,
    c.EnrollMode: _enroll_mode, c.Enroll: _enroll, c.ForgetCard: _forget_card, c.ExportCards: _export_cards,
    c.ImportCards: _import_cards, c.HostState: _host_state, **enroll.HANDLERS, **ARCHIVE_HANDLERS,
    **notice.HANDLERS,
    c.SeatPlayer: bot_steps.seat_player, c.SetTimer: timer_steps.set_timer, c.PauseTimers: timer_steps.pause,
    c.TimerChoice: timer_steps.choose,
}
"""Command type -> handler (Ping, Submit and NewGame are dispatched in `run`); read-only."""
