"""The table as the web sees it: implements companion.web.facade.TableFacade (and SimFacade on mock)."""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

from companion.hal.mock import MockHardware, MockTerminalHub, TerminalUnplugged
from companion.hal.terminal_protocol import is_terminal_id
from companion.table.bus import Subscriber
from companion.table.cards import CardError, normalise_uid
from companion.table import hostlink
from companion.table.core.commands import HostState, Submit, parse_as, parse_command, posted_commands
from companion.table.loop import TableLoop
from companion.table.refusal import Refusal
from companion.web.facade import SimFacade
from companion.games.json_value import Json, JsonObject


class TableHandle:
    """Thread-safe entry points into the running table; changes go through the loop's queue."""

    def __init__(self, loop: TableLoop, host_pin: str, data_dir: Path | None = None, venue: Any = None) -> None:
        self.loop = loop
        self._pin = host_pin
        self._data_dir = data_dir
        self._venue = venue
        """The venue publisher (companion.venue.publisher.VenuePublisher) of a table with `[venue]`, else None."""
        self.sim: SimFacade | None = MockSim(loop) if isinstance(loop.hw, MockHardware) else None

    def public_state(self) -> dict[str, Json]:
        """Public snapshot plus hardware health."""
        return {**self.loop.snapshot, "health": self.health()}

    def health(self) -> dict[str, Json]:
        """Hardware and loop health (public: counts and statuses only)."""
        c = self.loop.counters
        return {**self.loop.hw.health(), "sse_clients": self.loop.bus.clients(),
                "loop": {"inputs": c.inputs, "accepted": c.accepted, "rejected": c.rejected, "errors": c.errors,
                         "reader_faults": c.reader_faults, "alive": self.loop.alive},
                "venue": None if self._venue is None else self._venue.state()}

    def subscribe(self, last_event_id: str | None, host: bool = False) -> Subscriber:
        """An SSE feed: the public one, or (`host`) the host's, which adds what only the host may know."""
        return self.loop.bus.subscribe(last_event_id, host)

    def seat_for_token(self, token: str) -> int | None:
        """Constant-time token lookup in the current game."""
        session = self.loop.session
        if session is None or not isinstance(token, str):
            return None
        found = None
        for seat, t in enumerate(session.tokens):
            if hmac.compare_digest(t.encode(), token.encode()):
                found = seat
        return found

    def seat_state(self, seat: int) -> dict[str, Json]:
        """The seat's own view, its open prompt and its last refusal this game (the code only it and the host
        hear)."""
        table = self.loop.state
        session = table.session
        if session is None:
            return {"seat": seat, "view": None, "prompt": None, "refused": None}
        state, revision = session.state, session.revision  # read once: the view and its version agree
        note = table.notes.get(seat)
        bots = table.bots
        bot = bots.game_id == session.game_id and seat in bots.seats
        return {"seat": seat, "game": session.game, "version": f"{session.game_id}.{revision}",
                "view": session.rules.view(state, seat), "prompt": None if bot else self.loop.seat_prompt(seat),
                "refused": None if note is None else dict(note), "bot": bot, "outcome": _outcome(session, state)}

    def submit(self, seat: int | None, action: Any, source: str, version: Any = None) -> dict[str, Json] | Refusal:
        """Judge an action on the loop thread (`version`: the seat state the choice was made on, if known)."""
        command = parse_as(Submit, {"seat": seat, "action": action, "source": source, "version": version})
        return command if isinstance(command, Refusal) else self.loop.call(command)

    def host_state(self) -> dict[str, Json]:
        """Host console data."""
        result = self.loop.call(HostState())
        gone = self.loop.journal.gone  # the host is told when the database is no longer at its path
        journal = {"problem": "journal_gone" if gone else None, "path": str(gone[0]) if gone else None,
                   "what": gone[1] if gone else None}
        if not isinstance(result, dict):
            return {"error": result.code, "health": self.health(), "journal": journal}
        return {**result, "health": self.health(), "journal": journal}

    def posted_commands(self) -> tuple[str, ...]:
        """The host commands the host page may post by name (their dataclasses say so)."""
        return posted_commands()

    def host_command(self, command: str, args: JsonObject) -> dict[str, Json] | Refusal:
        """A host command, checked here once, then run on the loop thread."""
        parsed = parse_command(command, args)
        return parsed if isinstance(parsed, Refusal) else self.loop.call(parsed)

    def check_pin(self, pin: str) -> bool:
        """Constant-time PIN check."""
        return isinstance(pin, str) and hmac.compare_digest(pin.encode(), self._pin.encode())

    def redeem_host_link(self, token: str) -> CompanionError | None:
        """Use a one-time host link made by `companion host-link` (None: it logs in; it is then used up)."""
        if self._data_dir is None:
            return hostlink.HostLinkError("bad_link", "this table takes no host links")
        try:
            hostlink.redeem(self._data_dir, token)
        except hostlink.HostLinkError as exc:
            return exc
        except OSError as exc:
            return hostlink.HostLinkError("bad_link", f"the host link could not be read: {exc.strerror or exc}")
        return None


def _outcome(session: Any, state: Any) -> dict[str, Json] | None:
    """The game's result once it is over (public: everyone sees who won and why), else None."""
    outcome = session.rules.outcome(state)
    return None if outcome is None else {"winners": sorted(outcome.winners), "reason": outcome.reason}


