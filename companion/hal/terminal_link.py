"""Seat terminals on USB serial: one link per port, reconnect after unplug, heartbeats, seat binding.

A link opens its port with `exclusive=True`, says hello, and after the terminal's hello re-sends the open
prompt. Unplugging shows as SerialException: the link closes and reopens the same (stable, by-id) path with
backoff 50 ms -> 2 s. A hung terminal raises nothing, so a terminal silent for `stale_s` is dropped and
reopened. Malformed lines are reported with the protocol's stable code and survived.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.hal import terminal_protocol as proto
from companion.hal.events import TerminalChoice, TerminalGone, TerminalHello
from companion.hal.interfaces import TerminalHub

log = logging.getLogger("companion.hal.terminals")

PICO_VID = 0x2E8A
PICO_PID = 0x0005
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


@dataclass(frozen=True)
class LinkDown:
    """A terminal went away: `reason` is unplugged, stale or stopped."""

    path: str
    terminal: str | None
    reason: str


@dataclass(frozen=True)
class LinkChoice:
    """A confirmed choice (duplicates already dropped)."""

    terminal: str
    ballot: str
    seq: int
    value: str


@dataclass(frozen=True)
class LinkTag:
    """The terminal's own reader saw a tag."""

    terminal: str
    uid: bytes


@dataclass(frozen=True)
class LinkProblem:
    """Something arrived that was not a valid message; `code` is the protocol's stable code."""

    path: str
    code: str
    detail: str


LinkEvent = LinkUp | LinkDown | LinkChoice | LinkTag | LinkProblem


class SeqFilter:
    """Drops messages already seen: the highest seq per (terminal, boot), shared by every link."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def fresh(self, terminal: str, boot: int, seq: int) -> bool:
        """Whether `seq` is new for this terminal's current boot (and remember it)."""
        with self._lock:
            key = (terminal, boot)
            if seq <= self._seen.get(key, 0):
                return False
            self._seen[key] = seq
            return True


def open_serial(path: str, timeout_s: float) -> Port:
    """Open a terminal's port the way the links do: exclusive, short read timeout."""
    import serial  # pyserial is a runtime dependency; imported here so protocol users need not load it

    return serial.Serial(path, baudrate=115200, timeout=timeout_s, write_timeout=0.5, exclusive=True)


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


class TerminalLink:
    """One serial port that a terminal lives on; `step(now)` does one turn, `run()` loops in a thread."""

    def __init__(
        self,
        path: str,
        emit: Callable[[LinkEvent], None],
        *,
        seqs: SeqFilter | None = None,
        opener: Callable[[str, float], Port] = open_serial,
        ping_s: float = 1.0,
        stale_s: float = 3.0,
        backoff_s: tuple[float, float] = (0.05, 2.0),
        read_timeout_s: float = 0.05,
    ) -> None:
        self.path = path
        self._emit = emit
        self._seqs = seqs or SeqFilter()
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
        self._greeted = False
        self._prompt: proto.Prompt | None = None
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
            if self._prompt is not None and self._prompt.ballot == ballot:
                self._prompt = None
                if self.connected:
                    self._send(proto.Close(ballot))

    def health(self, now: float) -> LinkHealth:
        """A snapshot for the host page."""
        with self._lock:
            return LinkHealth(self.path, self.connected, self._terminal, self._fw,
                              round(now - self._last_rx, 3) if self._last_rx is not None else None,
                              self._reconnects, self._malformed, self._last_problem)

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
            data = port.read(4096)
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
            if self._terminal is not None and message.id != self._terminal:
                self._prompt = None  # another terminal on this port: the hub decides what it is asked
            self._terminal, self._fw, self._boot = message.id, message.fw, message.boot
            first = not self._greeted
            self._greeted = True
            self._delay = self._backoff[0]
            if first:
                self._emit(LinkUp(self.path, message.id, message.fw))
            if self._prompt is not None:
                self._send(self._prompt)
            return
        if not self._greeted or self._terminal is None:
            self._problem("no_hello", f"{message.TYPE} before hello")
            return
        if isinstance(message, proto.Ping):
            self._send(proto.Pong(message.n))
        elif isinstance(message, proto.Choice | proto.Tag):
            self._send(proto.Ack(message.seq))
            if self._seqs.fresh(self._terminal, self._boot, message.seq):
                if isinstance(message, proto.Choice):
                    self._emit(LinkChoice(self._terminal, message.ballot, message.seq, message.value))
                else:
                    self._emit(LinkTag(self._terminal, bytes.fromhex(message.uid)))
        elif isinstance(message, proto.Pong | proto.Ack):
            pass
        else:
            self._problem("unexpected", f"{message.TYPE} from a terminal")


