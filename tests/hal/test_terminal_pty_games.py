"""Whole games over ptys: the real firmware loop on every seat, the table on the mock backend with `[terminals]`
ports, each seat choosing through pages and levels with its buttons; a 162-option prompt; a tag as a ballot.

One interpreter runs them (MicroPython's unix port when installed, else CPython): a game is many presses.
"""

from __future__ import annotations

import os
import random
import select
import signal
import statistics
import time
import tty
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import GameConfig, PollingConfig, SeatConfig, TerminalsConfig, demo_config
from companion.hal import terminal_protocol as proto
from companion.hal import terminal_screens as screens
from companion.hal.events import TerminalChoice, TerminalHello
from companion.hal.terminal_link import SerialTerminalHub
from companion.table.runtime import Runtime
from tests.firmware.device import SimTerminal, unlinked
from tests.firmware.runtimes import interpreters
from tests.table.helpers import enroll, live_rows

NEXT, OK = 14, 15
EXE = interpreters()[-1][1]


def wait(check: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what or check}")


class PtyTable:
    """A table on the mock backend whose seat terminals are firmware processes behind ptys."""

    def __init__(self, tmp_path: Path, game: str, seats: int, mode: str = "digital", readers: bool = False) -> None:
        self.devices = [SimTerminal(tmp_path, EXE, uid=f"{0xA0 + i:02x}00000000000000",
                                    name=f"usb-MicroPython_{i}-if00", reader=readers) for i in range(seats)]
        cfg = demo_config()
        seat_cfg = tuple(SeatConfig("", s.colour, d.terminal_id) for s, d in zip(cfg.seats, self.devices))
        cfg = replace(cfg, data_dir=str(tmp_path / "data"), game=GameConfig(game, seats, mode), seats=seat_cfg,
                      polling=PollingConfig(interval_ms=5, removal_ms=40),
                      readers=tuple(r for r in cfg.readers if not (readers and r.zone.startswith("seat:"))),
                      terminals=TerminalsConfig(ports=(str(tmp_path / "by-id" / "usb-MicroPython_*"),)))
        for device in self.devices:
            device.plug()
        self.rt = Runtime(cfg, rng=random.Random(3)).start()
        hub = self.rt.hardware.terminals
        assert isinstance(hub, SerialTerminalHub)
        self.hub = hub
        wait(lambda: len(self.rt.loop.terminals_seen) == seats, what="every terminal's hello")
        self.rt.loop.wait_idle()
        self.turns: list[float] = []

    def close(self) -> None:
        self.rt.stop()
        for device in self.devices:
            device.unplug()

    def route(self, terminal: str, values: list[str], target: str) -> str:
        """The navigation option that leads towards `target` (the layout is the hub's, the screen the terminal's)."""
        seat = self.hub._seats[terminal]  # noqa: SLF001 - which level the terminal is on
        plan = seat.plan
        assert plan is not None, "the phone holds this prompt"
        group = next((i for i, g in enumerate(plan.groups) if target in {v for v, _ in g.entries}), None)
        if group is None or seat.place.menu not in (-1, group):
            return screens.UP if screens.UP in values else screens.MORE
        if seat.place.menu == group:
            return screens.MORE
        return f"{screens.GROUP}{group}" if f"{screens.GROUP}{group}" in values else screens.MORE

    def choose(self, seat: int, value: int) -> None:
        """The seat's terminal picks the table's option `value`: pages and levels first, then OK, OK."""
        device, terminal = self.devices[seat], self.devices[seat].terminal_id
        target = str(value)
        for _ in range(40):
            shown = wait(lambda: self.hub.showing(terminal), what=f"a screen on seat {seat}")
            assert isinstance(shown, proto.Prompt), shown
            values = [o.value for o in shown.options]
            if target in values:
                device.press(*([NEXT] * values.index(target)), OK, OK)
                return
            nav = self.route(terminal, values, target)
            started = time.perf_counter()
            device.press(*([NEXT] * values.index(nav)), OK)
            wait(lambda: getattr(self.hub.showing(terminal), "ballot", None) != shown.ballot, what="the next page")
            self.turns.append(time.perf_counter() - started)
        raise AssertionError(f"seat {seat} never reached option {value}")

    def play(self, rng: random.Random, max_moves: int = 400) -> int:
        """Random legal moves, each on the acting seat's terminal, until the game ends; the moves made."""
        loop = self.rt.loop
        for moves in range(max_moves):
            session = loop.session
            assert session is not None
            if session.rules.outcome(session.state) is not None:
                return moves
            seat = min(session.rules.to_act(session.state))
            prompt = wait(lambda: (p := loop.seat_prompt(seat)) and p["type"] == "prompt" and p, what="a prompt")
            rows = len(live_rows(self.rt))
            self.choose(seat, rng.randrange(len(prompt["options"])))
            wait(lambda: len(live_rows(self.rt)) > rows, what=f"seat {seat}'s choice in the journal")
            loop.wait_idle()
        raise AssertionError("the game did not end")


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Callable[..., PtyTable]]:
    made: list[PtyTable] = []

    def build(*args: Any, **kwargs: Any) -> PtyTable:
        table = PtyTable(tmp_path, *args, **kwargs)
        made.append(table)
        return table

    yield build
    for table in made:
        table.close()


