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

from companion.hal.events import TerminalChoice, TerminalGone, TerminalHello
from companion.hal.terminal_link import LinkDown, LinkUp, SerialTerminalHub, TerminalLink
from tests.firmware.device import SimTerminal, unlinked
from tests.firmware.runtimes import interpreters

NEXT, OK, BACK = 14, 15, 13
OPTIONS = [("ja", "Ja!"), ("nein", "Nein")]


def table_prompt(ballot: str, labels: list[str]) -> dict[str, object]:
    """A prompt as the table loop sends it: option values are indices, with the action and private info."""
    return {"v": 1, "type": "prompt", "ballot": ballot, "info": {"role": "liberal"},
            "options": [{"value": i, "label": label, "action": {"type": "vote", "seat": 3, "vote": label}}
                        for i, label in enumerate(labels)]}


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
def hub(device: SimTerminal) -> Iterator[tuple[SerialTerminalHub, Recorder]]:
    recorder = Recorder()
    hub = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    hub.start(recorder)
    yield hub, recorder
    hub.close()


def test_hello_then_a_confirmed_choice_arrives_once_with_the_tables_value(device: SimTerminal, hub) -> None:
    hub, events = hub
    hello = events.wait_for(lambda e: isinstance(e, TerminalHello))
    assert hello == TerminalHello(device.terminal_id, "0.4.0", 3, link=hello.link)  # 4 pixels: status and 3 options a screen
    assert hub.connected() == {device.terminal_id}
    assert hub.send(device.terminal_id, table_prompt("g1.1", ["ja", "nein"]))
    device.press(NEXT, OK, OK)
    choice = events.wait_for(lambda e: isinstance(e, TerminalChoice))
    assert unlinked(choice) == TerminalChoice(device.terminal_id, "g1.1", 1, 1)
    hub.send(device.terminal_id, {"v": 1, "type": "ack", "ballot": "g1.1", "seq": 1})
    time.sleep(1.3)  # longer than the firmware's resend interval: the ack stopped it resending
    assert len(events.of(TerminalChoice)) == 1
    (link,) = hub.health()["links"]
    assert link["connected"] and link["terminal"] == device.terminal_id and link["malformed"] == 0


def test_nothing_is_sent_without_the_confirm_press(device: SimTerminal, hub) -> None:
    hub, events = hub
    events.wait_for(lambda e: isinstance(e, TerminalHello))
    hub.send(device.terminal_id, table_prompt("g1.7", ["ja", "nein"]))
    device.press(NEXT, OK, BACK, BACK)  # highlight nein, ask to confirm, cancel, go back to ja
    time.sleep(0.6)
    assert events.of(TerminalChoice) == []
    device.press(OK, OK)
    assert unlinked(events.wait_for(lambda e: isinstance(e, TerminalChoice))) == TerminalChoice(device.terminal_id, "g1.7", 1, 0)


def test_a_refused_choice_can_be_made_again(device: SimTerminal, hub) -> None:
    hub, events = hub
    events.wait_for(lambda e: isinstance(e, TerminalHello))
    hub.send(device.terminal_id, table_prompt("g2.1", ["a", "b"]))
    device.press(OK, OK)
    first = events.wait_for(lambda e: isinstance(e, TerminalChoice))
    hub.send(device.terminal_id, {"v": 1, "type": "error", "ballot": "g2.1", "seq": first.seq, "code": "wrong_phase",
                                  "message": "Not now."})
    time.sleep(0.2)
    device.press(NEXT, OK, OK)
    events.wait_for(lambda e: len(events.of(TerminalChoice)) == 2)
    assert unlinked(events.of(TerminalChoice)[1]) == TerminalChoice(device.terminal_id, "g2.1", 2, 1)


def test_idle_closes_the_prompt_so_presses_send_nothing(device: SimTerminal, hub) -> None:
    hub, events = hub
    events.wait_for(lambda e: isinstance(e, TerminalHello))
    hub.send(device.terminal_id, table_prompt("g3.1", ["a", "b"]))
    hub.send(device.terminal_id, {"v": 1, "type": "idle", "ballot": None, "info": {}})
    device.press(OK, OK)
    time.sleep(0.6)
    assert events.of(TerminalChoice) == []


