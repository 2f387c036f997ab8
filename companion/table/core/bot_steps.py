"""The core's steps with bots: seating one (a new game's or mid-game), a bot's scheduled decision, and keeping
the bots in step with their game after every step (see `bots` for how a bot plays and what is journaled)."""

from __future__ import annotations

import logging
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Mapping

from companion.bots import BadChoice, Seated, UnknownBot, draw_seed, get_bot
from companion.games.binding import Chosen, get_binding
from companion.table.core import commands as c
from companion.table.core.bots import BOT, BOT_CODES, BotTable, BotTurn, bot_source
from companion.table.core.effects import Later, Publish, PublicEvent, SeatPlayersRow, SendTerminal
from companion.table.core.guide import kind_word
from companion.table.core.outputs import publish, seat_screen
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.refusal import Refusal
from companion.table.session import Components, Session
from companion.table.terminals import IDLE

log = logging.getLogger("companion.table")


def physical_refusal(game: str, seats: int, components: Components) -> Refusal | None:
    """`bot_physical_game` naming every component kind the game reads, for a game with physical components."""
    if components != Components.PHYSICAL:
        return None
    try:
        kinds = list(dict.fromkeys(item.kind for item in get_binding(game).deck_list(seats)))
    except (ValueError, KeyError):
        kinds = []
    words = {lang: ", ".join(kind_word(game, kind, lang) for kind in kinds) for lang in ("en", "ko")}
    return Refusal("bot_physical_game", f"{BOT_CODES['bot_physical_game']} A bot cannot hold: {words['en']}.",
                   {"missing": words})


def start_bots(session: Session, seats: tuple[int, ...]) -> BotTable:
    """The bots a new game starts with (checked by `check_new_bots`)."""
    return BotTable(session.game_id, MappingProxyType({s: Seated.sit(get_bot(session.game), s) for s in seats}))


def check_new_bots(game: str, seats: int, components: Components, bots: tuple[int, ...]) -> Refusal | None:
    """Why a new game cannot start with bots in these seats, or None."""
    if not bots:
        return None
    bad = [s for s in bots if not 0 <= s < seats]
    if bad:
        return Refusal("bad_seat", f"no seat {bad[0]} in a {seats}-seat game")
    try:
        get_bot(game)
    except UnknownBot as exc:
        return Refusal(exc.code, exc.message)
    return physical_refusal(game, seats, components)


def restored(session: Session | None, players: Mapping[int, str]) -> BotTable:
    """The bots of a journaled game (a restart): each bot's memory rebuilt from the game's actions."""
    if session is None:
        return BotTable()
    seats = sorted(s for s, player in players.items() if player == BOT and 0 <= s < session.seats)
    bot = get_bot(session.game) if seats else None
    return BotTable(session.game_id, MappingProxyType({
        s: Seated.sit(bot, s).rebuild(session.rules, session.seats, session.options, session.actions)  # type: ignore[arg-type]
        for s in seats}))


def seat_player(state: TableState, cmd: c.SeatPlayer, ctx: Context) -> Step:
    """The host hands a seat to the bot or back to a person, mid-game (or between the deal and play)."""
    session = state.session
    if session is None or session.ended is not None:
        return Step(state, reply=Refusal("no_game", "No game is running."))
    if not 0 <= cmd.seat < session.seats:
        return Step(state, reply=Refusal("bad_seat", f"no seat {cmd.seat} in this {session.seats}-seat game"))
    bots = current(state)
    if cmd.player == BOT:
        if bots.plays(cmd.seat):
            return Step(state, reply=players_reply(bots))
        refusal = physical_refusal(session.game, session.seats, session.components)
        if refusal is not None:
            return Step(state, reply=refusal)
        seated = Seated.sit(get_bot(session.game), cmd.seat).rebuild(
            session.rules, session.seats, session.options, session.actions)
        bots = replace(bots, seats=MappingProxyType({**bots.seats, cmd.seat: seated}))
        sends = []
    else:
        if not bots.plays(cmd.seat):
            return Step(state, reply=Refusal("not_a_bot", f"no bot plays seat {cmd.seat}"))
        if cmd.seat in bots.deciding:
            return Step(state, reply=Refusal("bot_deciding", f"The bot in seat {cmd.seat} is deciding its move: "
                                                            "hand the seat back once it has played."))
        bots = replace(bots, seats=MappingProxyType({s: b for s, b in bots.seats.items() if s != cmd.seat}))
        terminal = state.terminals.terminal_of(cmd.seat)  # the seat's terminal shows its open prompt again
        sends = [SendTerminal(terminal, seat_screen(state, cmd.seat))] if terminal else []
    state = replace(state, bots=bots)
    row = SeatPlayersRow(session.game_id, ((cmd.seat, cmd.player),), len(session.actions))
    state, effects = publish(state, ctx)
    effects.append(Publish(PublicEvent.PLAYERS, {"seat": cmd.seat, "player": cmd.player}))
    return Step(state, (row,), tuple(effects + sends), players_reply(bots))


