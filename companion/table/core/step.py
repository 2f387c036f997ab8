"""The pure table step: one input and the state in, the new state, journal rows, effects and a reply out."""

from __future__ import annotations

import logging
from dataclasses import replace

from companion.games.binding import Chosen, Placed, Pressed, Removed, TableInput
from companion.hal.events import (ButtonPressed, ReaderFault, TagPlaced, TagRemoved, TagsCrowded, TerminalChoice,
                                  TerminalClash, TerminalGone, TerminalHello)
from companion.hal.events import READER_PREFIX
from companion.table.card_values import as_played
from companion.table.core import bot_steps, host, timer_steps
from companion.table.core.bots import BotTurn
from companion.table.core.timers import TimerTick
from companion.table.core.enroll import guide_tap
from companion.table.core.effects import (Effect, EndGameRow, Flash, HostEvent, Publish, PublicEvent, PublishHost,
                                          Row, SendTerminal)
from companion.table.core.inputs import Boot, BootFailed, Input
from companion.table.core.outputs import publish, rescan, zone_of
from companion.table.core.play import play, reject
from companion.table.core.refusals import TABLE_PUBLIC_CODES, refused
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.values import evolve
from companion.table.refusal import Refusal
from companion.table.session import from_record
from companion.table.terminals import LinkSeq

log = logging.getLogger("companion.table")
PLAYED_SLOT = "cards.played"
"""Memo slot (with the tag's UID) of a card as the game knows it (key: the registry's card and the table's key)."""


def step(state: TableState, item: Input, ctx: Context) -> Step:
    """Handle one input. Pure given `ctx`: nothing is written or shown here. After it, the bots and the timer
    follow the game: a bot to act is scheduled, the timer kept with the seats to act (both shown)."""
    done = _step(state, item, ctx)
    session = done.state.session
    if isinstance(item, Boot) and item.unfinished is not None and session is not None \
            and session.game_id == item.unfinished.id:  # a restarted game keeps its bots
        bots = bot_steps.restored(session, ctx.journal.seat_players(session.game_id))
        done = replace(done, state=replace(done.state, bots=bots))
    return timer_steps.follow(state, bot_steps.follow(state, done, ctx), ctx)


def _step(state: TableState, item: Input, ctx: Context) -> Step:
    if isinstance(item, BotTurn):
        return bot_steps.bot_turn(state, item, ctx, play)
    if isinstance(item, TimerTick):
        return timer_steps.tick(state, item, ctx)
    if isinstance(item, Boot):
        return _boot(state, item, ctx)
    if isinstance(item, BootFailed):
        state = replace(state, status=TableStatus.IDLE)
        state, effects = publish(state, ctx)
        return Step(state, effects=tuple(effects))
    if not isinstance(item, (TagPlaced, TagRemoved, TagsCrowded, ButtonPressed, TerminalChoice, TerminalHello,
                             TerminalGone, TerminalClash, ReaderFault)):
        return host.run(state, item, ctx)
    state = evolve(state, counters=state.counters.add(inputs=1))
    if isinstance(item, (TagPlaced, TagRemoved)):
        return _tag(state, item.reader, item.uid, isinstance(item, TagPlaced), ctx)
    if isinstance(item, TagsCrowded):
        return _crowded(state, item.reader, ctx)
    if isinstance(item, ButtonPressed):
        return play(state, Pressed(item.seat, item.key), f"seat:{item.seat}", f"button:{item.seat}:{item.key}", ctx)
    if isinstance(item, TerminalChoice):
        return _terminal_choice(state, item, ctx)
    if isinstance(item, TerminalHello):
        current = state.links.get(item.terminal)
        links = state.links
        if current is None or current.link != item.link:  # a new port or a new boot: it counts from 1 again
            links = {**state.links, item.terminal: LinkSeq(item.link)}
        book = state.terminals.hello(item.terminal, item.firmware, ctx.now, screen=item.screen, display=item.display,
                                     faults=item.faults)
        state = replace(state, terminals=book, links=links)
        seat = state.terminals.seat_of(item.terminal)
        effects: list[Effect] = []
        if seat is not None and seat in state.prompts:
            effects.append(SendTerminal(item.terminal, state.prompts[seat]))  # resume the open prompt
        effects.append(PublishHost(HostEvent.TERMINAL, {"terminal": item.terminal, "connected": True}))
        return Step(state, effects=tuple(effects))
    if isinstance(item, TerminalClash):
        state = replace(state, terminals=state.terminals.clash(item.terminal, item.port, item.present))
        return Step(state, effects=(PublishHost(HostEvent.TERMINAL, {"terminal": item.terminal, "clash": item.port,
                                                             "present": item.present}),))
    if isinstance(item, TerminalGone):
        state = replace(state, terminals=state.terminals.gone(item.terminal, ctx.now))
        return Step(state, effects=(PublishHost(HostEvent.TERMINAL, {"terminal": item.terminal, "connected": False}),))
    state = replace(state, counters=state.counters.add(reader_faults=1))
    return Step(state, effects=(PublishHost(HostEvent.HEALTH, {"reader": item.reader, "fault": True}),))


