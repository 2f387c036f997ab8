"""The single writer: one thread owns the session; every input arrives on one queue; outputs follow the journal."""

from __future__ import annotations

import logging
import queue
import random
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from companion.config import TableConfig
from companion.games.binding import ORANGE, Card, Chosen, Light, Placed, Pressed, Removed, TableInput
from companion.games.contract import IllegalAction
from companion.hal import (ButtonPressed, Hardware, ReaderFault, TagPlaced, TagRemoved, TerminalChoice,
                           TerminalGone, TerminalHello)
from companion.table.bus import EventBus
from companion.table.cards import CardRegistry
from companion.table.journal import Journal, fault_code, journal_form
from companion.table.leds import LedRenderer
from companion.table.prompts import private_part, prompt
from companion.table.session import Session, auto_chance, check_setup, from_record, new_tokens, table_options
from companion.table.terminals import IDLE, TerminalBook
from companion.web.facade import Refusal

log = logging.getLogger("companion.table")

CALL_TIMEOUT_S = 10.0


@dataclass
class Command:
    """A request from another thread (web, CLI, bench) with a future for its answer."""

    name: str
    args: Mapping[str, Any]
    future: Future = field(default_factory=Future)


@dataclass
class Counters:
    """What the loop has seen (shown in health)."""

    inputs: int = 0
    accepted: int = 0
    rejected: int = 0
    unknown_tags: int = 0
    duplicates: int = 0
    errors: int = 0
    reader_faults: int = 0


