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
from companion.errors import DeviceError
from companion.hal import terminal_protocol as proto
from companion.hal import terminal_screens as screens
from companion.hal.buttons import ButtonBank
from companion.hal.events import Sink, TerminalGone
from companion.hal.hardware import Hardware
from companion.hal.interfaces import RGB, LedStrip, ReaderError, TagReader, TerminalHub
from companion.hal.leds import Shaper, config_shaper, encode_spi
from companion.hal.terminal_hub import ScreenHub, reader_name

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
    """Records every frame shown, numbered, with its time (perf_counter); waiters can block for a frame. Each
    frame goes through the real strip's shaping and SPI encoding (`wire`: the stream the spidev strip would
    write), so the mock costs what the Pi's strip code costs. It is stricter than the strip in one way: a frame
    of the wrong length is refused (the strip pads or cuts it), so a renderer bug shows in the tests."""

    def __init__(self, pixel_count: int, shaper: Shaper | None = None) -> None:
        self.pixel_count = pixel_count
        self.shaper = shaper or Shaper()
        self.frames: collections.deque[tuple[int, float, tuple[RGB, ...]]] = collections.deque(maxlen=FRAME_HISTORY)
        self.shown = 0
        self.wire = b""
        """The SPI stream of the last frame, as SpidevStrip writes it to /dev/spidev0.0."""
        self._cond = threading.Condition()

    def show(self, frame: Sequence[RGB]) -> None:
        """Shape and encode the frame as the spidev strip does, and record it."""
        if len(frame) != self.pixel_count:
            raise ValueError(f"frame of {len(frame)} pixels for a {self.pixel_count}-pixel strip")
        wire = encode_spi(self.shaper.grb(frame))
        with self._cond:
            self.wire = wire
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


class TerminalUnplugged(DeviceError):
    """A script made a mock terminal that is not plugged in send something; a real one sends nothing."""

    code = "terminal_unplugged"

    def __init__(self, terminal: str) -> None:
        super().__init__(message=f"terminal {terminal} is unplugged: connect it first")


