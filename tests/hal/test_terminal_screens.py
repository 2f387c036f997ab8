"""Prompts of any size on a seat terminal: one screen, pages, two levels, the phone; the v1 limit; the one hub path."""

from __future__ import annotations

from typing import Any

import pytest

from companion.hal import terminal_protocol as proto
from companion.hal import terminal_screens as screens
from companion.hal.events import TerminalChoice, TerminalHello
from companion.hal.mock import MockTerminalHub, TerminalUnplugged


def options(*groups: tuple[str, int]) -> list[dict[str, Any]]:
    """Table options: `count` of each kind, values numbered across them."""
    out: list[dict[str, Any]] = []
    for kind, count in groups:
        for i in range(count):
            out.append({"value": len(out), "label": f"{kind} Seat {i + 1}", "short": f"{kind} Seat {i + 1}",
                        "group": kind, "item": f"Seat {i + 1}", "action": {"type": kind, "target": i}})
    return out


def table_prompt(ballot: str, opts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"v": 1, "type": "prompt", "ballot": ballot, "options": opts, "info": {}}


def started() -> tuple[MockTerminalHub, list[object]]:
    events: list[object] = []
    hub = MockTerminalHub()
    hub.start(events.append)
    return hub, events


V1 = screens.Capability()
SMALL = screens.Capability(2, 5)


def test_a_prompt_that_fits_goes_as_it_is() -> None:
    plan = screens.layout(options(("vote", 2)), V1)
    assert plan is not None and plan.groups == ()
    title, entries = screens.screen_at(plan, screens.Place(), V1)
    assert entries == [("0", "vote Seat 1"), ("1", "vote Seat 2")]


def test_nine_nominees_are_paged_for_a_v1_terminal_within_eight_options() -> None:
    plan = screens.layout(options(("nominate", 9)), V1)
    assert plan is not None
    first = screens.screen_at(plan, screens.Place(), V1)[1]
    assert len(first) == 8 and first[-1] == (screens.MORE, "more >")
    second_place = screens.navigate(plan, screens.Place(), screens.MORE, V1)
    assert second_place is not None
    second = screens.screen_at(plan, second_place, V1)[1]
    assert [v for v, _ in second] == ["7", "8", screens.MORE]
    assert screens.navigate(plan, second_place, screens.MORE, V1) == screens.Place(-1, 0, 0)  # wraps around


def test_several_kinds_go_on_two_levels_kind_then_target() -> None:
    plan = screens.layout(options(("patrol", 10), ("fulfil", 9), ("pass", 1)), SMALL)
    assert plan is not None and [g.title for g in plan.groups] == ["patrol", "fulfil"]
    title, root = screens.screen_at(plan, screens.Place(), SMALL)
    assert root == [("~g0", "patrol (10)"), ("~g1", "fulfil (9)"), ("19", "pass Seat 1")]  # a kind of one is the option
    inside = screens.navigate(plan, screens.Place(), "~g1", SMALL)
    title, entries = screens.screen_at(plan, inside, SMALL)  # type: ignore[arg-type]
    assert title == "fulfil 1/3" and entries == [("10", "Seat 1"), ("11", "Seat 2"), ("12", "Seat 3"),
                                                 (screens.MORE, "more >"), (screens.UP, "< back")]
    assert screens.navigate(plan, inside, screens.UP, SMALL) == screens.Place()  # type: ignore[arg-type]


def test_a_prompt_too_big_for_any_level_goes_to_the_phone() -> None:
    assert screens.layout(options(("pay", 162)), V1) is None
    assert screens.layout(options(("pay", 40)), V1) is not None  # 6 pages of 7


def test_long_labels_are_shortened_until_the_line_fits() -> None:
    entries = [(str(i), "결" * 64) for i in range(8)]
    message = screens.prompt_message("b.1:1", "choose", entries, V1)
    assert len(proto.encode(message)) <= proto.MAX_LINE and message.title is None  # no title for a v1 terminal
    assert {len(o.label) for o in message.options} == {32}


def test_a_v1_terminal_on_the_mock_hub_gets_pages_and_the_table_value_comes_back() -> None:
    hub, events = started()
    hub.connect("T0", version=None)
    assert events[-1] == TerminalHello("T0", "mock-1", 8, link="mock:T0#1")
    assert hub.send("T0", table_prompt("g.1", options(("nominate", 9))))
    first = hub.screen("T0")
    assert isinstance(first, proto.Prompt) and len(first.options) == 8 and first.title is None
    hub.choose("T0", "g.1", 8)
    assert events[-1] == TerminalChoice("T0", "g.1", 2, 8, "mock:T0#1")  # seq 1 was the page turn, never seen by the table
    assert all(len(line) <= proto.MAX_LINE for line in hub.lines["T0"])