def find_terminals(ports: Iterable[Any] | None = None, by_id_dir: str = "/dev/serial/by-id") -> list[str]:
    """Ports of MicroPython Picos (USB 2E8A:0005), as their stable /dev/serial/by-id path when there is one."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    stable = {os.path.realpath(p): p for p in sorted(glob.glob(os.path.join(by_id_dir, "*")))}
    found = []
    for port in ports:
        if getattr(port, "vid", None) == PICO_VID and getattr(port, "pid", None) == PICO_PID:
            device = str(port.device)
            found.append(stable.get(os.path.realpath(device), device))
    return sorted(found)


class SerialTerminalHub(TerminalHub):
    """The pi backend's terminals: a link per Pico port (found by USB id, rescanned), table messages translated.

    The table speaks dicts ({"type": "prompt", "options": [{"value": 0, "label": ..}]} ...); the wire speaks
    protocol v1. Option values go out as strings and come back as the table's own values.
    """

    def __init__(
        self,
        paths: Iterable[str] = (),
        *,
        discover: Callable[[], list[str]] | None = find_terminals,
        rescan_s: float = 2.0,
        **link_options: Any,
    ) -> None:
        self._fixed = list(paths)
        self._discover = discover
        self._rescan_s = rescan_s
        self._options = link_options
        self._seqs = SeqFilter()
        self._links: dict[str, TerminalLink] = {}
        self._threads: list[threading.Thread] = []
        self._values: dict[tuple[str, str], dict[str, Any]] = {}
        self._open: dict[str, str] = {}
        self._stop = threading.Event()
        self._sink: Callable[[Any], None] | None = None
        self._lock = threading.Lock()
        self.problems = 0

    def start(self, sink: Callable[[Any], None]) -> None:
        """Open the configured ports and keep looking for new terminals."""
        self._sink = sink
        for path in self._fixed:
            self._add(path)
        if self._discover is not None:
            thread = threading.Thread(target=self._scan_loop, name="terminal-scan", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _scan_loop(self) -> None:
        while not self._stop.is_set():
            try:
                found = self._discover() if self._discover else []
            except OSError:
                found = []
            for path in found:
                self._add(path)
            self._stop.wait(self._rescan_s)

    def _add(self, path: str) -> None:
        with self._lock:
            if path in self._links or self._stop.is_set():
                return
            link = TerminalLink(path, self._on_event, seqs=self._seqs, **self._options)
            self._links[path] = link
            thread = threading.Thread(target=link.run, args=(self._stop,), name=f"terminal:{Path(path).name}", daemon=True)
            self._threads.append(thread)
        thread.start()

    def _link(self, terminal: str) -> TerminalLink | None:
        with self._lock:
            links = list(self._links.values())
        return next((li for li in links if li.terminal == terminal and li.connected), None)

    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Translate a table message to the wire and send it; False when the terminal is not connected."""
        link = self._link(terminal)
        kind = message.get("type")
        try:
            if kind == "prompt":
                ballot = str(message["ballot"])
                values = {str(o["value"]): o["value"] for o in message["options"]}
                options = [(str(o["value"]), str(o.get("label", o["value"]))[:64]) for o in message["options"]]
                with self._lock:
                    self._values[(terminal, ballot)] = values
                    self._open[terminal] = ballot
                if link is None:
                    return False
                link.prompt(ballot, options)
                return link.connected
            if kind == "idle":
                with self._lock:
                    ballot = self._open.pop(terminal, "")
                if link is None:
                    return False
                if ballot:
                    link.close_prompt(ballot)
                return link.connected
            if link is None:
                return False
            if kind == "ack":
                return link.send(proto.Ack(int(message["seq"])))
            if kind == "error":
                return link.send(proto.Error(int(message["seq"]), str(message.get("code", "refused"))))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"cannot send {kind!r} to terminal {terminal}: {exc}") from exc
        return False

    def connected(self) -> frozenset[str]:
        """Terminal ids with a live link."""
        with self._lock:
            links = list(self._links.values())
        return frozenset(li.terminal for li in links if li.connected and li.terminal is not None)

    def health(self) -> dict[str, Any]:
        """JSON-able status: connected ids and every link's counters."""
        now = time.monotonic()
        with self._lock:
            links = list(self._links.values())
        return {"connected": sorted(self.connected()), "problems": self.problems,
                "links": [vars_of(li.health(now)) for li in links]}

    def stalled(self, max_age_s: float) -> list[str]:
        """Paths of links whose thread has not turned for `max_age_s` (a hung read or write)."""
        now = time.monotonic()
        with self._lock:
            links = list(self._links.values())
        return [li.path for li in links if li.last_turn and now - li.last_turn > max_age_s]

    def close(self) -> None:
        """Stop every link thread and close the ports."""
        self._stop.set()
        for thread in list(self._threads):
            thread.join(timeout=2)

    def _on_event(self, event: LinkEvent) -> None:
        sink = self._sink
        if sink is None:
            return
        if isinstance(event, LinkUp):
            sink(TerminalHello(event.terminal, event.fw))
        elif isinstance(event, LinkDown):
            if event.terminal is not None and event.reason != "stopped":
                sink(TerminalGone(event.terminal))
        elif isinstance(event, LinkChoice):
            with self._lock:
                values = self._values.get((event.terminal, event.ballot), {})
            sink(TerminalChoice(event.terminal, event.ballot, event.seq, values.get(event.value, event.value)))
        elif isinstance(event, LinkProblem):
            with self._lock:
                self.problems += 1
            log.warning("terminal %s: %s %s", event.path, event.code, event.detail)
        elif isinstance(event, LinkTag):
            log.info("terminal %s saw tag %s", event.terminal, event.uid.hex())


def vars_of(health: LinkHealth) -> dict[str, Any]:
    """A LinkHealth as a plain dict."""
    return dict(health.__dict__)