def players_reply(bots: BotTable) -> dict[str, Any]:
    """The bot seats, as a host command's answer."""
    return {"bots": bots.listed()}


def current(state: TableState) -> BotTable:
    """The bots of the game in play (none once it is gone)."""
    session = state.session
    if session is None or state.bots.game_id != session.game_id:
        return BotTable(None if session is None else session.game_id)
    return state.bots


def bot_turn(state: TableState, item: BotTurn, ctx: Context, play: Any) -> Step:
    """The scheduled decision of a bot seat: decide from its view, play it as the seat (`play` is the core's)."""
    bots = current(state)
    if bots.deciding.get(item.seat) != item.ticket:
        return Step(state)  # stale: the seat was handed back, the game changed, or an undo came first
    bots = replace(bots, deciding=MappingProxyType({s: t for s, t in bots.deciding.items() if s != item.seat}))
    state = replace(state, bots=bots)
    session = state.session
    seated = bots.seats.get(item.seat)
    if (session is None or seated is None or state.status != TableStatus.RUNNING or state.enrolling
            or item.seat not in session.rules.to_act(session.state)):
        return Step(state)
    seed = draw_seed(ctx.rng)
    try:
        decision, seated = seated.decide(session.rules, session.state, seed)
    except BadChoice as exc:  # a bug in a bot must not stop the table: it is logged, the seat waits for the host
        log.error("bot in seat %s: %s", item.seat, exc)
        return Step(state, reply=Refusal(exc.code, exc.message))
    state = replace(state, bots=replace(bots, seats=MappingProxyType({**bots.seats, item.seat: seated})))
    source = bot_source(seed, decision.reason, decision.params)
    return play(state, Chosen(item.seat, dict(decision.action)), f"seat:{item.seat}", source, ctx)


def follow(before: TableState, done: Step, ctx: Context) -> Step:
    """After any step: keep the bots with their game (rebuilt after an undo or a redo), schedule a decision for each bot
    seat that is now to act, and keep a bot seat's terminal idle (its prompt is the bot's)."""
    state = done.state
    session = state.session
    bots = current(state)
    if session is not None and bots.seats:
        was = before.session
        if was is not None and was.game_id == session.game_id and (len(session.actions) < len(was.actions)
                                                                    or session.redone != was.redone):
            bots = replace(bots, deciding=MappingProxyType({}), seats=MappingProxyType({  # an undo or a redo: rebuilt
                s: Seated.sit(b.player, s).rebuild(session.rules, session.seats, session.options, session.actions)
                for s, b in bots.seats.items()}))
    if session is None or not bots.seats:
        return done if bots is state.bots else replace(done, state=replace(state, bots=bots))
    running = state.status == TableStatus.RUNNING and not state.enrolling and session.ended is None
    acting = session.rules.to_act(session.state) if running else frozenset()
    deciding, tickets = dict(bots.deciding), bots.tickets
    later = []
    for seat in sorted(bots.seats):
        if seat in acting and seat not in deciding:
            tickets += 1
            deciding[seat] = tickets
            later.append(Later(pause_s(ctx), BotTurn(seat, tickets)))
        elif seat not in acting:
            deciding.pop(seat, None)
    if deciding != bots.deciding:
        bots = replace(bots, deciding=MappingProxyType(deciding), tickets=tickets)
    effects = tuple(_idle_for_bot(e, state, bots) for e in done.effects) + tuple(later)
    return replace(done, state=replace(state, bots=bots), effects=effects)


def _idle_for_bot(effect: Any, state: TableState, bots: BotTable) -> Any:
    """A prompt sent to a bot seat's terminal becomes idle: the bot answers it."""
    if isinstance(effect, SendTerminal) and effect.message.get("type") == "prompt":
        seat = state.terminals.seat_of(effect.terminal)
        if seat is not None and bots.plays(seat):
            return SendTerminal(effect.terminal, {**IDLE, "info": effect.message.get("info", {})})
    return effect


def pause_s(ctx: Context) -> float:
    """A human-looking pause before a bot's move, in seconds (uniform between the configured bounds)."""
    low, high = ctx.config.bots.pause_min_ms, ctx.config.bots.pause_max_ms
    return (low if high <= low else ctx.rng.uniform(low, high)) / 1000