@pytest.mark.parametrize("game, seats", [("secret_hitler", 10), ("gangsters_dilemma", 7)])
def test_a_whole_game_chosen_through_pages_and_levels_on_firmware_terminals(make: Callable[..., PtyTable],
                                                                            game: str, seats: int) -> None:
    table = make(game, seats)
    moves = table.play(random.Random(seats))
    assert table.rt.loop.status == "over" and moves > 0
    sources = {r["source"].split(":")[0] for r in live_rows(table.rt)}
    assert "terminal" in sources and sources <= {"terminal", "chance"}
    assert table.turns, "some prompt did not fit three option pixels: the seats paged"
    assert table.hub.largest_line() <= proto.MAX_LINE and table.hub.problems == 0
    print(f"\n{game} x{seats}: {moves} moves, largest prompt line {table.hub.largest_line()} B, "
          f"page turn (press to next screen) median {statistics.median(table.turns) * 1000:.0f} ms "
          f"max {max(table.turns) * 1000:.0f} ms over {len(table.turns)}")


def test_a_162_option_prompt_says_use_your_phone_on_the_terminal(tmp_path: Path) -> None:
    device = SimTerminal(tmp_path, EXE)
    device.plug()
    events: list[object] = []
    hub = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    hub.start(events.append)
    try:
        wait(lambda: device.terminal_id in hub.connected(), what="hello")
        options = [{"value": i, "label": f"pay {i}", "group": "pay"} for i in range(162)]
        assert hub.send(device.terminal_id, {"v": 1, "type": "prompt", "ballot": "g.9", "options": options})
        assert isinstance(hub.showing(device.terminal_id), proto.Phone)
        device.press(OK, OK)
        time.sleep(0.5)
        assert not [e for e in events if isinstance(e, TerminalChoice)]  # nothing to choose there
        assert hub.health()["links"][0]["malformed"] == 0 and hub.problems == 0
    finally:
        hub.close()
        device.unplug()


def test_a_tag_tapped_at_a_terminal_is_cast_as_that_seats_ballot(make: Callable[..., PtyTable]) -> None:
    table = make("secret_hitler", 5, "physical", readers=True)
    rt = table.rt
    for seat in range(5):
        for vote in ("ja", "nein"):
            enroll(rt, f"0B{seat:02X}{'01' if vote == 'ja' else '02'}00", "ballot", vote, game="secret_hitler")
    session = rt.loop.session
    assert session is not None
    president = session.rules.view(session.state, None)["president"]
    rows = len(live_rows(rt))
    table.choose(president, 0)  # the nomination, on the president's terminal
    wait(lambda: len(live_rows(rt)) > rows, what="the nomination")
    device = table.devices[3]
    device.hold("0b030200")
    wait(lambda: live_rows(rt)[-1]["action"].get("type") == "vote", what="the ballot read at the terminal")
    device.hold(None)
    row = live_rows(rt)[-1]
    assert row["action"] == {"type": "vote", "seat": 3, "vote": "nein"}
    assert row["source"] == f"reader:terminal:{device.terminal_id}"