def journal_fault(old: TableState, done: Step, code: str, message: str) -> Step:
    """A commit failed and wrote nothing: the old state (counted), and nothing shown but the refusal (its code
    to the host and to whoever asked, never to everyone)."""
    refusal = Refusal(code, message)
    effects: list[Effect] = []
    old = replace(old, counters=old.counters.add(errors=1))
    if done.fault_zone is not None:
        old, shown = refused(old, done.fault_zone, refusal, note=False)
        effects += shown
    if done.terminal_reply is not None:
        effects.append(terminal_error(*done.terminal_reply, code, message))
    return Step(old, effects=tuple(effects), reply=refusal)


def count_error(state: TableState) -> TableState:
    """The state after an input failed with a bug (one bad input never stops the table)."""
    return replace(state, counters=state.counters.add(errors=1))


# --- boot ------------------------------------------------------------------------------------------------------


def _boot(state: TableState, item: Boot, ctx: Context) -> Step:
    rows: list[Row] = []
    record = item.unfinished
    if record is not None:
        try:
            session = from_record(record)
        except ValueError as exc:
            log.error("game %s no longer replays: %s", record.id, exc)
            rows.append(EndGameRow(record.id, "unreplayable"))
        else:
            state = rescan(replace(state, session=session, status=TableStatus.RESUME_CHECK), ctx)
            state, effects = publish(state, ctx)
            return Step(state, effects=tuple(effects))
    done = host.new_game(state, host.default_game(ctx), ctx)
    if isinstance(done.reply, Refusal):
        log.warning("no default game: %s", done.reply.message)
        state, effects = publish(replace(state, status=TableStatus.IDLE), ctx)
        return Step(state, tuple(rows), tuple(effects))
    return replace(done, rows=tuple(rows) + done.rows)


# --- inputs ----------------------------------------------------------------------------------------------------


def _crowded(state: TableState, reader: str, ctx: Context) -> Step:
    """Two cards on one reader: refused in words on the reader's zone (it reads one; the card already there stays)."""
    zone = zone_of(reader, state.session, ctx.reader_zones, state.terminals)
    if not zone:
        return Step(state)
    return reject(state, zone, Refusal("two_tags_on_reader", "two cards on one reader: take one away",
                                                 public="two_tags_on_reader" in TABLE_PUBLIC_CODES))


