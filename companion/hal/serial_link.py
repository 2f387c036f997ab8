"""One seat terminal's serial port: open it, say hello, keep the heartbeat, reconnect after unplug.

A link opens its port with `exclusive=True`, says hello, and after the terminal's hello re-sends the open
prompt. Unplugging shows as SerialException: the link closes and reopens the same (stable, by-id) path with
backoff 50 ms -> 2 s. A hung terminal raises nothing, so a terminal silent for `stale_s` is dropped and
reopened. Malformed lines are reported with the protocol's stable code and survived.

A hello must win its id (`claim`): a second device saying hello as a terminal already connected on another port
is answered `error` seq 0 `duplicate_id`, is never greeted (nothing it sends is passed on) and is reported as a
LinkClash until it goes. A choice is passed on *unanswered*: the table acks it once its verdict is in, or
refuses it (companion.table.core.step), and drops duplicates by their sequence number per link: the port and the
terminal's boot nonce (`link`), so a hello from a new boot makes a new link that counts from 1 again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.hal import terminal_protocol as proto

HOST_FW = "table-companion 0.1.0"


class Port(Protocol):
    """The part of serial.Serial a link uses."""

    def read(self, size: int = 1) -> bytes:
        """Up to `size` bytes, waiting at most the port's timeout."""
        ...

    def write(self, data: bytes) -> int | None:
        """Send bytes."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


@dataclass(frozen=True)
class LinkUp:
    """A terminal said hello on a port."""

    path: str
    terminal: str
    fw: str
    hello: proto.Hello | None = None
    link: str = ""
    """This port and the terminal's boot (`path#nonce`): its message numbers count from 1."""


@dataclass(frozen=True)
class LinkDown:
    """A terminal went away: `reason` is unplugged, stale or stopped."""

    path: str
    terminal: str | None
    reason: str


@dataclass(frozen=True)
class LinkChoice:
    """A confirmed choice (a resent one too: the table drops duplicates by `seq`)."""

    terminal: str
    ballot: str
    seq: int
    value: str
    link: str = ""


@dataclass(frozen=True)
class LinkClash:
    """A device on `path` said hello as `terminal`, whose id another port holds: refused (`present`), or it has
    gone or given it up (False)."""

    path: str
    terminal: str
    present: bool = True


@dataclass(frozen=True)
class LinkTag:
    """The terminal's own reader saw a tag."""

    terminal: str
    uid: bytes | None
    """None: the reader lost its tag (protocol 2 `untag`)."""


@dataclass(frozen=True)
class LinkProblem:
    """Something arrived that was not a valid message; `code` is the protocol's stable code."""

    path: str
    code: str
    detail: str


@dataclass(frozen=True)
class LinkCrowd:
    """The terminal's own reader has several tags at once (`on`), or no longer."""

    terminal: str
    on: bool


LinkEvent = LinkUp | LinkDown | LinkChoice | LinkClash | LinkTag | LinkCrowd | LinkProblem


def open_serial(path: str, timeout_s: float) -> Port:
    """Open a terminal's port the way the links do: exclusive, short read timeout."""
    import serial  # pyserial is a runtime dependency; imported here so protocol users need not load it

    return serial.Serial(path, baudrate=115200, timeout=timeout_s, write_timeout=0.5, exclusive=True)


def screen_number(ballot: str) -> int:
    """The screen number of a hub's wire ballot (`<table ballot>:<n>`), or -1 for any other ballot."""
    tail = ballot.rpartition(":")[2]
    return int(tail) if ":" in ballot and tail.isdigit() else -1


def _is_unplug(exc: BaseException) -> bool:
    """Whether an exception means the device went away (SerialException or an OS error on the tty)."""
    return isinstance(exc, OSError) or type(exc).__name__ in ("SerialException", "SerialTimeoutException", "PortNotOpenError")


@dataclass(frozen=True)
class LinkHealth:
    """One link as the host page shows it."""

    path: str
    connected: bool
    terminal: str | None
    fw: str
    last_heard_s: float | None
    reconnects: int
    malformed: int
    last_problem: str
    refused: str = ""
    """The id a device on this port claimed while another port held it ("" when none)."""


