"""Which seat terminal serves which seat, and what each terminal was last seen doing.

The table config binds terminals to seats by default (`[[seats]] terminal = "T0"`); the host binds them at
run time from the host page. The host's bindings are journaled and override the config's: a restart keeps
them. Binding a terminal to a seat that already has one *moves* the seat: the old terminal is unbound (and
told it is idle). A TerminalBook is part of the table state: a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from companion.hal.terminal_protocol import is_terminal_id
from companion.table.refusal import Refusal

IDLE: dict[str, Any] = {"v": 1, "type": "idle", "ballot": None, "info": {}}
"""The message that clears a terminal's screen (a fresh copy is sent each time)."""
ANSWERS_KEPT = 16
"""A link's latest verdicts kept, so a choice resent because its answer was lost gets the same answer."""


@dataclass(frozen=True)
class LinkSeq:
    """What the table heard on a terminal's current link (one port, one boot of the terminal): the highest choice
    number, and its answers (ack or error) to the latest choices. Message numbers are the terminal's own: they
    count from 1 on each boot, so a new link starts afresh and another link's numbers never touch this one."""

    link: str
    last: int = 0
    answers: tuple[tuple[int, Mapping[str, Any]], ...] = ()

    def answer_to(self, seq: int) -> Mapping[str, Any] | None:
        """The verdict already given on choice `seq`, if still kept."""
        for number, answer in self.answers:
            if number == seq:
                return answer
        return None

    def answered(self, seq: int, answer: Mapping[str, Any]) -> "LinkSeq":
        """This link after the table's verdict on choice `seq` (the newest ANSWERS_KEPT are kept)."""
        return replace(self, last=max(self.last, seq), answers=(*self.answers, (seq, answer))[-ANSWERS_KEPT:])


@dataclass(frozen=True)
class TerminalSeen:
    """One terminal as the table knows it: connected now or not, its firmware, and when it was last heard."""

    terminal: str
    connected: bool = False
    firmware: str = ""
    last_seen: float | None = None
    last_input: float | None = None
    """When the terminal last sent a choice, by the wall clock (shown to the host as a time of day)."""
    input_seq: int | None = None
    """The book's count of choices heard when this terminal sent its last: the host page highlights the highest
    ("press a button to identify"). A count, not a time: a wall clock set back by NTP cannot reorder it."""
    screen: int = 8
    """Options per screen it declared in its hello (8 for a v1 terminal)."""
    display: bool = False
    faults: str = ""
    """Parts that failed to start on it (reader, display)."""
    clashes: tuple[str, ...] = ()
    """Ports of other devices refused while saying hello as this terminal (still plugged in)."""


def effective_bindings(defaults: Mapping[str, int], stored: Mapping[str, int | None],
                       seat_count: int) -> dict[str, int]:
    """Terminal -> seat: the host's stored bindings first (None: unbound on purpose; a seat this table no longer
    has is dropped), then the config's defaults for terminals the host never touched and seats still free."""
    out: dict[str, int] = {}
    taken: set[int] = set()
    for terminal, seat in sorted(stored.items()):
        if seat is not None and 0 <= seat < seat_count and seat not in taken and is_terminal_id(terminal):
            out[terminal] = seat
            taken.add(seat)
    for terminal, seat in sorted(defaults.items(), key=lambda item: item[1]):
        if terminal not in stored and seat not in taken:
            out[terminal] = seat
            taken.add(seat)
    return out


def check_binding(terminal: Any, seat: Any, seat_count: int) -> tuple[str, int | None]:
    """A valid (terminal, seat or None), else Refusal `bad_terminal` / `bad_seat`."""
    if not is_terminal_id(terminal):
        raise Refusal("bad_terminal", "a terminal id is 1 to 64 letters, digits or _ . : - "
                                            f"(as the terminal announces it), not {terminal!r}"[:200])
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seat_count):
        raise Refusal("bad_seat", f"seat must be null (unbind) or a seat number 0..{seat_count - 1}, "
                                        f"not {seat!r}"[:200])
    return terminal, seat