class TableLoop:
    """Owns the session, the journal and the outputs; only its thread changes any of them."""

    def __init__(self, config: TableConfig, hardware: Hardware, journal: Journal, cards: CardRegistry,
                 renderer: LedRenderer, rng: random.Random | None = None) -> None:
        self.config = config
        self.hw = hardware
        self.journal = journal
        self.cards = cards
        self.renderer = renderer
        self.rng = rng or random.SystemRandom()
        self.bus = EventBus(lambda: self.snapshot)
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.session: Session | None = None
        self.status = "starting"
        self.snapshot: dict[str, Any] = {"table": {"status": "starting"}, "game": None}
        self.counters = Counters()
        self.enrolling = False
        self.scan: list[dict[str, Any]] = []
        self.ready = threading.Event()
        self._reader_zone = config.reader_zones()
        self.terminals = TerminalBook(config.terminal_seats(), self._stored_bindings(), len(config.seats))
        self._last_seq: dict[str, int] = {}
        self._prompts: dict[int, dict[str, Any]] = {}
        self._ballots = 0
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)

    def _stored_bindings(self) -> dict[str, int | None]:
        try:
            return self.journal.terminal_bindings()
        except sqlite3.Error as exc:  # an unreadable journal still leaves a table bound as configured
            log.error("terminal bindings unreadable: %s", exc)
            return {}

    @property
    def terminals_seen(self) -> dict[str, int | None]:
        """Connected terminals -> the seat each serves (None: unbound)."""
        return self.terminals.connected()

    # --- other threads ------------------------------------------------------------------------

    def start(self) -> None:
        """Boot (replay, scan) and begin taking inputs."""
        self._thread.start()
        self.ready.wait(30)

    def stop(self) -> None:
        """Finish the queued inputs and stop."""
        self.inbox.put(None)
        self._thread.join(timeout=5)

    def sink(self, event: Any) -> None:
        """Where the hardware delivers its events."""
        self.inbox.put(event)

    def call(self, name: str, /, **args: Any) -> Any:
        """Run a command on the loop thread and wait for its answer."""
        cmd = Command(name, args)
        self.inbox.put(cmd)
        try:
            return cmd.future.result(CALL_TIMEOUT_S)
        except TimeoutError:
            return Refusal("busy", "the table did not answer in time")

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Block until every queued input has been handled (tests and the simulator use this)."""
        done = threading.Event()
        self.inbox.put(Command("_ping", {}, _set_when_done(done)))
        done.wait(timeout)

    # --- the loop thread ----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._boot()
        except Exception:  # a broken journal must still leave a running (idle) table
            log.exception("boot failed")
            self.status = "idle"
            self._publish()
        self.ready.set()
        while True:
            item = self.inbox.get()
            if item is None:
                return
            try:
                self._handle(item)
            except Exception as exc:  # one bad input never stops the table
                self.counters.errors += 1
                log.exception("input failed: %r", item)
                if isinstance(item, Command) and not item.future.done():
                    item.future.set_result(Refusal("internal", f"internal error: {type(exc).__name__}"))

    def _boot(self) -> None:
        if self.hw.poller:
            self.hw.poller.wait_cycles(2)
        self._drain_resting_tags()
        record = self.journal.unfinished()
        if record is not None:
            try:
                self.session = from_record(record)
            except ValueError as exc:
                log.error("game %s no longer replays: %s", record.id, exc)
                self.journal.end_game(record.id, "unreplayable", None)
            else:
                self.status = "resume_check"
                self._rescan()
                self._publish()
                return
        game = self.config.game
        result = self._new_game(game.name, game.seats, {}, game.components)
        if isinstance(result, Refusal):
            log.warning("no default game: %s", result.message)
            self.status = "idle"
            self._publish()

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

    def _handle(self, item: Any) -> None:
        if isinstance(item, Command):
            result = self._command(item.name, item.args)
            if not item.future.done():
                item.future.set_result(result)
            return
        self.counters.inputs += 1
        if isinstance(item, TagPlaced):
            self._tag(item.reader, item.uid, placed=True)
        elif isinstance(item, TagRemoved):
            self._tag(item.reader, item.uid, placed=False)
        elif isinstance(item, ButtonPressed):
            self._input(Pressed(item.seat, item.key), f"seat:{item.seat}", f"button:{item.seat}:{item.key}")
        elif isinstance(item, TerminalChoice):
            self._terminal_choice(item)
        elif isinstance(item, TerminalHello):
            self.terminals.hello(item.terminal, item.firmware, time.time())
            self._last_seq.pop(item.terminal, None)  # a rebooted terminal counts from 1 again
            seat = self.terminals.seat_of(item.terminal)
            if seat is not None and seat in self._prompts:
                self.hw.terminals.send(item.terminal, self._prompts[seat])  # resume the open prompt
            self.bus.publish("terminal", {"terminal": item.terminal, "connected": True})
        elif isinstance(item, TerminalGone):
            self.terminals.gone(item.terminal, time.time())
            self.bus.publish("terminal", {"terminal": item.terminal, "connected": False})
        elif isinstance(item, ReaderFault):
            self.counters.reader_faults += 1
            self.bus.publish("health", {"reader": item.reader, "fault": True})

    # --- inputs ---------------------------------------------------------------------------------

    def zone_of(self, reader: str) -> str:
        """The logical zone a reader serves in this game (`center` stands in for a missing shared zone)."""
        zone = self._reader_zone.get(reader, reader)
        if zone == "center" and self.session is not None:
            zones = self.session.binding.zones(self.session.seats)
            if "center" not in zones:
                served = set(self._reader_zone.values())
                missing = [z for z in zones if ":" not in z and z not in served]
                if missing:
                    return missing[0]
        return zone

    def _tag(self, reader: str, uid: str, placed: bool) -> None:
        zone = self.zone_of(reader)
        card = self.cards.get(uid)
        if self.enrolling:
            if placed:
                self.bus.publish("enroll_seen", {"reader": reader, "zone": zone, "uid": uid, "known": card is not None})
            return
        if self.status == "resume_check":
            self._rescan()
            self._publish_scan()
            self._publish()
            return
        if card is None:
            if placed:
                self.counters.unknown_tags += 1
                self.renderer.flash(zone)
                self.bus.publish("unknown_tag", {"zone": zone, "uid": uid})
            return
        event: TableInput = Placed(zone, card) if placed else Removed(zone, card)
        self._input(event, zone, f"reader:{reader}")

    def _terminal_choice(self, item: TerminalChoice) -> None:
        terminal = item.terminal
        self.terminals.heard(terminal, time.time())
        seat = self.terminals.seat_of(terminal)
        if seat is None:  # an unbound terminal's key press only tells the host page which one it is
            self.bus.publish("terminal", {"terminal": terminal, "input": True})
            return
        if not isinstance(item.seq, int) or item.seq <= self._last_seq.get(terminal, 0):
            self.counters.duplicates += 1
            return
        self._last_seq[terminal] = item.seq
        open_prompt = self._prompts.get(seat)
        if open_prompt is None or open_prompt.get("ballot") != item.ballot or item.ballot is None:
            self.hw.terminals.send(terminal, {"v": 1, "type": "error", "ballot": item.ballot, "seq": item.seq,
                                              "code": "stale_ballot", "message": "That prompt is no longer open."})
            return
        options = open_prompt["options"]
        value = item.value
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(options):
            self.hw.terminals.send(terminal, {"v": 1, "type": "error", "ballot": item.ballot, "seq": item.seq,
                                              "code": "bad_choice", "message": "No such option."})
            return
        result = self._input(Chosen(seat, options[value]["action"]), f"seat:{seat}", f"terminal:{terminal}")
        reply: dict[str, Any] = {"v": 1, "type": "ack", "ballot": item.ballot, "seq": item.seq}
        if isinstance(result, Refusal):
            reply = {**reply, "type": "error", "code": result.code, "message": result.message}
        self.hw.terminals.send(terminal, reply)

    def _paused(self) -> Refusal | None:
        if self.session is None:
            return Refusal("no_game", "No game is running.")
        if self.status == "resume_check":
            return Refusal("table_paused", "The table is checking components after a restart; the host resumes it.")
        if self.enrolling:
            return Refusal("table_paused", "The host is enrolling cards.")
        return None

    def _input(self, event: TableInput, zone: str, source: str) -> dict[str, Any] | Refusal:
        """Binding turns the input into actions; the engine judges; accepted ones are journaled, then shown."""
        paused = self._paused()
        if paused:
            self.renderer.flash(zone)
            return paused
        session = self.session
        assert session is not None
        try:
            actions, pending = session.binding.on_input(session.state, session.pending, event, session.mode)
        except IllegalAction as exc:
            return self._reject(zone, exc)
        return self._apply(actions, pending, zone, source)

    def _apply(self, actions: list[dict[str, Any]], pending: Any, zone: str, source: str) -> dict[str, Any] | Refusal:
        session = self.session
        assert session is not None
        state = session.state
        rows: list[tuple[dict[str, Any], str]] = []
        try:
            for action in actions:
                state = session.rules.apply(state, action)
                rows.append((journal_form(session.rules.actions, action), source))
            state, sampled, reserve = auto_chance(session, state, self.rng)
        except IllegalAction as exc:
            self.session = replace(session, pending=pending)  # a refused tile set must be tapped again
            return self._reject(zone, exc)
        rows += [(a, "chance") for a in sampled]
        outcome = session.rules.outcome(state)
        finished = outcome is not None and session.ended is None
        # the game's end goes in the same transaction as the actions that end it: both or neither
        end = ("finished", {"winners": sorted(outcome.winners), "reason": outcome.reason}) if finished else None
        if rows or end:
            try:
                self.journal.append(session.game_id, rows, end)  # committed before anything shows it
            except sqlite3.Error as exc:  # nothing committed: nothing changes, nothing is shown
                return self._journal_refusal(zone, exc)
        self.session = replace(session.with_actions(state, [a for a, _ in rows], pending),
                               reserved_chance=reserve)
        self.counters.accepted += len(rows)
        if finished:
            self.session = replace(self.session, ended="finished")
            self.status = "over"
        if rows:
            self._publish()
        elif pending:  # part of a multi-tile input (how many tiles were tapped is public)
            self.bus.publish("collected", {"zone": zone, "count": len(pending)})
        return {"accepted": len(rows), "pending": pending is not None and bool(pending)}

    def _journal_refusal(self, zone: str, exc: sqlite3.Error) -> Refusal:
        """A journal write failed and committed nothing: refuse with its fault code (journal_full, ...)."""
        log.error("journal write failed: %s", exc)
        self.counters.errors += 1
        return self._reject(zone, IllegalAction(fault_code(exc), f"The journal could not be written: {exc}"))

    def _reject(self, zone: str, exc: IllegalAction) -> Refusal:
        self.counters.rejected += 1
        self.renderer.flash(zone)
        self.bus.publish("rejected", {"zone": zone, "code": exc.code})
        return Refusal(exc.code, exc.message)

    # --- commands -------------------------------------------------------------------------------

    def _command(self, name: str, args: Mapping[str, Any]) -> Any:
        from companion.table import commands  # the host commands live in their own module
        return commands.run(self, name, args)

    def _new_game(self, game: Any, seats: Any, options: Any, mode: Any) -> dict[str, Any] | Refusal:
        from companion.games.binding import get_binding
        try:
            options = table_options(game, options, self.cards.all(), mode)
            rules, state = check_setup(game, seats, options, mode, len(self.config.seats))
        except IllegalAction as exc:
            return Refusal(exc.code, exc.message)
        tokens = new_tokens(seats)
        session = Session(0, rules, get_binding(rules.name), seats, options or {}, mode, tokens, (), state)
        try:
            state, sampled, _ = auto_chance(session, state, self.rng)  # the deal, before anything is written
        except IllegalAction as exc:
            return Refusal(exc.code, exc.message)
        replacing = self.session.game_id if self.session is not None and self.session.ended is None else None
        try:  # ending the replaced game, the new game and its deal: one transaction, all or nothing
            game_id = self.journal.new_game(rules.name, seats, options or {}, mode, tokens,
                                            [(a, "chance") for a in sampled], replacing)
        except sqlite3.Error as exc:  # the running game (if any) goes on as before
            return self._journal_refusal("center", exc)
        self.session = replace(session, game_id=game_id).with_actions(state, sampled, None)
        self.counters.accepted += len(sampled)
        self.status = "running"
        self._prompts.clear()
        self.scan = []
        self._publish()
        return {"accepted": len(sampled), "pending": False, "game_id": game_id}

    # --- outputs --------------------------------------------------------------------------------

    def _rescan(self) -> None:
        """Expected vs seen: what the game expects on each zone against what the readers report."""
        session = self.session
        if session is None:
            self.scan = []
            return
        seen: dict[str, list[tuple[str, str]]] = {}
        for reader, uid in self.hw.present().items():
            if uid is None:
                continue
            card: Card | None = self.cards.get(uid)
            seen.setdefault(self.zone_of(reader), []).append((card.kind, card.value) if card else ("unknown", uid))
        diffs = []
        for zone, cards in sorted(session.binding.expected(session.state).items()):
            got = sorted(seen.get(zone, []))
            if got != sorted(cards):
                diffs.append({"zone": zone, "expected": [list(c) for c in cards], "seen": [list(c) for c in got]})
        self.scan = diffs

    def _publish_scan(self) -> None:
        # public: only which zones differ (a ballot left on a reader must not show its value)
        self.bus.publish("expected_vs_seen", {"zones": [d["zone"] for d in self.scan]})

    def _publish(self) -> None:
        session = self.session
        table = {"status": self.status, "enrolling": self.enrolling, "boot": self.bus.boot,
                 "mismatched_zones": [d["zone"] for d in self.scan] if self.status == "resume_check" else []}
        game = None
        if session is not None:
            view = session.rules.view(session.state, None)
            outcome = session.rules.outcome(session.state)
            game = {"id": session.game_id, "name": session.game, "seats": session.seats, "mode": session.mode,
                    "actions": len(session.actions), "to_act": sorted(session.rules.to_act(session.state)),
                    "outcome": None if outcome is None else {"winners": sorted(outcome.winners),
                                                             "reason": outcome.reason},
                    "view": view, "table_info": session.binding.info(view, session.seats)}
            scene = session.binding.scene(view, session.seats)
            if self.status == "resume_check":  # zones that differ from what the game expects blink orange
                scene.update({d["zone"]: Light(ORANGE, "blink") for d in self.scan})
            self.renderer.set_scene(scene)
            time.sleep(0)  # let the renderer take the GIL now rather than after the prompts are built
        seats = [{"name": s.name, "colour": s.colour} for s in self.config.seats[: session.seats if session else 0]]
        self.snapshot = {"table": table, "game": game, "seats": seats}
        self.bus.publish("state", self.snapshot)
        self._send_prompts(game["view"] if game else None)

    def _send_prompts(self, public: Mapping[str, Any] | None = None) -> None:
        session = self.session
        if session is None:
            return
        running = self.status in ("running", "over") and not self.enrolling
        if public is None:
            public = session.rules.view(session.state, None)
        names = [s.name for s in self.config.seats]
        idle: dict[str, Any] = {"v": 1, "type": "idle", "ballot": None, "info": {}}
        for seat in range(len(self.config.seats)):
            # seats beyond this game's count are told they are idle (no stale prompt from an earlier game)
            message = self.prompt_for(seat, session, public, names, running) if seat < session.seats else idle
            terminal = self.terminals.terminal_of(seat)
            if terminal and self._prompts.get(seat) != message:
                self.hw.terminals.send(terminal, message)
            self._prompts[seat] = message

    def prompt_for(self, seat: int, session: Session, public: Mapping[str, Any], names: list[str],
                   running: bool) -> dict[str, Any]:
        """A seat's prompt; the ballot id stays the same while its choices do."""
        legal = session.rules.legal_actions(session.state, seat) if running else []
        if running:
            legal += session.binding.choices(session.state, seat, session.mode)
        private = private_part(session.rules.view(session.state, seat), public)
        old = self._prompts.get(seat)
        if old and old.get("type") == "prompt" and [o["action"] for o in old["options"]] == legal:
            if old["info"] == private:  # nothing changed for this seat: the same message, labels not rebuilt
                return old
            return {**old, "info": dict(private)}
        self._ballots += 1
        return prompt(f"{session.game_id}.{self._ballots}", legal, names, private)

    def seat_prompt(self, seat: int) -> dict[str, Any] | None:
        """The prompt last sent to a seat (read by the seat page)."""
        return self._prompts.get(seat)

    def seat_screen(self, seat: int | None) -> dict[str, Any]:
        """What a terminal serving `seat` should show now: the seat's open prompt, else idle (also unbound)."""
        message = None if seat is None else self._prompts.get(seat)
        return dict(message) if message is not None else dict(IDLE)


def _set_when_done(done: threading.Event) -> Future:
    future: Future = Future()
    future.add_done_callback(lambda _: done.set())
    return future