class TerminalLink:
    """One serial port that a terminal lives on; `step(now)` does one turn, `run()` loops in a thread."""

    def __init__(
        self,
        path: str,
        emit: Callable[[LinkEvent], None],
        *,
        opener: Callable[[str, float], Port] = open_serial,
        ping_s: float = 1.0,
        stale_s: float = 3.0,
        backoff_s: tuple[float, float] = (0.05, 2.0),
        read_timeout_s: float = 0.05,
        claim: Callable[[str, str], bool] = lambda path, terminal: True,
    ) -> None:
        self.path = path
        self._emit = emit
        self._claim = claim
        self._opener = opener
        self._ping_s = ping_s
        self._stale_s = stale_s
        self._backoff = backoff_s
        self._read_timeout = read_timeout_s
        self._lock = threading.RLock()
        self._port: Port | None = None
        self._lines = proto.LineBuffer()
        self._retry_at = 0.0
        self._delay = backoff_s[0]
        self._opened_at = 0.0
        self._last_rx: float | None = None
        self._last_ping = 0.0
        self._ping_n = 0
        self._terminal: str | None = None
        self._fw = ""
        self._boot = 0
        self._link = ""
        self._refused = ""
        self._greeted = False
        self._prompt: proto.Prompt | proto.Phone | None = None
        self._last_screen = -1
        self._reconnects = 0
        self._malformed = 0
        self._last_problem = ""
        self.last_turn = 0.0

    # -- what the table asks -----------------------------------------------------------------------------

    @property
    def terminal(self) -> str | None:
        """The id of the terminal on this port, once it said hello."""
        return self._terminal

    @property
    def connected(self) -> bool:
        """Whether a terminal is on the port and has said hello."""
        return self._port is not None and self._greeted

    def prompt(self, ballot: str, options: Sequence[proto.Option | tuple[str, str]]) -> None:
        """Open a ballot on this terminal (kept and re-sent after every reconnect until closed)."""
        opts = tuple(o if isinstance(o, proto.Option) else proto.Option(*o) for o in options)
        message = proto.Prompt(ballot, opts)
        proto.encode(message)  # refuse a bad prompt here, in the caller's thread
        with self._lock:
            self._prompt = message
            if self.connected:
                self._send(message)

    def show(self, message: proto.Prompt | proto.Phone) -> bool:
        """Make `message` the screen (re-sent after every reconnect until closed); False when not sent now.

        Screens are numbered (`<ballot>:<n>`): one numbered no later than a screen already shown or closed
        lost a race between two threads and is dropped, so the terminal never goes back to an older page."""
        proto.encode(message)
        number = screen_number(message.ballot)
        with self._lock:
            if number >= 0:
                if number <= self._last_screen:
                    return self.connected
                self._last_screen = number
            self._prompt = message
            if not self.connected:
                return False
            self._send(message)
            return self.connected

    def send(self, message: proto.Message) -> bool:
        """Send one message now if a terminal is connected; False otherwise (never raises for a gone device)."""
        proto.encode(message)
        with self._lock:
            if not self.connected:
                return False
            self._send(message)
            return self.connected

    def close_prompt(self, ballot: str) -> None:
        """Close a ballot (if it is the open one)."""
        with self._lock:
            self._last_screen = max(self._last_screen, screen_number(ballot))
            if self._prompt is not None and self._prompt.ballot == ballot:
                self._prompt = None
                if self.connected:
                    self._send(proto.Close(ballot))

    def health(self, now: float) -> LinkHealth:
        """A snapshot for the host page."""
        with self._lock:
            return LinkHealth(self.path, self.connected, self._terminal, self._fw,
                              round(now - self._last_rx, 3) if self._last_rx is not None else None,
                              self._reconnects, self._malformed, self._last_problem, self._refused)

    # -- one turn ----------------------------------------------------------------------------------------

    def step(self, now: float) -> None:
        """Open the port if due, read what arrived, keep the heartbeat, drop a silent terminal."""
        self.last_turn = now
        with self._lock:
            if self._port is None:
                if now >= self._retry_at:
                    self._open(now)
                return
            port = self._port
        try:
            # one byte waits at most the port timeout; then what has arrived is taken at once (a read of 4096
            # would sit out the whole timeout on every line: 50 ms added to each round trip)
            data = port.read(1)
            waiting = getattr(port, "in_waiting", 0) if data else 0
            if isinstance(waiting, int) and waiting > 0:
                data += port.read(min(waiting, 4096))
        except Exception as exc:  # noqa: BLE001 - pyserial raises SerialException or OSError on unplug
            if not _is_unplug(exc):
                raise
            self._drop(now, "unplugged")
            return
        with self._lock:
            if self._port is not port:
                return
            if data:
                self._last_rx = now
                for line in self._lines.feed(data):
                    self._handle(line, now)
            if self._port is None:
                return
            if now - self._last_ping >= self._ping_s:
                self._ping_n = (self._ping_n + 1) & 0x7FFFFFFF
                self._send(proto.Ping(self._ping_n))
                self._last_ping = now
            heard = self._last_rx if self._last_rx is not None else self._opened_at
            if self._port is not None and now - heard > self._stale_s:
                self._drop(now, "stale", retry_now=True)

    def run(self, stop: threading.Event, *, beat: Callable[[], None] = lambda: None,
            monotonic: Callable[[], float] = time.monotonic) -> None:
        """Loop until `stop` is set; reads block for at most the port timeout."""
        while not stop.is_set():
            self.step(monotonic())
            beat()
            if self._port is None:
                stop.wait(max(0.0, min(self._retry_at - monotonic(), 0.05)))
        self.stop()

    def stop(self) -> None:
        """Close the port for good."""
        with self._lock:
            if self._port is not None:
                self._close()
                self._emit(LinkDown(self.path, self._terminal, "stopped"))

    # -- internals ---------------------------------------------------------------------------------------

    def _open(self, now: float) -> None:
        try:
            port = self._opener(self.path, self._read_timeout)
        except Exception as exc:  # noqa: BLE001 - missing device, busy (exclusive), permissions
            if not _is_unplug(exc) and not isinstance(exc, ValueError):
                raise
            self._retry_at = now + self._delay
            self._delay = min(self._backoff[1], self._delay * 2)
            return
        self._port = port
        self._lines = proto.LineBuffer()
        self._opened_at = now
        self._last_rx = None
        self._last_ping = now
        self._greeted = False
        self._send(proto.Hello("pi", HOST_FW, 0))

    def _send(self, message: proto.Message) -> None:
        port = self._port
        if port is None:
            return
        try:
            port.write(proto.encode(message))
        except Exception as exc:  # noqa: BLE001
            if not _is_unplug(exc):
                raise
            self._drop(time.monotonic(), "unplugged")

    def _close(self) -> None:
        port, self._port = self._port, None
        self._greeted = False
        if self._refused:  # the refused device went with the port
            refused, self._refused = self._refused, ""
            self._emit(LinkClash(self.path, refused, False))
        if port is not None:
            try:
                port.close()
            except Exception:  # noqa: BLE001 - the device is already gone; closing is best effort
                pass

    def _drop(self, now: float, reason: str, retry_now: bool = False) -> None:
        with self._lock:
            if self._port is None:
                return
            self._close()
            self._reconnects += 1
            self._retry_at = now if retry_now else now + self._delay
            self._delay = min(self._backoff[1], self._delay * 2)
        self._emit(LinkDown(self.path, self._terminal, reason))

    def _problem(self, code: str, detail: str) -> None:
        self._malformed += 1
        self._last_problem = code
        self._emit(LinkProblem(self.path, code, detail))

    def _hello(self, message: proto.Hello) -> None:
        """A terminal introduced itself: greeted if its id is free (or already this port's), else refused."""
        if not self._claim(self.path, message.id):
            if self._greeted and self._terminal is not None:  # this port's terminal renamed itself to a taken id
                self._emit(LinkDown(self.path, self._terminal, "refused"))
            self._greeted, self._terminal, self._prompt, self._last_screen = False, None, None, -1
            self._send(proto.Error(0, "duplicate_id"))
            if self._refused != message.id:
                if self._refused:
                    self._emit(LinkClash(self.path, self._refused, False))
                self._refused = message.id
                self._emit(LinkClash(self.path, message.id, True))
            return
        if self._refused:
            refused, self._refused = self._refused, ""
            self._emit(LinkClash(self.path, refused, False))
        if self._terminal is not None and message.id != self._terminal:
            self._prompt = None  # another terminal on this port: the hub decides what it is asked
            self._last_screen = -1
        link = f"{self.path}#{message.nonce if message.nonce is not None else message.boot}"
        # a hello from a new boot is news too: the terminal numbers its messages from 1 again
        news = not self._greeted or link != self._link or message.id != self._terminal
        self._terminal, self._fw, self._boot, self._link = message.id, message.fw, message.boot, link
        self._greeted = True
        self._delay = self._backoff[0]
        if news:
            self._emit(LinkUp(self.path, message.id, message.fw, message, link))
        if self._prompt is not None:
            self._send(self._prompt)

    def _handle(self, line: bytes | None, now: float) -> None:
        if line is None:
            self._problem("too_long", f"line over {proto.MAX_LINE} bytes")
            return
        try:
            message = proto.decode(line)
        except proto.ProtocolError as exc:
            self._problem(exc.code, exc.detail)
            return
        if isinstance(message, proto.Hello):
            self._hello(message)
            return
        if not self._greeted or self._terminal is None:
            self._problem("no_hello", f"{message.TYPE} before hello")
            return
        if isinstance(message, proto.Ping):
            self._send(proto.Pong(message.n))
        elif isinstance(message, proto.Choice):
            self._emit(LinkChoice(self._terminal, message.ballot, message.seq, message.value, self._link))
        elif isinstance(message, proto.Tag | proto.Untag | proto.Crowd):
            self._send(proto.Ack(message.seq))  # the reader's news is taken as it is: no verdict to wait for
            if isinstance(message, proto.Crowd):
                self._emit(LinkCrowd(self._terminal, message.on))
            else:
                self._emit(LinkTag(self._terminal, bytes.fromhex(message.uid) if isinstance(message, proto.Tag)
                                   else None))
        elif isinstance(message, proto.Pong | proto.Ack):
            pass
        else:
            self._problem("unexpected", f"{message.TYPE} from a terminal")
