"""A second USB device claiming a seat terminal's id, over real ptys against a running table (issue #30, item 7).

Before: a device saying hello as T3 on another port voted for seat 3 (ballot ids were `<game>.<n>`, counted up),
and one sending seq 2147483647 silenced the real T3, which was acked but never counted. Now its hello is refused
(`error` seq 0 `duplicate_id`), nothing it sends reaches the table, the host sees it, and the real terminal goes
on being counted.
"""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hal import terminal_protocol as proto
from tests.hal.test_terminal_pty_games import PtyTable, wait
from tests.table.helpers import live_rows


class Intruder:
    """A device on its own pty behind a by-id style path: it says hello as `terminal` whenever the Pi greets it,
    then sends forged choices; every line it received is kept."""

    def __init__(self, tmp_path: Path, terminal: str) -> None:
        self.terminal = terminal
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = str(tmp_path / "by-id" / "usb-MicroPython_intruder-if00")
        os.symlink(os.ttyname(self.slave), self.path)
        self.received: list[proto.Message] = []
        self._lines = proto.LineBuffer()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for line in self._lines.feed(data):
                if line is None:
                    continue
                message = proto.decode(line)
                self.received.append(message)
                if isinstance(message, proto.Hello):
                    self.send(proto.Hello(self.terminal, "0.4.0", 1, proto.PROTOCOL, 8, False, "", "00000000000000ff"))

    def send(self, message: proto.Message) -> None:
        os.write(self.master, proto.encode(message))

    def close(self) -> None:
        self._stop.set()
        os.unlink(self.path)
        os.close(self.slave)
        os.close(self.master)
        self._thread.join(timeout=2)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[PtyTable]:
    made = PtyTable(tmp_path, "secret_hitler", 5)
    yield made
    made.close()


def test_a_second_device_claiming_a_seats_terminal_is_refused_shown_to_the_host_and_changes_nothing(
        table: PtyTable, tmp_path: Path) -> None:
    loop = table.rt.loop
    session = loop.session
    assert session is not None
    seat = min(session.rules.to_act(session.state))
    real = table.devices[seat]
    prompt = wait(lambda: (p := loop.seat_prompt(seat)) and p["type"] == "prompt" and p, what="the seat's prompt")
    intruder = Intruder(tmp_path, real.terminal_id)
    try:
        refused = wait(lambda: [m for m in intruder.received if isinstance(m, proto.Error) and m.seq == 0],
                       what="the refusal of the intruder's hello")
        assert refused[0].code == "duplicate_id"
        wait(lambda: [r for r in loop.terminals.rows() if r["clashes"]], what="the host told")
        (row,) = [r for r in loop.terminals.rows() if r["clashes"]]
        assert row["terminal"] == real.terminal_id and row["clashes"] == [intruder.path] and row["connected"]
        # the attacks of issue #30: the seat's real ballot (even guessed right), sequential guesses, the top seq
        rows = len(live_rows(table.rt))
        guesses = [prompt["ballot"]] + [f"{session.game_id}.{n}" for n in range(1, 40)]
        for n, ballot in enumerate(guesses):
            for value in range(len(prompt["options"])):
                intruder.send(proto.Choice(ballot, 0x7FFFFFFF - n, str(value)))
        time.sleep(0.5)
        loop.wait_idle()
        assert len(live_rows(table.rt)) == rows, "nothing the intruder sent was counted"
        assert not [m for m in intruder.received if isinstance(m, proto.Prompt | proto.Ack)], \
            "it is shown no prompt and acked nothing"
        health = {link["path"]: link for link in table.hub.health()["links"]}
        assert health[intruder.path]["refused"] == real.terminal_id and not health[intruder.path]["connected"]
        assert health[real.path]["connected"] and health[real.path]["terminal"] == real.terminal_id
        # the real terminal is counted, and acked only once the table has it
        table.choose(seat, 0)
        wait(lambda: len(live_rows(table.rt)) > rows, what="the real terminal's choice in the journal")
        assert live_rows(table.rt)[-1]["source"] == f"terminal:{real.terminal_id}"
    finally:
        intruder.close()
    wait(lambda: not [r for r in loop.terminals.rows() if r["clashes"]], what="the clash cleared once it is gone")


def test_ballot_ids_are_not_counted_up() -> None:
    """Ballot ids carry 48 bits of a keyed hash under a secret drawn at each start: no id tells the next."""
    from companion.table.core.outputs import ballot_id

    key = os.urandom(32)
    ids = [ballot_id(key, 1, n) for n in range(1, 1001)]
    assert len(set(ids)) == 1000 and all(len(i) == 14 and i.startswith("1.") for i in ids)
    assert all(proto.is_terminal_id(f"{i}:{10 ** 9}") for i in ids), "room for a hub's screen number"
