"""The in-memory backend: scriptable readers, a recording LED strip, gpiozero MockFactory buttons, mock terminals.

Tests, `companion bench` and the `/sim` page drive a table through `MockHardware`'s script methods.
"""

from __future__ import annotations

import collections
import threading
import time
from typing import Any, Callable, Mapping, Sequence

from gpiozero.pins.mock import MockFactory

from companion.config import TableConfig
from companion.hal.buttons import ButtonBank
from companion.hal.events import Sink, TerminalChoice, TerminalGone, TerminalHello
from companion.hal.hardware import Hardware
from companion.hal.interfaces import RGB, LedStrip, ReaderError, TagReader, TerminalHub

FRAME_HISTORY = 20_000


class MockReader(TagReader):
    """A reader whose field holds whatever the script put there; it can be told to fail."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.uid: str | None = None
        self.fail_left = 0
        self.fail_message = "SPI transfer failed"

    def poll(self) -> str | None:
        """The scripted tag, or ReaderError while a failure is scripted."""
        if self.fail_left:
            if self.fail_left > 0:
                self.fail_left -= 1
            raise ReaderError(self.fail_message)
        return self.uid

    def version(self) -> int | None:
        """A genuine chip's version."""
        return 0x92


class MockStrip(LedStrip):
    """Records every frame shown, numbered, with its time (perf_counter); waiters can block for a frame."""

    def __init__(self, pixel_count: int) -> None:
        self.pixel_count = pixel_count
        self.frames: collections.deque[tuple[int, float, tuple[RGB, ...]]] = collections.deque(maxlen=FRAME_HISTORY)
        self.shown = 0
        self._cond = threading.Condition()

    def show(self, frame: Sequence[RGB]) -> None:
        """Record the frame."""
        if len(frame) != self.pixel_count:
            raise ValueError(f"frame of {len(frame)} pixels for a {self.pixel_count}-pixel strip")
        with self._cond:
            self.frames.append((self.shown, time.perf_counter(), tuple(frame)))
            self.shown += 1
            self._cond.notify_all()

    def last(self) -> tuple[RGB, ...] | None:
        """The frame showing now."""
        with self._cond:
            return self.frames[-1][2] if self.frames else None

    def wait_for(self, predicate: Callable[[tuple[RGB, ...]], bool], after: int = 0,
                 timeout: float = 2.0) -> tuple[float, tuple[RGB, ...]] | None:
        """The first recorded frame numbered >= `after` that satisfies predicate, waiting up to timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for n, t, frame in self.frames:
                    if n >= after and predicate(frame):
                        return t, frame
                after = self.shown  # every frame so far failed the predicate
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)


class MockTerminalHub(TerminalHub):
    """Seat terminals in memory: the script connects them and answers prompts; sent messages are recorded."""

    def __init__(self) -> None:
        self.sink: Sink | None = None
        self.sent: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        self._connected: set[str] = set()
        self._seq: dict[str, int] = collections.defaultdict(int)
        self._lock = threading.Lock()

    def start(self, sink: Sink) -> None:
        """Remember where events go."""
        self.sink = sink

    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Record the message if the terminal is connected."""
        with self._lock:
            if terminal not in self._connected:
                return False
            self.sent[terminal].append(dict(message))
            return True

    def connected(self) -> frozenset[str]:
        """Connected terminal ids."""
        with self._lock:
            return frozenset(self._connected)

    def connect(self, terminal: str, firmware: str = "mock-1") -> None:
        """Plug a terminal in: it says hello."""
        with self._lock:
            self._connected.add(terminal)
        self._emit(TerminalHello(terminal, firmware))

    def disconnect(self, terminal: str) -> None:
        """Unplug a terminal."""
        with self._lock:
            self._connected.discard(terminal)
        self._emit(TerminalGone(terminal))

    def choose(self, terminal: str, ballot: str, value: Any, seq: int | None = None) -> int:
        """The terminal answers a prompt; returns the seq used (pass an old seq to script a duplicate)."""
        with self._lock:
            if seq is None:
                self._seq[terminal] += 1
                seq = self._seq[terminal]
        self._emit(TerminalChoice(terminal, ballot, seq, value))
        return seq

    def last_prompt(self, terminal: str) -> dict[str, Any] | None:
        """The most recent prompt-or-idle message sent to a terminal."""
        with self._lock:
            for message in reversed(self.sent.get(terminal, [])):
                if message.get("type") in ("prompt", "idle"):
                    return message
        return None

    def _emit(self, event: Any) -> None:
        if self.sink is None:
            raise RuntimeError("mock terminals are not started")
        self.sink(event)


