"""Seat terminals at table level: unplugged mid-vote over a real pty with the real firmware and replugged (the
vote resumes and lands once); duplicated and out-of-order messages never double or reorder a choice."""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

from companion.hal.terminal_link import SerialTerminalHub
from companion.table.runtime import Runtime
from tests.firmware.device import SimTerminal
from tests.hal.test_terminal_pty import NEXT, OK
from tests.table.conftest import table_config
from tests.table.helpers import hw, live_rows

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]


def _until(check: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_terminal_unplugged_mid_vote_resumes_its_prompt_and_the_vote_lands_once(tmp_path: Path) -> None:
    device = SimTerminal(tmp_path, sys.executable)
    device.plug()
    cfg = table_config(tmp_path / "data")
    seats = tuple(replace(s, terminal=device.terminal_id if i == 0 else None) for i, s in enumerate(cfg.seats))
    rt = Runtime(replace(cfg, seats=seats), rng=random.Random(5))
    rt.hardware.terminals = SerialTerminalHub([device.path], discover=None, ping_s=0.2, stale_s=2.0)
    rt.start()
    try:
        _until(lambda: rt.loop.terminals_seen.get(device.terminal_id) == 0, "the terminal never said hello")
        _until(lambda: (rt.loop.seat_prompt(0) or {}).get("type") == "prompt", "no prompt for seat 0")
        time.sleep(0.3)  # the prompt reaches the device
        device.press(NEXT)  # half-way through choosing ...
        time.sleep(0.2)
        device.unplug()  # ... the cable is pulled
        _until(lambda: device.terminal_id not in rt.loop.terminals_seen, "the table never saw the unplug")
        hw(rt).press(1, "nein")  # the rest of the table plays on meanwhile
        rt.loop.wait_idle()
        device.plug()
        _until(lambda: device.terminal_id in rt.loop.terminals_seen, "the replugged terminal never said hello")
        time.sleep(0.5)  # the open prompt is sent again on hello
        device.press(NEXT, OK, OK)  # a fresh boot starts at option 0: NEXT -> "nein", then confirm
        _until(lambda: any(r["source"].startswith("terminal:") for r in live_rows(rt)), "the vote never landed")
        rt.loop.wait_idle()
        votes = [(r["action"], r["source"]) for r in live_rows(rt) if r["action"]["type"] == "vote"]
        assert votes == [({"type": "vote", "seat": 1, "vote": "nein"}, "button:1:nein"),
                         ({"type": "vote", "seat": 0, "vote": "nein"}, f"terminal:{device.terminal_id}")]
    finally:
        rt.stop()
        device.unplug()


def test_duplicated_and_out_of_order_terminal_messages(make_table: Make) -> None:
    rt = make_table(seats=3)
    hub = hw(rt).mock_terminals
    for t in ("T0", "T1", "T2"):
        hub.connect(t)
    rt.loop.wait_idle()
    ballots = {t: hub.last_prompt(t)["ballot"] for t in ("T0", "T1")}  # type: ignore[index]
    # T0: seq 5 arrives, then a late seq 3 (sent earlier, overtaken), then seq 5 again (a retransmission)
    hub.choose("T0", ballots["T0"], 1, seq=5)
    hub.choose("T0", ballots["T0"], 0, seq=3)
    hub.choose("T0", ballots["T0"], 0, seq=5)
    # T1: the same choice three times
    for _ in range(3):
        hub.choose("T1", ballots["T1"], 0, seq=1)
    rt.loop.wait_idle()
    votes = [r["action"] for r in live_rows(rt) if r["action"]["type"] == "vote"]
    assert votes == [{"type": "vote", "seat": 0, "vote": "nein"}, {"type": "vote", "seat": 1, "vote": "ja"}]
    assert rt.loop.counters.duplicates == 4
    acks = [m["seq"] for m in hub.sent["T0"] if m["type"] == "ack"]
    assert acks == [5, 5], "the message acted on is acked, and again when resent (its ack may have been lost)"
    late = [m for m in hub.sent["T0"] if m["type"] == "error"]
    assert [(m["seq"], m["code"]) for m in late] == [(3, "out_of_order")], "an overtaken message is refused"
    assert [m["seq"] for m in hub.sent["T1"] if m["type"] == "ack"] == [1, 1, 1]
    # the table still takes a fresh message afterwards
    hub.choose("T2", hub.last_prompt("T2")["ballot"], 1)  # type: ignore[index]
    rt.loop.wait_idle()
    assert [r["action"]["seat"] for r in live_rows(rt) if r["action"]["type"] == "vote"] == [0, 1, 2]