@dataclass(frozen=True)
class TerminalBook:
    """The terminal -> seat map and every terminal seen since start (bound or host-unbound ones are listed
    even when unseen); a value: every change returns a new book."""

    seat_count: int
    seats: Mapping[str, int]
    host_bound: frozenset[str] = frozenset()
    seen: Mapping[str, TerminalSeen] = field(default_factory=dict)
    inputs: int = 0
    """Choices heard from terminals since start (orders them: TerminalSeen.input_seq)."""

    @classmethod
    def start(cls, defaults: Mapping[str, int], stored: Mapping[str, int | None], seat_count: int) -> "TerminalBook":
        """The book at boot: the host's stored bindings over the config's defaults."""
        return cls(seat_count, effective_bindings(defaults, stored, seat_count), frozenset(stored))

    def seat_of(self, terminal: str) -> int | None:
        """The seat a terminal serves, or None when unbound."""
        return self.seats.get(terminal)

    def terminal_of(self, seat: int) -> str | None:
        """The terminal serving a seat, or None."""
        for terminal, s in self.seats.items():
            if s == seat:
                return terminal
        return None

    def connected(self) -> dict[str, int | None]:
        """Connected terminals -> their seat (None: unbound)."""
        return {t: self.seats.get(t) for t, seen in self.seen.items() if seen.connected}

    def hello(self, terminal: str, firmware: str, now: float, *, screen: int = 8, display: bool = False,
              faults: str = "") -> "TerminalBook":
        """A terminal said hello (plugged in or rebooted), with what it can show and what failed on it."""
        old = self.seen.get(terminal, TerminalSeen(terminal))
        return self._seeing(replace(old, connected=True, firmware=firmware, last_seen=now, screen=screen,
                                    display=display, faults=faults))

    def gone(self, terminal: str, now: float) -> "TerminalBook":
        """A terminal went away (it stays listed, not connected)."""
        old = self.seen.get(terminal, TerminalSeen(terminal))
        return self._seeing(replace(old, connected=False, last_seen=now))

    def clash(self, terminal: str, port: str, present: bool) -> "TerminalBook":
        """A second device on `port` claimed this terminal's id and was refused (`present`), or has gone."""
        old = self.seen.get(terminal, TerminalSeen(terminal))
        ports = tuple(p for p in old.clashes if p != port) + ((port,) if present else ())
        return self._seeing(replace(old, clashes=ports))

    def heard(self, terminal: str, now: float) -> "TerminalBook":
        """A terminal sent a choice (bound or not)."""
        old = self.seen.get(terminal, TerminalSeen(terminal, connected=True))
        book = replace(self, inputs=self.inputs + 1)
        return book._seeing(replace(old, last_seen=now, last_input=now, input_seq=book.inputs))

    def _seeing(self, seen: TerminalSeen) -> "TerminalBook":
        return replace(self, seen={**self.seen, seen.terminal: seen})

    def plan(self, terminal: str, seat: int | None) -> list[tuple[str, int | None]]:
        """The binding rows that put `terminal` on `seat` (None: unbind), moving the seat's old terminal off."""
        rows: list[tuple[str, int | None]] = [(terminal, seat)]
        holder = None if seat is None else self.terminal_of(seat)
        if holder is not None and holder != terminal:
            rows.append((holder, None))
        return rows

    def apply(self, rows: list[tuple[str, int | None]]) -> "TerminalBook":
        """The book after journaled binding rows."""
        seats = dict(self.seats)
        for terminal, seat in rows:
            if seat is None:
                seats.pop(terminal, None)
            else:
                seats[terminal] = seat
        return replace(self, seats=seats, host_bound=self.host_bound | {t for t, _ in rows})

    def rows(self) -> list[dict[str, Any]]:
        """Every terminal seen or bound, for the host page: id, seat (None = unbound), where the binding comes
        from, connected, firmware, last seen and last input (wall-clock seconds, for showing), and `input_seq`
        (which terminal sent a choice last: the highest), and `clashes`: ports of refused devices claiming its id."""
        out = []
        for terminal in sorted(set(self.seen) | set(self.seats) | self.host_bound):
            seen = self.seen.get(terminal, TerminalSeen(terminal))
            out.append({"terminal": terminal, "seat": self.seats.get(terminal),
                        "bound_by": "host" if terminal in self.host_bound else
                        "config" if terminal in self.seats else None,
                        "connected": seen.connected, "firmware": seen.firmware, "last_seen": seen.last_seen,
                        "last_input": seen.last_input, "input_seq": seen.input_seq, "screen": seen.screen,
                        "display": seen.display,
                        "faults": seen.faults, "clashes": list(seen.clashes)})
        return out
