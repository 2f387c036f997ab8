"""The one code path between the table and its seat terminals; a hub differs only in its transport.

The table speaks dicts ({"type": "prompt", "options": [{"value": 0, "label": .., "group": ..}]} ...); each
terminal is shown what fits its declared capability (companion.hal.terminal_screens), through the protocol's
encoder and limits. Navigation choices are answered here, without the table; a choice of an option goes to
the table with the table's ballot and value. Sending never raises: a failure to send to one terminal is
counted and reported for that terminal (`problems`, `last_problem`), and the caller moves on to the next.
A terminal's own reader is a TagReader (`terminal:<id>`) that the shared poller debounces like a Pi reader.
"""

from __future__ import annotations

import logging
import threading
from abc import abstractmethod
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from companion.hal import terminal_protocol as proto
from companion.hal import terminal_screens as screens
from companion.hal.events import READER_PREFIX, HalEvent, Sink, TerminalChoice, TerminalHello
from companion.hal.interfaces import TagReader, TerminalHub
from companion.ratelog import RateLimitedLog

log = logging.getLogger("companion.hal.terminals")


def reader_name(terminal: str) -> str:
    """The name of a terminal's own reader (the table maps it to the bound seat's zone)."""
    return READER_PREFIX + terminal


class TerminalReader(TagReader):
    """A terminal's own reader as the poller sees it: the tag the terminal last reported, until it says untag."""

    def __init__(self, terminal: str) -> None:
        self.name = reader_name(terminal)
        self.uid: str | None = None
        self.several = False

    def poll(self) -> str | None:
        """The tag the terminal reports now, upper-case like a Pi reader's UID."""
        return self.uid

    def crowded(self) -> bool:
        """Whether the terminal says two or more tags are on its reader."""
        return self.several


