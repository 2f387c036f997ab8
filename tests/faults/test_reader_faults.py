"""Readers that raise, time out or return garbage on 10% of polls, ghost reads, a reader that disappears and
returns: every intended vote is journaled exactly once, nothing else is, and the table keeps answering."""

from __future__ import annotations

import random
import time
from typing import Any, Callable

import pytest

from companion.hal.interfaces import ReaderError
from companion.hal.mock import MockReader
from companion.table.runtime import Runtime
from tests.table.helpers import enroll, host_call, hw, live_rows

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]
BALLOTS = {"ja": "04A1B2C3", "nein": "04D4E5F6"}


class Flaky:
    """Wraps a mock reader's poll: on `rate` of polls it raises, times out, returns garbage or reads a ghost (an
    enrolled ballot that is not there, for one poll: never two ghosts in a row) instead."""

    def __init__(self, reader: MockReader, rng: random.Random, rate: float) -> None:
        self.reader, self.rng, self.rate = reader, rng, rate
        self.real = reader.poll
        self.faults = 0
        self.ghosts = 0
        self._ghosted = False

    def __call__(self) -> Any:
        ghosted, self._ghosted = self._ghosted, False
        if self.rng.random() >= self.rate:
            return self.real()
        self.faults += 1
        kind = self.rng.randrange(4)
        if kind == 0:
            raise ReaderError("SPI transfer failed")
        if kind == 1:
            raise TimeoutError("no answer from the chip")
        if kind == 2 and not ghosted:
            self.ghosts += 1
            self._ghosted = True
            return self.rng.choice(list(BALLOTS.values()))
        # garbage: a driver that let a corrupt frame through; never an enrolled card
        return self.rng.choice([b"\x00\xff", 17, "", "not hex!", "DEADBEEF" * 5])


def _enroll_ballots(rt: Runtime) -> None:
    for value, uid in BALLOTS.items():
        enroll(rt, uid, "ballot", value)


def _vote_by_card(rt: Runtime, seat: int, value: str) -> None:
    """Put a ballot on the seat's reader until the vote is journaled, then take it away."""
    h = hw(rt)
    before = len(live_rows(rt))
    h.place(f"r{seat}", BALLOTS[value])
    deadline = time.monotonic() + 10
    while not any(r["action"].get("type") == "vote" and r["action"]["seat"] == seat for r in live_rows(rt)[before:]):
        assert time.monotonic() < deadline, f"the ballot on r{seat} was never read: {hw(rt).poller.health()}"
        h.poller.wait_cycles(1)  # type: ignore[union-attr]
        rt.loop.wait_idle()
    h.remove(f"r{seat}")
    rt.loop.wait_idle()


def _votes(rt: Runtime) -> list[tuple[int, str]]:
    return [(r["action"]["seat"], r["action"]["vote"]) for r in live_rows(rt) if r["action"]["type"] == "vote"]


@pytest.mark.parametrize("seed", [1, 2])
def test_readers_failing_on_ten_percent_of_polls_lose_nothing(make_table: Make, seed: int) -> None:
    rt = make_table(seats=3)
    _enroll_ballots(rt)
    rng = random.Random(seed)
    flaky = []
    for i in range(3):
        reader = hw(rt).reader(f"r{i}")
        reader.poll = Flaky(reader, rng, 0.10)  # type: ignore[method-assign]
        flaky.append(reader.poll)
    intended = []
    for _ in range(2):  # two rounds of votes; the host answers the picks
        for seat in range(3):
            value = rng.choice(["ja", "nein"])
            _vote_by_card(rt, seat, value)
            intended.append((seat, value))
        session = rt.loop.session
        assert session is not None and session.rules.to_act(session.state), "the game went on"
        seat = next(iter(session.rules.to_act(session.state)))
        pick = session.rules.legal_actions(session.state, seat)[0]
        assert isinstance(host_call(rt.loop, "submit", seat=None, action=pick, source="test"), dict)
    assert _votes(rt) == intended, "every vote once, in order, and nothing invented by a bad poll or a ghost"
    assert sum(f.faults for f in flaky) > 0  # type: ignore[attr-defined]
    assert sum(f.ghosts for f in flaky) > 0  # type: ignore[attr-defined]
    assert rt.loop.counters.reader_faults > 0
    health = {h["name"]: h for h in rt.hardware.poller.health()}  # type: ignore[union-attr]
    assert all(health[f"r{i}"]["errors"] > 0 for i in range(3) if flaky[i].faults)  # type: ignore[attr-defined]
    assert rt.loop.alive


