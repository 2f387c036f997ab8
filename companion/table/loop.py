"""The thread shell around the table core: one thread takes inputs off one queue, steps the core, commits the
rows it returns, then runs its effects. "Journal before effect" holds here, in `_finish` and `_finish_group`, and
nowhere else. Which queued inputs share one commit is companion/table/grouping.py's; carrying out the effects and
writing the rows, companion/table/effect_runner.py's."""

from __future__ import annotations

import logging
import queue
import random
import secrets
import sqlite3
import threading
import time
from concurrent.futures import Future
from types import MappingProxyType
from typing import Any, Callable

from companion.config import TableConfig
from companion.hal import Hardware, TagPlaced, TagRemoved
from companion.ratelog import RateLimitedLog
from companion.table.bus import EventBus
from companion.table.cards import CardRegistry
from companion.table.core.commands import Command, Ping
from companion.table.core.inputs import Boot, BootFailed, Input
from companion.table.core.outputs import seat_screen, zone_of
from companion.table.core.state import Context, Counters, TableState, TableStatus
from companion.table.core.step import Step, count_error, journal_fault, step
from companion.table.core.timers import Timers
from companion.table.core.values import evolve
from companion.table.core.effects import AppendActions, Effect
from companion.table.dbfile import JournalGone
from companion.table.effect_runner import EffectRunner, commit, encoded
from companion.table.grouping import (Call, call_of, ends_a_game, input_of, joins_group, queued, superseded,
                                      takes_alone)
from companion.table.journal import Journal, fault_code
from companion.table.leds import LedRenderer
from companion.table.refusal import Refusal
from companion.table.session import Session
from companion.table.terminals import TerminalBook
from companion.games.json_value import Json

log = logging.getLogger("companion.table")

CALL_TIMEOUT_S = 10.0