class MockHardware(Hardware):
    """The mock device set with script methods: place/remove/tap tags, press buttons, fail readers."""

    factory: MockFactory

    def reader(self, name: str) -> MockReader:
        """A mock reader by name; unknown -> KeyError with the known names."""
        for r in self.readers:
            if r.name == name:
                assert isinstance(r, MockReader)
                return r
        raise KeyError(f"no reader {name!r} (readers: {', '.join(r.name for r in self.readers)})")

    def place(self, reader: str, uid: str, wait: bool = True) -> None:
        """Put a tag on a reader (it rests there until removed)."""
        self.reader(reader).uid = uid.upper()
        self._settle(wait)

    def remove(self, reader: str, wait: bool = True) -> None:
        """Take the tag off a reader; with wait, return once the removal has been reported."""
        self.reader(reader).uid = None
        if wait and self.poller:
            deadline = time.monotonic() + 5
            while self.poller.present().get(reader) is not None and time.monotonic() < deadline:
                self.poller.wake()
                time.sleep(self.interval_s / 2)
            # The debouncer clears `present` before the poll that saw the absence delivers TagRemoved:
            # one more finished cycle guarantees the event has reached the sink.
            self.poller.wait_cycles(1)

    def tap(self, reader: str, uid: str) -> None:
        """Place a tag and take it away again."""
        self.place(reader, uid)
        self.remove(reader)

    def press(self, seat: int, key: str) -> None:
        """Press and release the button configured for (seat, key), through gpiozero's mock pins."""
        for spec in self.buttons.specs:
            if spec.seat == seat and spec.key == key:
                pin = self.factory.pin(spec.pin)
                pin.drive_low()
                pin.drive_high()
                return
        raise KeyError(f"no button for seat {seat} key {key!r}")

    def fail_reader(self, reader: str, times: int = -1, message: str = "SPI transfer failed") -> None:
        """Make a reader raise ReaderError for the next `times` polls (-1: until healed)."""
        r = self.reader(reader)
        r.fail_message, r.fail_left = message, times
        self._settle(True)

    def heal_reader(self, reader: str) -> None:
        """Stop a scripted failure."""
        self.reader(reader).fail_left = 0

    @property
    def mock_strip(self) -> MockStrip:
        """The recording strip."""
        assert isinstance(self.strip, MockStrip)
        return self.strip

    @property
    def mock_terminals(self) -> MockTerminalHub:
        """The scriptable terminal hub."""
        assert isinstance(self.terminals, MockTerminalHub)
        return self.terminals

    def _settle(self, wait: bool) -> None:
        """Wake the poller; with wait, return after a full poll cycle has seen the change."""
        if self.poller is None:
            return
        if not wait:
            self.poller.wake()
            return
        # one cycle may have begun before the change; then as many as a new UID needs to be confirmed
        self.poller.wait_cycles(1 + self.poller.confirm_polls)


def open_hardware(config: TableConfig) -> MockHardware:
    """The mock device set for a table config."""
    factory = MockFactory()
    hw = MockHardware(
        backend="mock",
        readers=[MockReader(r.name) for r in config.readers],
        strip=MockStrip(config.leds.pixels),
        buttons=ButtonBank(config.buttons, pin_factory=factory),
        terminals=MockTerminalHub(),
        interval_s=config.polling.interval_ms / 1000,
        removal_s=config.polling.removal_ms / 1000,
        confirm_polls=config.polling.confirm_polls,
    )
    hw.factory = factory
    return hw