def test_a_second_card_at_a_terminal_is_refused_and_the_first_stays(make: Callable[..., PtyTable]) -> None:
    table = make("secret_hitler", 5, "physical", readers=True)
    rt = table.rt
    enroll(rt, "0B030100", "ballot", "ja", game="secret_hitler")
    device = table.devices[3]
    device.hold("0b030100")
    reader = f"terminal:{device.terminal_id}"
    wait(lambda: rt.hardware.poller.present().get(reader) == "0B030100", what="the ballot placed")
    rt.loop.wait_idle()
    rejected = rt.loop.counters.rejected  # (a ballot outside a vote is refused too: count from here)
    device.hold("0b030100,0b030200")  # a second ballot on the same reader
    wait(lambda: rt.loop.counters.rejected > rejected, what="two cards on one reader refused")
    assert rt.hardware.poller.present().get(reader) == "0B030100", "the card already there stays placed"
    device.hold("0b030100")


def test_an_error_in_the_loop_is_logged_and_the_terminal_comes_back(tmp_path: Path) -> None:
    device = SimTerminal(tmp_path, EXE)
    device.plug()
    events: list[object] = []
    hub = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    hub.start(events.append)
    try:
        wait(lambda: device.terminal_id in hub.connected(), what="hello")
        hellos = len([e for e in events if isinstance(e, TerminalHello)])
        device.crash()  # the pixels' next change fails: the prompt below turns pixel 0 blue
        assert hub.send(device.terminal_id, {"v": 1, "type": "prompt", "ballot": "g.1",
                                             "options": [{"value": "ja", "label": "Ja"}]})
        wait(lambda: len([e for e in events if isinstance(e, TerminalHello)]) > hellos, timeout=10,
             what="the hello of the restarted loop")
        assert "loop:" in device.log.read_text() and "pixel write failed" in device.log.read_text()
        device.press(OK, OK)  # the hub showed the open prompt again after the new hello
        wait(lambda: any(isinstance(e, TerminalChoice) for e in events), what="a choice after the restart")
    finally:
        hub.close()
        device.unplug()


def test_pins_with_two_jobs_are_refused_at_start_and_the_terminal_says_so(tmp_path: Path) -> None:
    device = SimTerminal(tmp_path, EXE, pixel_pin=14)  # the pixels on the "next" button's pin
    device.plug()
    events: list[object] = []
    hub = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    hub.start(events.append)
    try:
        hello = wait(lambda: next((e for e in events if isinstance(e, TerminalHello)), None), what="hello")
        assert hello.faults == "pins"
        assert "GP14: button next and pixels" in device.log.read_text()
    finally:
        hub.close()
        device.unplug()


def test_a_reader_that_fails_to_start_leaves_the_terminal_running_and_says_so(tmp_path: Path) -> None:
    device = SimTerminal(tmp_path, EXE, reader=True)
    device.hold("fail")  # the chip does not answer at power-up
    device.plug()
    events: list[object] = []
    hub = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    hub.start(events.append)
    try:
        hello = wait(lambda: next((e for e in events if isinstance(e, TerminalHello)), None), what="hello")
        assert hello.faults == "reader" and hello.screen == 3
        assert hub.send(device.terminal_id, {"v": 1, "type": "prompt", "ballot": "g.1",
                                             "options": [{"value": 0, "label": "ja"}, {"value": 1, "label": "nein"}]})
        device.press(NEXT, OK, OK)
        choice = wait(lambda: next((e for e in events if isinstance(e, TerminalChoice)), None), what="a choice")
        assert unlinked(choice) == TerminalChoice(device.terminal_id, "g.1", 1, 1)
        assert hub.screen_health()["screens"][device.terminal_id]["faults"] == "reader"
    finally:
        hub.close()
        device.unplug()