class MockSim:
    """The simulator facade over the mock hardware; waits until the table has handled what it scripted."""

    def __init__(self, loop: TableLoop) -> None:
        self.loop = loop
        assert isinstance(loop.hw, MockHardware)
        self.hw: MockHardware = loop.hw

    def readers(self) -> list[dict[str, Json]]:
        """Readers, zones and resting tags."""
        present = self.hw.present()
        return [{"reader": r.name, "zone": r.zone, "uid": present.get(r.name)} for r in self.loop.config.readers]

    def place(self, reader: str, uid: str) -> Refusal | None:
        """Put a tag on a reader."""
        bad = self._reader(reader)
        if bad:
            return bad
        clean = _clean_uid(uid)
        if isinstance(clean, Refusal):
            return clean
        self.hw.place(reader, clean)
        self.loop.wait_idle()
        return None

    def remove(self, reader: str) -> Refusal | None:
        """Take a tag off a reader."""
        bad = self._reader(reader)
        if bad:
            return bad
        self.hw.remove(reader)
        self.loop.wait_idle()
        return None

    def press(self, seat: int, key: str) -> Refusal | None:
        """Press a configured button."""
        try:
            self.hw.press(seat, key)
        except KeyError as exc:
            return Refusal("unknown_button", str(exc.args[0]))
        self.loop.wait_idle()
        return None

    def buttons(self) -> list[dict[str, Json]]:
        """The configured buttons, seat by seat."""
        return [{"seat": b.seat, "key": b.key} for b in sorted(self.loop.config.buttons, key=lambda b: (b.seat, b.pin))]

    def terminal(self, terminal: str, op: str, ballot: str | None, value: Any, seq: int | None) -> Refusal | None:
        """connect / disconnect / choose on a mock terminal."""
        bad = _bad_terminal(terminal)
        if bad:
            return bad
        if not isinstance(self.hw.terminals, MockTerminalHub):
            return Refusal("real_terminals", "this table's terminals are real ([terminals] ports): press their buttons")
        hub = self.hw.mock_terminals
        if op == "connect":
            hub.connect(terminal)
        elif op == "disconnect":
            hub.disconnect(terminal)
        elif op == "choose":
            if ballot is None:
                return Refusal("bad_field", "choose needs a ballot")
            try:
                hub.choose(terminal, ballot, value, seq)
            except TerminalUnplugged as exc:
                return Refusal(exc.code, exc.message)
        else:
            return Refusal("bad_field", "op is connect, disconnect, choose or tap")
        self.loop.wait_idle()
        return None

    def tap_terminal(self, terminal: str, uid: str) -> str | Refusal:
        """Hold a tag to a plugged-in mock terminal's own reader and take it away; the UID as tapped."""
        bad = _bad_terminal(terminal)
        if bad:
            return bad
        if not isinstance(self.hw.terminals, MockTerminalHub):
            return Refusal("real_terminals", "this table's terminals are real ([terminals] ports): tap their readers")
        clean = _clean_uid(uid)
        if isinstance(clean, Refusal):
            return clean
        try:
            self.hw.tap_at_terminal(terminal, clean)
        except TerminalUnplugged as exc:  # the mock hub refuses as a real one would: it hears nothing
            return Refusal(exc.code, exc.message)
        self.loop.wait_idle()
        return clean

    def fail_reader(self, reader: str, times: int) -> Refusal | None:
        """Script a reader failure (0 heals)."""
        bad = self._reader(reader)
        if bad:
            return bad
        if times == 0:
            self.hw.heal_reader(reader)
        else:
            self.hw.fail_reader(reader, times)
        return None

    def leds(self) -> dict[str, Json]:
        """The current frame and the zone layout."""
        frame = self.hw.mock_strip.last() or ()
        return {"pixels": [list(p) for p in frame],
                "zones": [{"zone": z.zone, "start": z.start, "count": z.count} for z in self.loop.config.leds.zones]}

    def terminal_messages(self, terminal: str) -> list[dict[str, Json]] | Refusal:
        """Messages sent to a mock terminal."""
        bad = _bad_terminal(terminal)
        if bad:
            return bad
        if not isinstance(self.hw.terminals, MockTerminalHub):
            return Refusal("real_terminals", "this table's terminals are real ([terminals] ports)")
        return list(self.hw.mock_terminals.sent.get(terminal, []))[-50:]

    def _reader(self, reader: str) -> Refusal | None:
        if reader not in self.loop.config.reader_zones():
            return Refusal("unknown_reader", f"no reader {reader!r} (readers: "
                                             f"{', '.join(self.loop.config.reader_zones())})")
        return None


def _clean_uid(uid: str) -> str | Refusal:
    """The UID as the table spells it, or the refusal of one no tag can have."""
    try:
        return normalise_uid(uid)
    except CardError as exc:
        return Refusal(exc.code, exc.message)


def _bad_terminal(terminal: str) -> Refusal | None:
    """Any id a real terminal could announce may be plugged into the simulator (then bound from the host page)."""
    if is_terminal_id(terminal):
        return None
    return Refusal("bad_terminal", f"{terminal!r} is not a terminal id (1 to 64 letters, digits or _ . : -)"[:200])