class TableLoop:
    """Owns the table state, the journal and the outputs; only its thread changes any of them."""

    def __init__(self, config: TableConfig, hardware: Hardware, journal: Journal, cards: CardRegistry,
                 renderer: LedRenderer, rng: random.Random | None = None) -> None:
        self.config = config
        self.hw = hardware
        self.journal = journal
        self.cards = cards
        self.renderer = renderer
        # SimpleQueue: put and get in C, no Python-level Condition per wait (the loop takes every input off it)
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.effects = EffectRunner(hardware, renderer, self.inbox.put)
        self.bus: EventBus = self.effects.bus
        self.ready = threading.Event()
        self._log = RateLimitedLog(log)  # inputs come from anyone at the table: a repeated failure is logged once
        self._told_gone = False
        book = TerminalBook.start(config.terminal_seats(), self._stored_bindings(), len(config.seats))
        self._state = TableState(book, timers=Timers(settings=MappingProxyType(self._stored_timers())))
        self._context = Context(config, cards, journal, hardware.present, rng or random.SystemRandom(),
                                boot=self.bus.boot, reader_zones=config.reader_zones(), card_key=self._card_key(),
                                ballot_key=secrets.token_bytes(32))
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)

    def _card_key(self) -> bytes:
        try:
            return self.cards.card_key()
        except sqlite3.Error as exc:  # an unwritable database still runs a table: its card ids last this process
            log.error("card id key unreadable (%s): a new one until the table stops", exc)
            return secrets.token_bytes(32)

    def _stored_timers(self) -> dict[tuple[str, str], int]:
        try:
            return self.journal.timer_settings()
        except sqlite3.Error as exc:  # an unreadable journal still runs a table, without timers
            log.error("timer settings unreadable: %s", exc)
            return {}

    def _stored_bindings(self) -> dict[str, int | None]:
        try:
            return self.journal.terminal_bindings()
        except sqlite3.Error as exc:  # an unreadable journal still leaves a table bound as configured
            log.error("terminal bindings unreadable: %s", exc)
            return {}

    # --- what other threads may read (the state is a value: reading it needs no lock) --------------------------

    @property
    def snapshot(self) -> dict[str, Json]:
        """The last public snapshot published."""
        return self.effects.snapshot

    @property
    def state(self) -> TableState:
        """The table state now."""
        return self._state

    @property
    def session(self) -> Session | None:
        """The game in play, or None."""
        return self._state.session

    @property
    def status(self) -> TableStatus:
        """What the table is doing."""
        return self._state.status

    @property
    def enrolling(self) -> bool:
        """Whether the host is enrolling cards."""
        return self._state.enrolling

    @property
    def scan(self) -> list[dict[str, Json]]:
        """Expected vs seen: the zones that differ."""
        return list(self._state.scan)

    @property
    def counters(self) -> Counters:
        """What the table has counted."""
        return self._state.counters

    @property
    def terminals(self) -> TerminalBook:
        """Which terminal serves which seat, and what each was last seen doing."""
        return self._state.terminals

    @property
    def terminals_seen(self) -> dict[str, int | None]:
        """Connected terminals -> the seat each serves (None: unbound)."""
        return self._state.terminals.connected()

    @property
    def alive(self) -> bool:
        """Whether the loop thread runs."""
        return self._thread.is_alive()

    def zone_of(self, reader: str) -> str:
        """The logical zone a reader serves in this game (`center` stands in for a missing shared zone)."""
        return zone_of(reader, self._state.session, self._context.reader_zones, self._state.terminals)

    def seat_prompt(self, seat: int) -> dict[str, Json] | None:
        """The prompt last sent to a seat (read by the seat page)."""
        message = self._state.prompts.get(seat)
        return None if message is None else dict(message)

    def seat_screen(self, seat: int | None) -> dict[str, Json]:
        """What a terminal serving `seat` should show now: the seat's open prompt, else idle (also unbound)."""
        return seat_screen(self._state, seat)

    # --- other threads ------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Boot (replay, scan) and begin taking inputs."""
        self._thread.start()
        self.ready.wait(30)

    def stop(self) -> None:
        """Finish the queued inputs and stop (inputs still waiting to come back are dropped)."""
        self.effects.cancel_later()
        self.inbox.put(None)
        self._thread.join(timeout=5)

    def sink(self, event: Any) -> None:
        """Where the hardware delivers its events."""
        self.inbox.put(event)

    def watch(self, watcher: Callable[[dict[str, Json]], None]) -> None:
        """Hand every new public snapshot to `watcher` too, on the loop thread, after the SSE clients (before
        `start`): it must only hand it on (the venue publisher's mailbox), never wait."""
        self.effects.watchers.append(watcher)

    def post(self, command: Command) -> None:
        """Queue a typed command whose answer nobody waits for (the venue's announcement)."""
        self.inbox.put(Call(command))

    def call(self, command: Command) -> Any:
        """Run a typed command on the loop thread and wait for its answer (a dict or a Refusal)."""
        item = Call(command)
        self.inbox.put(item)
        try:
            return item.future.result(CALL_TIMEOUT_S)
        except TimeoutError:
            return Refusal("busy", "the table did not answer in time")

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Block until every queued input has been handled (tests and the simulator use this)."""
        done = threading.Event()
        future: Future = Future()
        future.add_done_callback(lambda _: done.set())
        self.inbox.put(Call(Ping(), future))
        done.wait(timeout)

    # --- the loop thread ----------------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._boot()
        except Exception:  # a broken journal must still leave a running (idle) table
            log.exception("boot failed")
            self._handle(BootFailed())
        self.ready.set()
        while True:
            group: list[tuple[Any, Step]] = []
            for item in queued(self.inbox):
                if item is None:
                    self._finish_group(group)
                    return
                if takes_alone(item):
                    self._finish_group(group)
                    group = []
                    self._guarded(item, lambda: self._handle(item.command, item))
                    continue
                try:
                    done = step(group[-1][1].state if group else self._state, input_of(item),
                                evolve(self._context, now=time.time()))
                except Exception as exc:
                    self._finish_group(group)
                    group = []
                    self._failed(item, exc)
                    continue
                if joins_group(done):
                    group.append((item, done))  # committed with the other queued inputs' appends
                    continue
                kept = self._finish_group(group)
                group = []
                self._guarded(item, lambda: self._finish(done, call_of(item)) if kept else self._redo(item))
            self._finish_group(group)

    def _redo(self, item: Any) -> None:
        """Handle a queued input (or call) from the state now, as if it had come alone."""
        self._handle(input_of(item), call_of(item))

    def _guarded(self, item: Any, handle: Callable[[], None]) -> None:
        """Handle one input; one bad input never stops the table (it is counted and logged)."""
        try:
            handle()
        except Exception as exc:
            self._failed(item, exc)

    def _failed(self, item: Any, exc: Exception) -> None:
        self._state = count_error(self._state)
        self._log.error(f"input:{type(exc).__name__}", "input failed: %r", item, exc_info=exc)
        if isinstance(item, Call) and not item.future.done():
            item.future.set_result(Refusal("internal", f"internal error: {type(exc).__name__}"))

    def _boot(self) -> None:
        if self.hw.poller:
            self.hw.poller.wait_cycles(2)
        self._drain_resting_tags()
        self._handle(Boot(self.journal.unfinished()))
        if self._state.status == TableStatus.STARTING:  # the default game could not be journaled
            self._handle(BootFailed())

    def _drain_resting_tags(self) -> None:
        """Tags already resting at boot are not inputs: nothing physical is re-fired."""
        kept = []
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if not isinstance(item, (TagPlaced, TagRemoved)):
                kept.append(item)
        for item in kept:
            self.inbox.put(item)

    def _handle(self, item: Input, call: Call | None = None) -> None:
        """Step the core, commit its rows, and only then run its effects and answer."""
        self._finish(step(self._state, item, evolve(self._context, now=time.time())), call)

    def _finish(self, done: Step, call: Call | None = None) -> None:
        """Commit a step's rows (checking they landed in the database at its path), and only then run its effects
        and answer."""
        old = self._state
        wire = encoded(done)
        try:
            if done.rows:
                self.journal.verify()
                for row in done.rows:
                    commit(row, self.journal, self.cards)
                self.journal.verify()
        except (sqlite3.Error, JournalGone) as exc:  # nothing of this step counts: the old state, only the refusal
            code = exc.code if isinstance(exc, JournalGone) else fault_code(exc)
            self._journal_failed(code, exc)
            done = journal_fault(old, done, code, exc.message if isinstance(exc, JournalGone) else
                                 f"The journal could not be written: {exc}")
            wire = encoded(done)
        self._state = done.state
        self.effects.run_lights(self.effects.run_outputs(done.effects, wire))
        if call is not None and not call.future.done():
            call.future.set_result(done.reply)
        if ends_a_game(done.rows):
            self._checkpoint()

    def _finish_group(self, group: list[tuple[Any, Step]]) -> bool:
        """Commit the appends of inputs (and submitted actions) stepped one after another in one transaction (one
        fsync for a burst of ballots or votes), and only then run their effects and answer their calls in order,
        with one state event and one LED scene for the group (its last); True. If that commit fails, nothing of
        it is written and each is handled again on its own, as if none had been grouped; False."""
        if len(group) <= 1:
            for item, done in group:
                self._guarded(item, lambda: self._finish(done, call_of(item)))
            return True
        try:
            skip = superseded([done for _, done in group])
            wires = [encoded(done, skip) for _, done in group]
            self.journal.verify()
            self.journal.append_all([(row.game_id, row.actions, row.end)  # type: ignore[misc]
                                     for _, done in group for row in done.rows if isinstance(row, AppendActions)])
            self.journal.verify()
        except Exception as exc:  # a bug here too: on its own, each input meets it alone (counted, logged)
            self._log.error(f"group:{type(exc).__name__}", "journal write of %d grouped inputs failed (%s): each on "
                            "its own", len(group), exc)
            for item, _ in group:
                self._guarded(item, lambda: self._redo(item))
            return False
        self._state = group[-1][1].state
        lights: list[Effect] = []
        for (item, done), wire in zip(group, wires):
            self._guarded(item, lambda: lights.extend(self.effects.run_outputs(done.effects, wire, skip)))
        self._guarded(group[-1][0], lambda: self.effects.run_lights(lights))
        for item, done in group:
            call = call_of(item)
            if call is not None and not call.future.done():
                call.future.set_result(done.reply)
        if any(ends_a_game(done.rows) for _, done in group):
            self._checkpoint()
        return True

    def _journal_failed(self, code: str, exc: Exception) -> None:
        """Log a failed journal write (once a minute per kind); the first time the files are found gone, tell the
        host page (a `health` event makes it fetch the host state, which says so)."""
        if code == "journal_gone" and not self._told_gone:
            self._told_gone = True
            log.critical("the journal's files are gone (%s): every action is refused until the table is restarted",
                         exc)
            self.bus.publish("health", {"journal": code})
            return
        self._log.error(f"journal:{code}", "journal write failed: %s", exc)

    def _checkpoint(self) -> None:
        """After a game's end, once its outputs are out: the finished game into the database file itself."""
        try:
            self.journal.checkpoint()
        except sqlite3.Error as exc:  # nothing is lost: the log still holds it, and SQLite checkpoints later
            log.warning("checkpoint after a game's end failed: %s", exc)
