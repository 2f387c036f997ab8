"""Terminal links over real pty pairs with the real firmware main loop on the other end.

The firmware runs under MicroPython's unix port when installed, and under CPython (with shims) always.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from companion.hal.terminal_link import (
    SeatChoice, TerminalDown, TerminalHub, TerminalLink, TerminalProblem, TerminalUp,
)
from tests.firmware.device import SimTerminal
from tests.firmware.runtimes import interpreters

NEXT, OK, BACK = 14, 15, 13
OPTIONS = [("ja", "Ja!"), ("nein", "Nein")]


class Recorder:
    """Events from link threads, with waiting."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self._cond = threading.Condition()

    def __call__(self, event: object) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, match: Callable[[object], bool], timeout: float = 10.0) -> object:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for event in self.events:
                    if match(event):
                        return event
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no matching event; got {self.events}")
                self._cond.wait(remaining)

    def of(self, kind: type) -> list[object]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture(params=interpreters(), ids=lambda p: p[0])
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SimTerminal]:
    terminal = SimTerminal(tmp_path, request.param[1])
    terminal.plug()
    yield terminal
    terminal.unplug()


@pytest.fixture
def hub_for(device: SimTerminal) -> Iterator[Callable[..., tuple[TerminalHub, Recorder]]]:
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def make(seat: int = 3, **options: object) -> tuple[TerminalHub, Recorder]:
        recorder = Recorder()
        options.setdefault("ping_s", 0.2)
        options.setdefault("stale_s", 2.0)
        hub = TerminalHub([device.path], {device.terminal_id: seat}, recorder, **options)
        threads.extend(hub.start(stop))
        return hub, recorder

    yield make
    stop.set()
    for thread in threads:
        thread.join(timeout=5)


def test_hello_binds_the_seat_and_a_confirmed_choice_arrives_once(device: SimTerminal, hub_for) -> None:
    hub, events = hub_for(seat=3)
    up = events.wait_for(lambda e: isinstance(e, TerminalUp))
    assert up == TerminalUp(device.path, device.terminal_id, "0.1.0")
    hub.prompt(3, "vote-1", OPTIONS)
    device.press(NEXT, OK, OK)
    choice = events.wait_for(lambda e: isinstance(e, SeatChoice))
    assert choice == SeatChoice(3, device.terminal_id, "vote-1", "nein")
    time.sleep(1.3)  # longer than the firmware's resend interval: the ack stopped it resending
    assert len(events.of(SeatChoice)) == 1
    (health,) = hub.health(time.monotonic())
    assert health.connected and health.terminal == device.terminal_id and health.malformed == 0


def test_nothing_is_sent_without_the_confirm_press(device: SimTerminal, hub_for) -> None:
    hub, events = hub_for(seat=1)
    events.wait_for(lambda e: isinstance(e, TerminalUp))
    hub.prompt(1, "b7", OPTIONS)
    device.press(NEXT, OK, BACK, BACK)  # highlight nein, ask to confirm, cancel, go back to ja
    time.sleep(0.6)
    assert events.of(SeatChoice) == []
    device.press(OK, OK)
    assert events.wait_for(lambda e: isinstance(e, SeatChoice)) == SeatChoice(1, device.terminal_id, "b7", "ja")


def test_unplug_mid_vote_then_replug_resumes_the_open_prompt(device: SimTerminal, hub_for) -> None:
    hub, events = hub_for(seat=2)
    events.wait_for(lambda e: isinstance(e, TerminalUp))
    hub.prompt(2, "patrol-4", [("1", "Hideout"), ("2", "Gallery"), ("3", "Jeweller")])
    device.press(NEXT)
    time.sleep(0.2)
    device.unplug()
    down = events.wait_for(lambda e: isinstance(e, TerminalDown))
    assert down == TerminalDown(device.path, device.terminal_id, "unplugged")
    device.plug()
    events.wait_for(lambda e: len(events.of(TerminalUp)) == 2)
    device.press(NEXT, NEXT, OK, OK)  # the new boot starts at the first option again
    choice = events.wait_for(lambda e: isinstance(e, SeatChoice))
    assert choice == SeatChoice(2, device.terminal_id, "patrol-4", "3")
    (health,) = hub.health(time.monotonic())
    assert health.reconnects == 1 and health.connected


def test_the_firmware_survives_a_ctrl_c_byte_and_garbage(device: SimTerminal) -> None:
    events = Recorder()
    stop = threading.Event()
    link = TerminalLink(device.path, events, ping_s=0.1, stale_s=2.0)
    thread = threading.Thread(target=link.run, args=(stop,), daemon=True)
    thread.start()
    try:
        events.wait_for(lambda e: isinstance(e, TerminalUp))
        port = link._port  # noqa: SLF001 - write raw bytes down the link's own port
        assert port is not None
        port.write(b"\x03\x03 not json \x03\n{\"v\":1,\"t\":\"ping\",\"n\":99}\n")
        link.prompt("after-garbage", OPTIONS)
        device.press(OK, OK)
        events.wait_for(lambda e: getattr(e, "ballot", None) == "after-garbage")
        assert link.connected and events.of(TerminalDown) == []
        assert device.process is not None and device.process.poll() is None
    finally:
        stop.set()
        thread.join(timeout=5)


def test_a_held_port_is_exclusive(device: SimTerminal) -> None:
    first = serial.Serial(device.path, exclusive=True, timeout=0.1)
    try:
        with pytest.raises(serial.SerialException):
            serial.Serial(device.path, exclusive=True, timeout=0.1)
    finally:
        first.close()