def test_ghost_reads_of_unknown_tags_change_nothing(make_table: Make) -> None:
    rt = make_table()
    _enroll_ballots(rt)
    rows = live_rows(rt)
    reader = hw(rt).reader("r1")
    real = reader.poll
    ghosts = iter(["04BADA55" if i % 4 == 0 else None for i in range(40)])
    reader.poll = lambda: next(ghosts, None) or real()  # type: ignore[method-assign]
    hw(rt).poller.wait_cycles(45)  # type: ignore[union-attr]
    rt.loop.wait_idle()
    assert live_rows(rt) == rows
    assert rt.loop.counters.inputs == 0 and rt.loop.counters.errors == 0  # a one-poll ghost is not even a tag
    reader.poll = real  # type: ignore[method-assign]
    _vote_by_card(rt, 1, "nein")
    assert _votes(rt) == [(1, "nein")]


@pytest.mark.parametrize("confirm_polls, journaled", [(2, False), (1, True)])
def test_a_one_poll_ghost_of_an_enrolled_card(make_table: Make, confirm_polls: int, journaled: bool) -> None:
    """With confirmation a ghost read of an enrolled ballot is nothing; with confirm_polls = 1 it is a vote."""
    rt = make_table(confirm_polls=confirm_polls)
    _enroll_ballots(rt)
    rows = live_rows(rt)
    sub = rt.handle.subscribe(None)
    sub.get(0.1)  # the initial snapshot
    reader = hw(rt).reader("r1")
    real = reader.poll
    ghosts = iter([BALLOTS["ja"] if i % 4 == 0 else None for i in range(40)])
    reader.poll = lambda: next(ghosts, None) or real()  # type: ignore[method-assign]
    hw(rt).poller.wait_cycles(45)  # type: ignore[union-attr]
    rt.loop.wait_idle()
    reader.poll = real  # type: ignore[method-assign]
    if journaled:
        assert _votes(rt) == [(1, "ja")]  # the first ghost was taken as a placement (the later ones are refused)
        return
    assert live_rows(rt) == rows and rt.loop.counters.inputs == 0
    assert sub.get(0.2) is None, "no event at all"
    sub.close()
    _vote_by_card(rt, 1, "nein")  # the reader still reads a real card ...
    assert _votes(rt) == [(1, "nein")]
    h = hw(rt)
    h.place("r2", BALLOTS["ja"])  # ... and a card resting for two polls is one placement
    rt.loop.wait_idle()
    assert _votes(rt) == [(1, "nein"), (2, "ja")]


def test_a_reader_that_disappears_and_returns(make_table: Make) -> None:
    rt = make_table()
    _enroll_ballots(rt)
    h = hw(rt)
    h.fail_reader("r0", message="MFRC522 version 0x00: no chip on the bus")  # unplugged
    h.place("r0", BALLOTS["ja"])  # a vote laid while the reader is gone is not seen ...
    _vote_by_card(rt, 1, "nein")  # ... and the rest of the table plays on
    health = {x["name"]: x for x in h.poller.health()}  # type: ignore[union-attr]
    assert not health["r0"]["ok"] and "no chip" in health["r0"]["last_error"]
    assert _votes(rt) == [(1, "nein")]
    state = rt.handle.public_state()
    assert state["game"]["view"]["voted"] == [False, True, False]
    h.heal_reader("r0")  # plugged back in: after its backoff the resting ballot is read once
    deadline = time.monotonic() + 15  # the backoff of a long-dead reader is up to 2 s
    while (0, "ja") not in _votes(rt) and time.monotonic() < deadline:
        h.poller.wait_cycles(1)  # type: ignore[union-attr]
        rt.loop.wait_idle()
    assert _votes(rt) == [(1, "nein"), (0, "ja")]
    assert {x["name"]: x for x in h.poller.health()}["r0"]["ok"]  # type: ignore[union-attr]


def test_garbage_from_a_driver_is_a_fault_never_a_tag() -> None:
    from companion.hal.events import ReaderFault, TagPlaced
    from companion.hal.readers import ReaderPoller

    class Garbage(MockReader):
        def __init__(self) -> None:
            super().__init__("g")
            self.script: list[Any] = [b"\x00\xff", 17, "", "not hex!", "DEADBEEF" * 5, "04A1B2C3"]

        def poll(self) -> Any:
            return self.script.pop(0)

    events: list[Any] = []
    now = [0.0]
    poller = ReaderPoller([Garbage()], events.append, confirm_polls=1, clock=lambda: now[0])
    for _ in range(6):
        now[0] += 10.0  # past any backoff
        poller.poll_once()
    placed = [e for e in events if isinstance(e, TagPlaced)]
    assert placed == [TagPlaced("g", "04A1B2C3")], "only the real UID becomes a placement"
    assert all(isinstance(e.uid, str) for e in placed)  # SSE and the card registry need a string
    assert [type(e) for e in events].count(ReaderFault) == 1  # reported once while it keeps failing
    assert poller.health()[0]["errors"] == 5