class MockTerminalHub(ScreenHub):
    """Seat terminals in memory behind the same hub as the serial ones: every screen is encoded and decoded
    with the protocol's limits; the script connects terminals, chooses through their pages and taps tags.
    `sent` records the table's messages per terminal, `lines` the wire lines each terminal received."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        self.lines: dict[str, list[bytes]] = collections.defaultdict(list)
        self._screens: dict[str, proto.Message | None] = {}
        self._seq: dict[str, int] = collections.defaultdict(int)
        self._boots: dict[str, int] = collections.defaultdict(int)
        """Connects per terminal: each is a new boot, so a new link whose message numbers the table counts anew."""
        self._lock = threading.RLock()

    def start(self, sink: Sink) -> None:
        """Remember where events go."""
        self._sink = sink

    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Show a table message on a connected terminal (through the shared hub); record it."""
        with self._lock:
            if terminal not in self._screens:
                return False
            self.sent[terminal].append(dict(message))
        return super().send(terminal, message)

    def connected(self) -> frozenset[str]:
        """Connected terminal ids."""
        with self._lock:
            return frozenset(self._screens)

    def health(self) -> dict[str, Any]:
        """Connected ids, and per terminal what it can show and its last problem."""
        return {"connected": sorted(self.connected()), **self.screen_health()}

    def connect(self, terminal: str, firmware: str = "mock-1", *, version: int | None = proto.PROTOCOL,
                screen: int | None = None, display: bool | None = None, faults: str | None = None) -> None:
        """Plug a terminal in: it says hello (`version=None`: a v1 terminal's hello, without the new fields)."""
        if version is None:
            hello = proto.Hello(terminal, firmware, 1)
        else:
            hello = proto.Hello(terminal, firmware, 1, version, proto.MAX_OPTIONS if screen is None else screen,
                                bool(display), faults or "")
        with self._lock:
            self._screens[terminal] = None
            self._boots[terminal] += 1
            link = f"mock:{terminal}#{self._boots[terminal]}"
        self._emit(self.on_hello(terminal, self._wire(terminal, hello, to_terminal=False), link))  # type: ignore[arg-type]

    def disconnect(self, terminal: str) -> None:
        """Unplug a terminal."""
        with self._lock:
            self._screens.pop(terminal, None)
        self.on_gone(terminal)
        self._emit(TerminalGone(terminal))

    def screen(self, terminal: str) -> proto.Message | None:
        """What the terminal shows now (a wire Prompt or Phone), or None."""
        with self._lock:
            return self._screens.get(terminal)

    def press(self, terminal: str, value: str, seq: int | None = None) -> int:
        """The terminal confirms option `value` (a wire value) on the screen it shows; returns the seq used."""
        shown = self.screen(terminal)
        return self._choice(terminal, shown.ballot if isinstance(shown, proto.Prompt) else "none", value, seq)

    def choose(self, terminal: str, ballot: str, value: Any, seq: int | None = None) -> int:
        """The seat picks the table's option `value` of `ballot`, paging and changing level on the terminal to
        reach it; a value it cannot reach (the phone holds the prompt, or an old ballot) is sent as it is, for
        the table to refuse. Returns the seq of the choice (pass an old seq to script a duplicate)."""
        target = str(value)
        wire = self._find(terminal, ballot, target)
        return self._choice(terminal, wire or ballot, target, seq)

    def tag(self, terminal: str, uid: str | None) -> None:
        """The terminal's reader reports a tag (None: it lost it); TerminalUnplugged unless it is plugged in."""
        with self._lock:
            self._plugged(terminal)
            self._seq[terminal] += 1
            seq = self._seq[terminal]
        message: proto.Message = proto.Tag(seq, uid.lower()) if uid else proto.Untag(seq)
        decoded = self._wire(terminal, message, to_terminal=False)
        self.on_tag(terminal, decoded.uid if isinstance(decoded, proto.Tag) else None)

    def last_prompt(self, terminal: str) -> dict[str, Any] | None:
        """The most recent prompt-or-idle message the table sent a terminal."""
        with self._lock:
            for message in reversed(self.sent.get(terminal, [])):
                if message.get("type") in ("prompt", "idle"):
                    return message
        return None

    # -- the transport: wire lines in memory ---------------------------------------------------------------

    def _show(self, terminal: str, message: proto.Message) -> bool:
        return self._write(terminal, message)

    def _write(self, terminal: str, message: proto.Message) -> bool:
        with self._lock:
            if terminal not in self._screens:
                return False
            decoded = self._wire(terminal, message, to_terminal=True)
            if isinstance(decoded, proto.Prompt | proto.Phone):
                self._screens[terminal] = decoded
            elif isinstance(decoded, proto.Close):
                shown = self._screens.get(terminal)
                if shown is not None and getattr(shown, "ballot", None) == decoded.ballot:
                    self._screens[terminal] = None
            return True

    def _wire(self, terminal: str, message: proto.Message, *, to_terminal: bool) -> proto.Message:
        """A message through the encoder and decoder, as a line on a cable would carry it."""
        line = proto.encode(message)
        if to_terminal:
            self.lines[terminal].append(line)
        return proto.decode(line)

    def _plugged(self, terminal: str) -> None:
        """Refuse a line from a terminal that is not plugged in: an unplugged one sends nothing (the lock held)."""
        if terminal not in self._screens:
            raise TerminalUnplugged(terminal)

    def _choice(self, terminal: str, ballot: str, value: str, seq: int | None) -> int:
        with self._lock:
            self._plugged(terminal)
            if seq is None:
                self._seq[terminal] += 1
                seq = self._seq[terminal]
        choice = self._wire(terminal, proto.Choice(ballot, seq, value), to_terminal=False)
        assert isinstance(choice, proto.Choice)
        event = self.on_choice(terminal, choice)
        if event is not None:
            self._emit(event)
        return seq

    def _here(self, terminal: str, ballot: str) -> proto.Prompt | None:
        shown = self.screen(terminal)
        if isinstance(shown, proto.Prompt) and shown.ballot.rpartition(":")[0] == ballot:
            return shown
        return None

    def _find(self, terminal: str, ballot: str, target: str) -> str | None:
        """Page through the terminal's screens (and into each kind) until one offers `target`; its ballot."""
        seen: set[tuple[str, ...]] = set()
        here = self._here(terminal, ballot)
        if here is not None and target in (values := tuple(o.value for o in here.options)):
            return here.ballot
        if here is not None and screens.UP in values:
            self.press(terminal, screens.UP)  # start from the first level
        while (here := self._here(terminal, ballot)) is not None:
            values = tuple(o.value for o in here.options)
            if target in values:
                return here.ballot
            if values in seen:
                return None
            seen.add(values)
            for group in [v for v in values if v.startswith(screens.GROUP)]:
                self.press(terminal, group)
                inner: set[tuple[str, ...]] = set()
                while (sub := self._here(terminal, ballot)) is not None:
                    sub_values = tuple(o.value for o in sub.options)
                    if target in sub_values:
                        return sub.ballot
                    if sub_values in inner or screens.MORE not in sub_values:
                        break
                    inner.add(sub_values)
                    self.press(terminal, screens.MORE)
                self.press(terminal, screens.UP)
            if screens.MORE not in values:
                return None
            self.press(terminal, screens.MORE)
        return None

    def _emit(self, event: Any) -> None:
        if self._sink is None:
            raise RuntimeError("mock terminals are not started")
        self._sink(event)


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
        if wait:
            self._await_removal(reader)

    def _await_removal(self, reader: str) -> None:
        if self.poller:
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

    def place_at_terminal(self, terminal: str, uid: str) -> None:
        """Hold a tag to a terminal's own reader; returns once the poller has confirmed it."""
        self.mock_terminals.tag(terminal, uid)
        self._settle(True)

    def remove_at_terminal(self, terminal: str) -> None:
        """Take the tag away from a terminal's reader; returns once the removal has been reported."""
        self.mock_terminals.tag(terminal, None)
        self._await_removal(reader_name(terminal))

    def tap_at_terminal(self, terminal: str, uid: str) -> None:
        """Tap a tag at a terminal (the seat's reader when the terminal is bound)."""
        self.place_at_terminal(terminal, uid)
        self.remove_at_terminal(terminal)

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


def terminal_hub(config: TableConfig) -> TerminalHub:
    """The in-memory terminals, or real ones when `[terminals]` names ports or asks for discovery."""
    wanted = config.terminals
    if not wanted.ports and not wanted.discover:
        return MockTerminalHub()
    from companion.hal.terminal_link import SerialTerminalHub, find_terminals

    return SerialTerminalHub(wanted.ports, discover=find_terminals if wanted.discover else None)


def open_hardware(config: TableConfig) -> MockHardware:
    """The mock device set for a table config."""
    factory = MockFactory()
    hw = MockHardware(
        backend="mock",
        readers=[MockReader(r.name) for r in config.readers],
        strip=MockStrip(config.leds.pixels, config_shaper(config.leds)),
        buttons=ButtonBank(config.buttons, pin_factory=factory),
        terminals=terminal_hub(config),
        interval_s=config.polling.interval_ms / 1000,
        removal_s=config.polling.removal_ms / 1000,
        confirm_polls=config.polling.confirm_polls,
    )
    hw.factory = factory
    return hw