def test_round_trips_of_a_paged_prompt_over_a_pty(tmp_path: Path) -> None:
    """The wire alone (this test plays the terminal on the pty's master end): a page turn is answered by the
    hub with the next screen; a choice on the last page comes back as the table's value."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = tmp_path / "ttyTERM"
    os.symlink(os.ttyname(slave), path)
    events: list[object] = []
    hub = SerialTerminalHub([str(path)], discover=None, ping_s=5.0, stale_s=10.0)
    hub.start(events.append)
    lines = proto.LineBuffer()

    def read_until(kind: type, timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                for line in lines.feed(os.read(master, 4096)):
                    message = proto.decode(line) if line else None
                    if isinstance(message, kind):
                        return message
        raise AssertionError(f"no {kind.__name__}")

    try:
        read_until(proto.Hello)
        os.write(master, proto.encode(proto.Hello("T-rtt", "0.2.0", 1, 2, 3, False, "")))
        wait(lambda: "T-rtt" in hub.connected(), what="hello")
        options = [{"value": i, "label": f"nominate Seat {i + 1}", "group": "nominate"} for i in range(9)]
        hub.send("T-rtt", {"v": 1, "type": "prompt", "ballot": "g.1", "options": options})
        screen = read_until(proto.Prompt)
        turns, seq = [], 0
        while "8" not in [o.value for o in screen.options]:
            seq += 1
            started = time.perf_counter()
            os.write(master, proto.encode(proto.Choice(screen.ballot, seq, screens.MORE)))
            screen = read_until(proto.Prompt)
            turns.append(time.perf_counter() - started)
        seq += 1
        started = time.perf_counter()
        os.write(master, proto.encode(proto.Choice(screen.ballot, seq, "8")))
        wait(lambda: TerminalChoice("T-rtt", "g.1", seq, 8) in map(unlinked, events), what="the choice")
        choice_s = time.perf_counter() - started
        assert len(turns) == 4 and max(turns) < 0.5 and choice_s < 0.5
        print(f"\npage turn over the pty median {statistics.median(turns) * 1000:.1f} ms, "
              f"choice on page 5 to the table's value {choice_s * 1000:.1f} ms")
    finally:
        hub.close()
        os.close(master)
        os.close(slave)


def test_screens_that_arrived_together_are_all_read_before_the_buttons_count(tmp_path: Path) -> None:
    """Firmware stopped while six screens (over 512 bytes) and a press arrive: the press counts on the last
    screen. (Firmware 0.2.0 took 256 bytes per loop turn, so the press landed on a screen still being
    replaced and the seat chose the option before the one it pressed for.)"""
    device = SimTerminal(tmp_path, EXE)
    device.plug()
    events: list[object] = []
    hub = SerialTerminalHub([device.path], discover=None, ping_s=5.0, stale_s=10.0)
    hub.start(events.append)
    process = device.process
    assert process is not None
    try:
        wait(lambda: device.terminal_id in hub.connected(), what="hello")
        process.send_signal(signal.SIGSTOP)
        burst = 0
        for n in range(1, 7):
            assert hub.send(device.terminal_id, {"v": 1, "type": "prompt", "ballot": f"g.{n}", "options": [
                {"value": 0, "label": f"ja, vote {n} of the round"}, {"value": 1, "label": f"nein, vote {n} of it"}]})
            screen = hub.showing(device.terminal_id)
            assert isinstance(screen, proto.Prompt) and screen.ballot.startswith(f"g.{n}:")
            burst += len(proto.encode(screen))
        assert burst > 512
        device.press(NEXT, OK, OK)
        time.sleep(0.1)  # the press file is written before the firmware runs again
        process.send_signal(signal.SIGCONT)
        choice = wait(lambda: next((e for e in events if isinstance(e, TerminalChoice)), None), what="a choice")
        assert unlinked(choice) == TerminalChoice(device.terminal_id, "g.6", 1, 1)
    finally:
        process.send_signal(signal.SIGCONT)
        hub.close()
        device.unplug()
