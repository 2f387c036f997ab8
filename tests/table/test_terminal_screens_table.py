"""Seat terminals at a real table: every prompt within the protocol's limits, small terminals choosing through
pages and levels, a terminal's own reader as its seat's reader, and one terminal's failure starving no other."""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.hal import terminal_protocol as proto
from companion.hal.mock import MockTerminalHub
from companion.table.core.commands import Submit
from companion.table.runtime import Runtime
from tests.table.helpers import hw, live_rows
from tests.table.sh_driver import Driver, ballot_uid, enroll_sh_cards

Make = Callable[..., Runtime]
SH = "secret_hitler"
SEAT_READERS = tuple(f"r{i}" for i in range(10))


def test_a_ten_seat_game_on_small_terminals_whose_readers_take_the_ballots(make_table: Make) -> None:
    rt = make_table(game=SH, seats=10, mode="physical", without_readers=SEAT_READERS)
    enroll_sh_cards(rt, 10)
    hub = hw(rt).mock_terminals
    for seat in range(10):  # three option pixels each; seats 7-9 run v1 firmware (8 options, no new fields)
        if seat < 7:
            hub.connect(f"T{seat}", screen=3)
        else:
            hub.connect(f"T{seat}", version=None)
    rt.loop.wait_idle()
    driver = Driver(rt, random.Random(4), terminal_readers=True)
    for _ in range(800):
        if rt.loop.session.rules.outcome(rt.loop.session.state) is not None:  # type: ignore[union-attr]
            break
        driver.step()
    assert rt.loop.status == "over"
    sources = {r["source"] for r in live_rows(rt)}
    assert any(s.startswith("reader:terminal:T") for s in sources)  # ballots tapped at the terminals
    assert driver.inputs["ballot"] > 0 and driver.inputs["terminal"] > 0
    assert rt.loop.counters.errors == 0 and hub.problems == 0
    lines = [line for t in hub.lines for line in hub.lines[t]]
    assert max(len(line) for line in lines) <= proto.MAX_LINE
    for seat in range(10):  # nothing over what each terminal said it shows
        widest = max(len(proto.decode(line).options) for line in hub.lines[f"T{seat}"]  # type: ignore[union-attr]
                     if b'"t":"prompt"' in line)
        assert widest <= (3 if seat < 7 else proto.MAX_OPTIONS)
    turns = sum(1 for t in hub.lines for line in hub.lines[t] if b'"~more"' in line)
    assert turns > 0  # nine nominees do not fit three pixels: the seats paged


def test_a_tag_at_a_terminal_is_on_its_bound_seat_and_nothing_at_an_unbound_one(make_table: Make) -> None:
    rt = make_table(game=SH, seats=5, mode="physical", without_readers=SEAT_READERS)
    enroll_sh_cards(rt, 5)
    hub = hw(rt).mock_terminals
    for seat in range(5):
        hub.connect(f"T{seat}")
    hub.connect("PICO-9")
    rt.loop.wait_idle()
    session = rt.loop.session
    assert session is not None
    # get to the vote: the president nominates on the terminal
    president = session.rules.view(session.state, None)["president"]
    prompt = hub.last_prompt(f"T{president}")
    assert prompt is not None
    hub.choose(f"T{president}", prompt["ballot"], 0)
    rt.loop.wait_idle()
    sub = rt.handle.subscribe(None, host=True)
    hw(rt).tap_at_terminal("PICO-9", ballot_uid(0, "ja"))  # unbound: heard by the host page, plays nothing
    rt.loop.wait_idle()
    before = len(live_rows(rt))
    hw(rt).tap_at_terminal("T2", ballot_uid(2, "nein"))
    rt.loop.wait_idle()
    rows = live_rows(rt)
    assert len(rows) == before + 1
    assert rows[-1]["action"] == {"type": "vote", "seat": 2, "vote": "nein"}
    assert rows[-1]["source"] == "reader:terminal:T2"
    events = []
    while (event := sub.get(0.01)) is not None:
        events.append(event)
    assert any(e.type == "terminal" and e.data == {"terminal": "PICO-9", "input": True} for e in events)


def test_one_terminal_failing_to_send_starves_no_other(make_table: Make, monkeypatch: Any) -> None:
    rt = make_table(game=SH, seats=7)
    hub = hw(rt).mock_terminals
    real_write = MockTerminalHub._write

    def broken(self: MockTerminalHub, terminal: str, message: proto.Message) -> bool:
        if terminal == "T0":
            raise proto.ProtocolError("too_long", "a cable that eats lines")
        return real_write(self, terminal, message)

    monkeypatch.setattr(MockTerminalHub, "_write", broken)
    for seat in range(7):
        hub.connect(f"T{seat}")
    rt.loop.wait_idle()
    session = rt.loop.session
    assert session is not None
    president = session.rules.view(session.state, None)["president"]
    if president == 0:  # T0 could not be shown the nomination: make it on the seat page
        prompt = rt.loop.seat_prompt(0)
        assert prompt is not None
        rt.loop.call(Submit(0, prompt["options"][0]["action"], "seat_page:0"))
    else:
        prompt = hub.last_prompt(f"T{president}")
        assert prompt is not None
        hub.choose(f"T{president}", prompt["ballot"], 0)
    rt.loop.wait_idle()
    assert hub.last_problem.get("T0") == "too_long"  # the vote could not be shown on T0 ...
    for seat in range(1, 7):  # ... and every other seat was shown its vote
        screen = hub.screen(f"T{seat}")
        assert isinstance(screen, proto.Prompt) and {o.label for o in screen.options} == {"vote ja", "vote nein"}
    assert rt.loop.counters.errors == 0 and hub.screen_health()["problems"] >= 1