def test_unplug_mid_vote_then_replug_resumes_the_open_prompt(device: SimTerminal, hub) -> None:
    hub, events = hub
    events.wait_for(lambda e: isinstance(e, TerminalHello))
    hub.send(device.terminal_id, table_prompt("g4.2", ["hideout", "gallery", "jeweller"]))
    device.press(NEXT)
    time.sleep(0.2)
    device.unplug()
    assert events.wait_for(lambda e: isinstance(e, TerminalGone)) == TerminalGone(device.terminal_id)
    assert not hub.send(device.terminal_id, table_prompt("g4.2", ["hideout", "gallery", "jeweller"]))
    device.plug()
    events.wait_for(lambda e: len(events.of(TerminalHello)) == 2)
    device.press(NEXT, NEXT, OK, OK)  # the new boot starts at the first option again
    choice = events.wait_for(lambda e: isinstance(e, TerminalChoice))
    assert unlinked(choice) == TerminalChoice(device.terminal_id, "g4.2", 1, 2)
    (link,) = hub.health()["links"]
    assert link["reconnects"] == 1 and link["connected"]


def test_the_firmware_survives_a_ctrl_c_byte_and_garbage(device: SimTerminal) -> None:
    events = Recorder()
    stop = threading.Event()
    link = TerminalLink(device.path, events, ping_s=0.1, stale_s=2.0)
    thread = threading.Thread(target=link.run, args=(stop,), daemon=True)
    thread.start()
    try:
        events.wait_for(lambda e: isinstance(e, LinkUp))
        port = link._port  # noqa: SLF001 - write raw bytes down the link's own port
        assert port is not None
        port.write(b"\x03\x03 not json \x03\n{\"v\":1,\"t\":\"ping\",\"n\":99}\n")
        link.prompt("after-garbage", OPTIONS)
        device.press(OK, OK)
        events.wait_for(lambda e: getattr(e, "ballot", None) == "after-garbage")
        assert link.connected and events.of(LinkDown) == []
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


def test_two_terminals_found_by_discovery_keep_their_own_ballots(device: SimTerminal, tmp_path: Path) -> None:
    other = SimTerminal(tmp_path, device.exe, uid="0123456789abcdef", name="usb-MicroPython_Board_in_FS_mode_0123-if00")
    other.plug()
    events = Recorder()
    found: list[str] = [device.path]
    hub = SerialTerminalHub(discover=lambda: list(found), rescan_s=0.05, ping_s=0.2, stale_s=2.0)
    hub.start(events)
    try:
        events.wait_for(lambda e: isinstance(e, TerminalHello))
        found.append(other.path)  # the second Pico is plugged in later
        events.wait_for(lambda e: len(events.of(TerminalHello)) == 2)
        assert hub.connected() == {device.terminal_id, other.terminal_id}
        hub.send(device.terminal_id, table_prompt("g5.1", ["ja", "nein"]))
        hub.send(other.terminal_id, table_prompt("g5.2", ["ja", "nein"]))
        other.press(NEXT, OK, OK)
        device.press(OK, OK)
        events.wait_for(lambda e: len(events.of(TerminalChoice)) == 2)
        assert {unlinked(e) for e in events.of(TerminalChoice)} == {TerminalChoice(device.terminal_id, "g5.1", 1, 0),
                                                  TerminalChoice(other.terminal_id, "g5.2", 1, 1)}
    finally:
        hub.close()
        other.unplug()


@pytest.mark.soak
def test_soak_twenty_unplugs_each_followed_by_a_vote(device: SimTerminal, hub) -> None:
    hub, events = hub
    for cycle in range(20):
        events.wait_for(lambda e, n=cycle + 1: len(events.of(TerminalHello)) == n)
        hub.send(device.terminal_id, table_prompt(f"s.{cycle}", ["ja", "nein"]))
        device.press(*([NEXT] * (cycle % 2)), OK, OK)
        events.wait_for(lambda e, n=cycle + 1: len(events.of(TerminalChoice)) == n)
        assert events.of(TerminalChoice)[-1].value == cycle % 2
        device.unplug()
        events.wait_for(lambda e, n=cycle + 1: len(events.of(TerminalGone)) == n)
        device.plug()
    (link,) = hub.health()["links"]
    assert link["reconnects"] == 20 and link["malformed"] == 0