def test_the_phone_state_is_shown_and_the_terminal_cannot_choose() -> None:
    hub, events = started()
    hub.connect("T0")
    hub.connect("T1", version=None)
    for terminal in ("T0", "T1"):
        assert hub.send(terminal, table_prompt("g.2", options(("pay", 162))))
    assert isinstance(hub.screen("T0"), proto.Phone)
    v1 = hub.screen("T1")
    assert isinstance(v1, proto.Prompt) and [o.value for o in v1.options] == [screens.PHONE]
    hub.press("T1", screens.PHONE)  # pressing it only shows it again
    assert isinstance(hub.screen("T1"), proto.Prompt) and hub.screen("T1") != v1
    hub.choose("T0", "g.2", 5)  # what a terminal sends anyway is the wire string, which the table refuses
    assert events[-1] == TerminalChoice("T0", "g.2", 1, "5", "mock:T0#1")
    assert hub.screen_health()["screens"]["T0"]["phone"] is True


def test_a_failed_send_is_reported_for_that_terminal_and_the_next_one_still_gets_its_prompt() -> None:
    hub, _ = started()
    hub.connect("T0")
    hub.connect("T1")
    bad = table_prompt("not a ballot id", options(("vote", 2)))
    assert hub.send("T0", bad) is False
    assert hub.send("T1", table_prompt("g.3", options(("vote", 2)))) is True
    assert hub.last_problem == {"T0": "bad_field"} and hub.problems == 1
    assert isinstance(hub.screen("T1"), proto.Prompt)
    assert hub.send("T0", {"type": "nonsense"}) is False and hub.problems == 2


def test_a_terminal_reader_reports_the_tag_until_untag() -> None:
    hub, _ = started()
    hub.connect("T0")
    hub.tag("T0", "04a1b2c3")
    (reader,) = hub.readers()
    assert reader.name == "terminal:T0" and reader.poll() == "04A1B2C3"
    hub.tag("T0", None)
    assert reader.poll() is None
    hub.tag("T0", "04a1b2c3")
    hub.disconnect("T0")
    assert reader.poll() is None


def test_an_unplugged_mock_terminal_sends_nothing_as_a_real_one_cannot() -> None:
    hub, events = started()
    for send in (lambda: hub.tag("T0", "04a1b2c3"), lambda: hub.press("T0", "1")):
        with pytest.raises(TerminalUnplugged) as refused:
            send()
        assert isinstance(refused.value, OSError) and refused.value.code == "terminal_unplugged"
    hub.connect("T0")
    hub.disconnect("T0")
    with pytest.raises(TerminalUnplugged):
        hub.tag("T0", "04a1b2c3")
    assert [type(e).__name__ for e in events] == ["TerminalHello", "TerminalGone"]


@pytest.mark.parametrize("count", [1, 7, 8, 9, 20, 48])
def test_every_option_is_reachable_on_every_terminal_size(count: int) -> None:
    hub, events = started()
    for screen in (2, 3, 5, 8):
        hub.connect(f"T{screen}", screen=screen)
        hub.send(f"T{screen}", table_prompt("g.4", options(("a", count // 2), ("b", count - count // 2))))
        if screens.layout(options(("a", count // 2), ("b", count - count // 2)), screens.Capability(2, screen)) is None:
            assert isinstance(hub.screen(f"T{screen}"), proto.Phone)
            continue
        for value in range(count):
            hub.choose(f"T{screen}", "g.4", value)
            assert isinstance(events[-1], TerminalChoice) and events[-1].value == value


def test_one_kind_with_many_targets_goes_on_two_levels_by_the_first_target() -> None:
    pairs = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]  # a patrol of two of six locations: 15
    opts = [{"value": i, "label": f"patrol {a} {b}", "group": "patrol", "item": f"{a} {b}"}
            for i, (a, b) in enumerate(pairs)]
    cap = screens.Capability(2, 3)
    plan = screens.layout(opts, cap)
    assert plan is not None and [g.title for g in plan.groups] == [f"patrol {a}" for a in range(1, 5)]
    title, root = screens.screen_at(plan, screens.Place(), cap)
    assert root == [("~g0", "patrol 1 (5)"), ("~g1", "patrol 2 (4)"), (screens.MORE, "more >")]
    assert plan.groups[0].entries[:2] == (("0", "2"), ("1", "3"))
    assert ("14", "patrol 5 6") in plan.root.entries  # a first target with one option is that option


def test_showing_names_a_screen_only_once_it_is_written_to_the_terminal() -> None:
    """A test (or a page) that acts on `showing` must never act before the terminal can have the screen."""
    hub, _ = started()
    hub.connect("T0", version=None)
    seen_during_write: list[object] = []
    write = hub._write  # noqa: SLF001 - the transport's write, watched

    def watched(terminal: str, message: proto.Message) -> bool:
        seen_during_write.append(hub.showing(terminal))
        return write(terminal, message)

    hub._write = watched  # type: ignore[method-assign]  # noqa: SLF001
    assert hub.send("T0", table_prompt("g.1", options(("nominate", 9))))
    first = hub.showing("T0")
    assert isinstance(first, proto.Prompt) and first == hub.screen("T0")
    hub.press("T0", screens.MORE)  # the next page
    second = hub.showing("T0")
    assert isinstance(second, proto.Prompt) and second != first and second == hub.screen("T0")
    # while each screen was written, the one before it was named (the page turn's ack went while `first` showed)
    assert seen_during_write == [None, first, first]