@dataclass
class _Seat:
    """One terminal as the hub holds it: its capability, the table's open prompt, and the screen it shows."""

    cap: screens.Capability = screens.Capability()
    ballot: str | None = None
    options: tuple[Mapping[str, Any], ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    plan: screens.Layout | None = None
    place: screens.Place = screens.Place()
    shown: int = 0
    wire: str | None = None
    largest_line: int = 0


class ScreenHub(TerminalHub):
    """Table messages to screens and back, for every transport; subclasses move the wire messages."""

    def __init__(self) -> None:
        self._seats: dict[str, _Seat] = {}
        self._readers: dict[str, TerminalReader] = {}
        self._shown: dict[str, proto.Message] = {}
        self._link_ids: dict[str, str] = {}
        """Each terminal's current link (port and boot), as its hello named it."""
        self._hub_lock = threading.RLock()
        self._sink: Sink | None = None
        self.problems = 0
        self.last_problem: dict[str, str] = {}
        self._log = RateLimitedLog(log)  # a terminal sending junk is counted, not logged line by line

    # -- the transport -------------------------------------------------------------------------------------

    @abstractmethod
    def _show(self, terminal: str, message: proto.Message) -> bool:
        """Make a Prompt or Phone the terminal's screen (kept for a reconnect), or Close it; False if not sent."""

    @abstractmethod
    def _write(self, terminal: str, message: proto.Message) -> bool:
        """Send one message now; False when the terminal is not connected."""

    def _close_screen(self, terminal: str, wire_ballot: str) -> bool:
        """Close the screen showing `wire_ballot`."""
        return self._show(terminal, proto.Close(wire_ballot))

    # -- what the table calls --------------------------------------------------------------------------------

    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Show a table message on a terminal, as fits it; False (and a reported problem) when it did not go."""
        kind = message.get("type")
        try:
            if kind == "prompt":
                return self._open(terminal, str(message["ballot"]), tuple(message["options"]))
            if kind == "idle":
                with self._hub_lock:
                    seat = self._seat(terminal)
                    wire, seat.ballot, seat.wire, seat.plan, seat.values = seat.wire, None, None, None, {}
                return self._close_screen(terminal, wire) if wire else self._connected(terminal)
            if kind == "ack":
                return self._write(terminal, proto.Ack(int(message["seq"])))
            if kind == "error":
                code = str(message.get("code", "refused"))
                return self._write(terminal, proto.Error(int(message["seq"]), code if proto.is_terminal_id(code)
                                                         else "refused"))
            raise ValueError(f"unknown message type {kind!r}")
        except (proto.ProtocolError, KeyError, TypeError, ValueError) as exc:
            self.report(terminal, getattr(exc, "code", "bad_message"), f"{kind}: {exc}")
            return False

    def report(self, terminal: str, code: str, detail: str) -> None:
        """Count a problem with one terminal (the host page shows the last one per terminal)."""
        with self._hub_lock:
            self.problems += 1
            self.last_problem[terminal] = code
        self._log.warning(f"{terminal}:{code}", "terminal %s: %s %s", terminal, code, detail)

    def readers(self) -> Sequence[TagReader]:
        """The terminals' own readers seen so far."""
        with self._hub_lock:
            return list(self._readers.values())

    def showing(self, terminal: str) -> proto.Message | None:
        """The screen last sent to a terminal (a Prompt or Phone; None once closed or never)."""
        with self._hub_lock:
            seat = self._seats.get(terminal)
            return self._shown.get(terminal) if seat is not None and seat.ballot is not None else None

    def largest_line(self) -> int:
        """The longest screen line sent so far, in bytes (a figure for the README)."""
        with self._hub_lock:
            return max((s.largest_line for s in self._seats.values()), default=0)

    def screen_health(self) -> dict[str, Any]:
        """Per terminal: its capability and the last problem (JSON-able)."""
        with self._hub_lock:
            return {"problems": self.problems,
                    "screens": {t: {"proto": s.cap.version, "screen": s.cap.screen, "display": s.cap.display,
                                    "faults": s.cap.faults, "phone": s.ballot is not None and s.plan is None,
                                    "last_problem": self.last_problem.get(t, "")} for t, s in self._seats.items()}}

    # -- what the transport calls ----------------------------------------------------------------------------

    def on_hello(self, terminal: str, hello: proto.Hello, link: str = "") -> TerminalHello:
        """A terminal said hello on `link`: remember what it can show (re-laying out an open prompt if that
        changed)."""
        cap = screens.Capability.of(hello)
        with self._hub_lock:
            self._link_ids[terminal] = link
            seat = self._seat(terminal)
            changed = cap != seat.cap
            seat.cap = cap
            if changed and seat.ballot is not None:
                seat.plan = screens.layout(seat.options, cap)
                seat.place = screens.Place()
        if changed and seat.ballot is not None:
            self._present(terminal)
        return TerminalHello(terminal, hello.fw, cap.screen, cap.display, cap.faults, link)

    def on_choice(self, terminal: str, choice: proto.Choice, link: str | None = None) -> HalEvent | None:
        """A choice from a terminal: a page turn is shown and acked here (None); an option is the table's
        TerminalChoice (the table answers it once decided)."""
        with self._hub_lock:
            link = self._link_ids.get(terminal, "") if link is None else link
            seat = self._seats.get(terminal)
            if seat is None or seat.ballot is None:
                return TerminalChoice(terminal, choice.ballot, choice.seq, choice.value, link)
            current = choice.ballot == seat.wire
            nav = choice.value.startswith(screens.NAV)
            if not nav:
                same_prompt = choice.ballot.rpartition(":")[0] == seat.ballot
                value = seat.values[choice.value] if same_prompt and choice.value in seat.values else None
                if value is not None:
                    return TerminalChoice(terminal, seat.ballot, choice.seq, value, link)
                return TerminalChoice(terminal, choice.ballot, choice.seq, choice.value, link)
            # a page turn pressed on a page already replaced has nothing to do: it is only acked
            place = None
            if current and seat.plan is not None:
                place = screens.navigate(seat.plan, seat.place, choice.value, seat.cap)
            refuse = current and place is None and choice.value != screens.PHONE
            if place is not None:
                seat.place = place
        self._write(terminal, proto.Error(choice.seq, "bad_choice") if refuse else proto.Ack(choice.seq))
        if current and not refuse:
            self._present(terminal)
        return None

    def on_tag(self, terminal: str, uid: str | None) -> None:
        """The terminal's reader reported a tag (or lost it)."""
        with self._hub_lock:
            reader = self._readers.setdefault(terminal, TerminalReader(terminal))
            reader.uid = None if uid is None else uid.upper()

    def on_crowd(self, terminal: str, on: bool) -> None:
        """The terminal's reader has several tags at once (the poller reports it like a Pi reader's)."""
        with self._hub_lock:
            self._readers.setdefault(terminal, TerminalReader(terminal)).several = on

    def on_gone(self, terminal: str) -> None:
        """The terminal went away: its reader holds nothing any more."""
        with self._hub_lock:
            if terminal in self._readers:
                self._readers[terminal].uid = None
                self._readers[terminal].several = False

    # -- internals -------------------------------------------------------------------------------------------

    def _seat(self, terminal: str) -> _Seat:
        return self._seats.setdefault(terminal, _Seat())

    def _connected(self, terminal: str) -> bool:
        return terminal in self.connected()

    def _open(self, terminal: str, ballot: str, options: tuple[Mapping[str, Any], ...]) -> bool:
        if not proto.is_terminal_id(f"{ballot}:{10 ** 9}"):  # room for the screen number, checked before anything
            raise proto.ProtocolError("bad_field", f"ballot {ballot[:80]!r}")
        with self._hub_lock:
            seat = self._seat(terminal)
            seat.values = {str(o["value"]): o["value"] for o in options}
            if seat.ballot != ballot or seat.options != options:
                seat.plan = screens.layout(options, seat.cap)
                seat.place = screens.Place()
            seat.ballot, seat.options = ballot, options
        return self._present(terminal)

    def _present(self, terminal: str) -> bool:
        """Show the terminal its screen now: a new wire ballot each time."""
        with self._hub_lock:
            seat = self._seat(terminal)
            if seat.ballot is None:
                return False
            seat.shown += 1
            seat.wire = f"{seat.ballot}:{seat.shown}"
            if seat.plan is None:
                message = screens.phone_message(seat.wire, seat.cap)
            else:
                title, entries = screens.screen_at(seat.plan, seat.place, seat.cap)
                try:
                    message = screens.prompt_message(seat.wire, title, entries, seat.cap)
                except proto.ProtocolError as exc:
                    if exc.code != "too_long":
                        raise
                    self.report(terminal, exc.code, "screen does not fit: the phone holds the prompt")
                    seat.plan = None
                    message = screens.phone_message(seat.wire, seat.cap)
            seat.largest_line = max(seat.largest_line, len(proto.encode(message)))
        sent = self._show(terminal, message)
        # recorded once written, so `showing` never names a screen the terminal cannot have yet (a test that
        # pressed on it raced the write); a newer screen composed meanwhile is the one to name
        with self._hub_lock:
            if seat.wire == message.ballot:
                self._shown[terminal] = message
        return sent

    def _deliver(self, event: HalEvent | None) -> None:
        sink = self._sink
        if sink is not None and event is not None:
            sink(event)