def _tag(state: TableState, reader: str, uid: str, placed: bool, ctx: Context) -> Step:
    zone = zone_of(reader, state.session, ctx.reader_zones, state.terminals)
    if not zone:  # an unbound terminal's reader: the host page hears which terminal it is, nothing is played
        terminal = reader[len(READER_PREFIX):]
        return Step(state, effects=(PublishHost(HostEvent.TERMINAL, {"terminal": terminal, "input": True}),) if placed else ())
    card = ctx.cards.get(uid)
    if state.enrolling:
        if not placed:
            return Step(state)
        if state.guide is not None:
            return guide_tap(state, state.guide, uid, zone, ctx)
        return Step(state, effects=(PublishHost(HostEvent.ENROLL_SEEN, {"reader": reader, "zone": zone, "uid": uid,
                                                                "known": card is not None}),))
    if state.status == TableStatus.RESUME_CHECK:
        state = rescan(state, ctx)
        # public: only which zones differ (a ballot left on a reader must not show its value)
        scan: list[Effect] = [Publish(PublicEvent.EXPECTED_VS_SEEN, {"zones": [d["zone"] for d in state.scan]})]
        state, effects = publish(state, ctx)
        return Step(state, effects=tuple(scan + effects))
    if card is None:
        if not placed:
            return Step(state)
        state = replace(state, counters=state.counters.add(unknown_tags=1))  # its UID is for the host alone
        return Step(state, effects=(Flash(zone), Publish(PublicEvent.UNKNOWN_TAG, {"zone": zone},
                                                         {"zone": zone, "uid": uid})))
    session = state.session
    if session is not None:  # the game knows the card by its id in this game, never by its UID (built once)
        known, key = card, ctx.card_key
        card = session.memo.get((PLAYED_SLOT, card.uid), (known, key), lambda: as_played(known, key, session.game_id))
    event: TableInput = Placed(zone, card) if placed else Removed(zone, card)
    return play(state, event, zone, f"reader:{reader}", ctx)


def terminal_error(terminal: str, ballot: str | None, seq: int, code: str, message: str) -> SendTerminal:
    """Tell a terminal its message `seq` was refused (the seat may choose again)."""
    return SendTerminal(terminal, {"v": 1, "type": "error", "ballot": ballot, "seq": seq, "code": code,
                                   "message": message})


def _terminal_choice(state: TableState, item: TerminalChoice, ctx: Context) -> Step:
    """A choice from a terminal, counted once per link and answered only with the table's verdict: an ack once
    the action is accepted (and committed), else an error to that terminal alone; a resent choice gets the
    same answer again."""
    terminal = item.terminal
    heard = state.links.get(terminal)
    if heard is not None and heard.link != item.link:
        # from a port or boot that is no longer this terminal's: never counted, and not answered (an answer goes
        # by terminal id, to the current link, whose own message numbers it would touch)
        return Step(replace(state, counters=state.counters.add(duplicates=1)))
    heard = heard or LinkSeq(item.link)
    if item.seq <= heard.last:
        answer = heard.answer_to(item.seq) or terminal_error(
            terminal, item.ballot, item.seq, "out_of_order", "That message came after a newer one.").message
        return Step(replace(state, counters=state.counters.add(duplicates=1)), effects=(SendTerminal(terminal, answer),))
    state = replace(state, terminals=state.terminals.heard(terminal, ctx.now))
    seat = state.terminals.seat_of(terminal)
    open_prompt = None if seat is None else state.prompts.get(seat)
    options = () if open_prompt is None else open_prompt.get("options", ())
    value = item.value
    if seat is None:  # an unbound terminal's key press only tells the host page which one it is
        done = Step(state, effects=(PublishHost(HostEvent.TERMINAL, {"terminal": terminal, "input": True}),))
        answer = terminal_error(terminal, item.ballot, item.seq, "terminal_unbound", "This terminal serves no seat.")
    elif open_prompt is None or open_prompt.get("ballot") != item.ballot or item.ballot is None:
        done = Step(state)
        answer = terminal_error(terminal, item.ballot, item.seq, "stale_ballot", "That prompt is no longer open.")
    elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(options):
        done = Step(state)
        answer = terminal_error(terminal, item.ballot, item.seq, "bad_choice", "No such option.")
    else:
        done = play(state, Chosen(seat, options[value]["action"]), f"seat:{seat}", f"terminal:{terminal}", ctx)
        if isinstance(done.reply, Refusal):
            answer = terminal_error(terminal, item.ballot, item.seq, done.reply.code, done.reply.message)
        else:
            answer = SendTerminal(terminal, {"v": 1, "type": "ack", "ballot": item.ballot, "seq": item.seq})
        done = replace(done, terminal_reply=(terminal, item.ballot, item.seq))
    links = {**done.state.links, terminal: heard.answered(item.seq, answer.message)}
    return replace(done, state=replace(done.state, links=links), effects=done.effects + (answer,))
