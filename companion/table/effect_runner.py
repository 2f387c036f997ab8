"""The effect runner: carries out what a step asks once its rows are committed (the live stream, the host's
stream, terminals, the LEDs last, inputs to bring back later) and writes its rows into the journal."""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from companion.hal import Hardware
from companion.table.bus import EventBus
from companion.table.cards import CardRegistry
from companion.table.core.effects import (AppendActions, BindTerminals, DeleteCard, Effect, EndGameRow, Flash, Later,
                                          Publish, PublicEvent, PublishHost, PublishState, RedoActions, Row,
                                          SeatPlayersRow, SendTerminal, SetScene, ShareRow, StartGame, TimerRow,
                                          UndoActions, WriteCards)
from companion.table.core.step import Step
from companion.table.journal import Journal
from companion.table.leds import LedRenderer
from companion.table.wire_json import dumps

log = logging.getLogger("companion.table")


def encoded(done: Step, skip: frozenset[int] = frozenset()) -> dict[int, bytes]:
    """The data of each event `done` publishes (but those whose effect ids are in `skip`), encoded, by the
    effect's id (and an event's host variant by that mapping's id; `done` keeps the effects alive).
    Encoded before the commit because the thread comes back from the journal's fsync with cold caches: in the
    bench's table (7-seat Secret Hitler) the bus's publish took 67-81 us with the encoding after the fsync and
    31-43 us without, and the encoding before it 4 us."""
    wire = {id(e): dumps(e.snapshot if isinstance(e, PublishState) else e.payload)
            for e in done.effects if isinstance(e, (PublishState, Publish, PublishHost)) and id(e) not in skip}
    for e in done.effects:
        if isinstance(e, Publish) and e.host is not None:
            wire[id(e.host)] = dumps(e.host)
    return wire


def commit(row: Row, journal: Journal, cards: CardRegistry) -> None:
    """Write one row a step returned (raises what the journal raises)."""
    if isinstance(row, AppendActions):
        journal.append(row.game_id, row.actions, row.end)  # type: ignore[arg-type]
    elif isinstance(row, StartGame):
        journal.new_game(row.game, row.seats, dict(row.options), row.components, row.tokens,
                         row.actions, row.replacing, game_id=row.game_id,  # type: ignore[arg-type]
                         players=row.players)
    elif isinstance(row, UndoActions):
        journal.undo_from(row.game_id, row.keep)
    elif isinstance(row, RedoActions):
        journal.redo(row.game_id, row.count)
    elif isinstance(row, EndGameRow):
        journal.end_game(row.game_id, row.reason, None if row.outcome is None else dict(row.outcome))
    elif isinstance(row, BindTerminals):
        journal.bind_terminals(row.bindings)
    elif isinstance(row, WriteCards):
        cards.write(row.cards)
    elif isinstance(row, DeleteCard):
        cards.forget(row.uid)
    elif isinstance(row, SeatPlayersRow):
        journal.set_seat_players(row.game_id, row.players, row.at_action)
    elif isinstance(row, TimerRow):
        journal.set_timer(row.game, row.phase, row.seconds)
    elif isinstance(row, ShareRow):
        if row.token is None:
            journal.revoke_shares(row.game_id)
        else:
            journal.add_share(row.game_id, row.token)
    else:
        raise TypeError(f"not a journal row: {row!r}")


class EffectRunner:
    """Runs effects on the loop thread: the streams (and the last public snapshot), terminals, LEDs, later
    inputs (put back on the loop's queue by `bring_back`)."""

    def __init__(self, hardware: Hardware, renderer: LedRenderer, bring_back: Callable[[Any], None]) -> None:
        self.hw = hardware
        self.renderer = renderer
        self.snapshot: dict[str, Any] = {"table": {"status": "starting"}, "game": None}
        self.bus = EventBus(lambda: self.snapshot)
        self.watchers: list[Callable[[dict[str, Any]], None]] = []
        self._put = bring_back
        self._later: set[threading.Timer] = set()
        """Inputs waiting to come back (a bot's pause, a timer's tick): cancelled when the table stops."""

    def cancel_later(self) -> None:
        """Drop every input still waiting to come back."""
        for later in list(self._later):
            later.cancel()

    def run_outputs(self, effects: tuple[Effect, ...], wire: dict[int, bytes],
                    skip: frozenset[int] = frozenset()) -> list[Effect]:
        """Run every effect but the lights (and those whose ids are in `skip`); returns the lights, for
        `run_lights` after them."""
        lights: list[Effect] = []
        for effect in effects:
            if id(effect) in skip:
                continue
            if isinstance(effect, (SetScene, Flash)):
                lights.append(effect)
            elif isinstance(effect, Publish) and effect.host is not None:
                self.bus.publish(effect.kind, effect.payload, wire.get(id(effect)), effect.host,
                                 wire.get(id(effect.host)))
            else:
                self.run_effect(effect, wire.get(id(effect)))
        return lights

    def run_lights(self, lights: list[Effect]) -> None:
        """The LEDs last: the renderer they wake takes the interpreter lock as this thread goes back to its
        queue, instead of both waiting for it in turn while the page's and terminals' bytes go out."""
        for effect in lights:
            self.run_effect(effect)

    def bring_back(self, delay_s: float, item: Any) -> None:
        """Put `item` on the loop's queue after `delay_s` seconds (at once for 0), from a timer thread."""
        if delay_s <= 0:
            self._put(item)
            return

        def fire() -> None:
            self._later.discard(timer)
            self._put(item)
        timer = threading.Timer(delay_s, fire)
        timer.daemon = True
        self._later.add(timer)
        timer.start()

    def run_effect(self, effect: Effect, encoded: bytes | None = None) -> None:
        """Carry out one effect (`encoded`: a published event's data, already encoded)."""
        if isinstance(effect, SetScene):
            self.renderer.set_scene(effect.scene)
        elif isinstance(effect, PublishState):
            self.snapshot = dict(effect.snapshot)
            self.bus.publish(PublicEvent.STATE, self.snapshot, encoded)
            for watcher in self.watchers:
                try:
                    watcher(self.snapshot)
                except Exception:  # a watcher's bug never stops the table
                    log.exception("a snapshot watcher failed")
        elif isinstance(effect, Publish):
            self.bus.publish(effect.kind, effect.payload, encoded, effect.host)
        elif isinstance(effect, PublishHost):
            self.bus.publish_host(effect.kind, effect.payload, encoded)
        elif isinstance(effect, SendTerminal):
            try:
                sent = self.hw.terminals.send(effect.terminal, dict(effect.message))
            except Exception:  # a hub bug for one terminal must not starve the terminals after it
                log.exception("sending to terminal %s failed", effect.terminal)
                sent = False
            if not sent and effect.terminal in self.hw.terminals.connected():
                self.bus.publish_host("terminal", {"terminal": effect.terminal, "problem": "not_sent"})
        elif isinstance(effect, Flash):
            self.renderer.flash(effect.zone, colour=effect.colour)
        elif isinstance(effect, Later):
            self.bring_back(effect.delay_s, effect.item)
        else:
            raise TypeError(f"not an effect: {effect!r}")
