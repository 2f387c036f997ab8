"""Inputs that queue while the loop is busy (seven ballots dropped at once, or votes sent from phones) are
stepped one after another and their appends committed in one transaction: one fsync for the burst, the same
journal, state and last state event as one at a time (a state event is the whole public state: the group sends
its last), nothing shown before the commit, and a failed group commit handled as if nothing had been grouped."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from companion.hal.events import ButtonPressed, TagPlaced
from companion.table import loop as loop_module
from companion.table.core.commands import Ping, Submit
from companion.table.loop import Call
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from companion.table.session import from_record
from tests.table.conftest import table_config
from tests.table.helpers import live_rows, queue_while_busy

pytestmark = pytest.mark.usefixtures("tiny_game")

VOTES = [ButtonPressed(0, "ja"), ButtonPressed(1, "nein"), ButtonPressed(2, "ja")]
"""A whole round's vote of the 3-seat tiny game: its last ballot also draws (a chance action) in its step."""


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Callable[[str], Runtime]]:
    """Tables that all deal and draw alike (the same seed), so grouped and one-at-a-time runs compare."""
    started: list[Runtime] = []

    def make(name: str) -> Runtime:
        runtime = Runtime(table_config(tmp_path / name), rng=random.Random(7)).start()
        started.append(runtime)
        return runtime

    yield make
    for runtime in started:
        runtime.stop()


def _commits(rt: Runtime, published: list[int] | None = None) -> list[int]:
    """From now on, the number of appends in each of the journal's action transactions (the real journal);
    `published` gets the bus's last event number as each commit begins."""
    sizes: list[int] = []
    real = rt.journal.append_all

    def counted(appends: Any) -> int:
        appends = list(appends)
        if published is not None:
            published.append(rt.loop.bus.last_number())
        written = real(appends)
        sizes.append(len(appends))
        return written

    rt.journal.append_all = counted  # type: ignore[method-assign]
    return sizes


def _one_at_a_time(rt: Runtime, items: list[Any]) -> None:
    for item in items:
        rt.loop.inbox.put(item)
        rt.loop.wait_idle()


def _played(rt: Runtime) -> list[tuple[Any, str]]:
    return [(r["action"], r["source"]) for r in live_rows(rt)]


def _states(sub: Any) -> list[dict[str, Any]]:
    out = []
    while (event := sub.get(0.3)) is not None:
        if event.type == "state":
            out.append(event.data)
    return out


def _unbooted(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The states without the table's boot id (each table process draws its own)."""
    return [{**s, "table": {k: v for k, v in s["table"].items() if k != "boot"}} for s in states]


def test_a_burst_is_one_commit_with_the_same_journal_state_and_events(table: Callable[[str], Runtime]) -> None:
    alone, grouped = table("alone"), table("grouped")
    subs = {}
    for name, rt in (("alone", alone), ("grouped", grouped)):
        subs[name] = rt.handle.subscribe(None)
        subs[name].get(0.5)  # the snapshot it starts from
    shown: list[int] = []
    alone_commits, grouped_commits = _commits(alone), _commits(grouped, shown)
    before = grouped.loop.bus.last_number()
    scenes = {rt: rt.renderer.scene_version for rt in (alone, grouped)}
    _one_at_a_time(alone, VOTES)
    queue_while_busy(grouped, VOTES)
    assert alone.renderer.scene_version - scenes[alone] == 3
    assert grouped.renderer.scene_version - scenes[grouped] == 1, "a group shows its last LED scene only"
    assert alone.renderer.wait_rendered() and grouped.renderer.wait_rendered()
    assert grouped.hardware.mock_strip.last() == alone.hardware.mock_strip.last()  # type: ignore[attr-defined]
    assert alone_commits == [1, 1, 1]
    assert grouped_commits == [3], "three queued ballots, one transaction"
    assert shown == [before], "nothing of the burst was published before its commit"
    assert _played(grouped) == _played(alone)
    assert [a["type"] for a, _ in _played(grouped)] == ["deal", "vote", "vote", "vote", "draw"]
    assert grouped.loop.session.state == alone.loop.session.state  # type: ignore[union-attr]
    alone_states, grouped_states = _states(subs["alone"]), _states(subs["grouped"])
    assert len(alone_states) == 3 and len(grouped_states) == 1, "a group publishes its last state only"
    assert _unbooted(grouped_states) == _unbooted(alone_states[-1:])
    assert _unbooted([grouped.loop.snapshot]) == _unbooted([alone.loop.snapshot])
    assert grouped.loop.counters == alone.loop.counters


def test_a_call_between_queued_inputs_commits_what_came_before_it_first(table: Callable[[str], Runtime]) -> None:
    rt = table("split")
    commits = _commits(rt)
    answered: list[int] = []
    ping = Call(Ping())
    ping.future.add_done_callback(lambda _: answered.append(len(live_rows(rt))))
    queue_while_busy(rt, [VOTES[0], VOTES[1], ping, VOTES[2]])
    assert commits == [2, 1]
    assert answered == [3], "the call ran after the two ballots before it were journaled, before the third"
    assert [a["type"] for a, _ in _played(rt)] == ["deal", "vote", "vote", "vote", "draw"]


def test_a_failed_group_commit_writes_nothing_and_each_input_goes_in_on_its_own(
        table: Callable[[str], Runtime], monkeypatch: pytest.MonkeyPatch) -> None:
    alone, rt = table("alone"), table("retried")
    _one_at_a_time(alone, VOTES)
    real_append_all, real_insert = rt.journal.append_all, rt.journal._insert
    sizes: list[int] = []
    inserts_in_group: list[int] = []

    def append_all(appends: Any) -> int:
        appends = list(appends)
        sizes.append(len(appends))
        if len(appends) > 1:
            inserts_in_group.append(0)
        try:
            return real_append_all(appends)
        finally:
            inserts_in_group.clear()

    def insert(*args: Any) -> None:
        if inserts_in_group:  # the group's first ballot is written, then the disk fails on its second
            inserts_in_group[0] += 1
            if inserts_in_group[0] == 2:
                raise sqlite3.OperationalError("disk I/O error")
        real_insert(*args)

    monkeypatch.setattr(rt.journal, "_insert", insert)
    monkeypatch.setattr(rt.journal, "append_all", append_all)
    sub = rt.handle.subscribe(None)
    sub.get(0.5)
    phone = Call(Submit(1, {"type": "vote", "vote": "nein"}, "seat:1"))  # seat 1 votes from its phone
    queue_while_busy(rt, [VOTES[0], phone, VOTES[2]])
    assert sizes == [3, 1, 1, 1]
    assert phone.future.result(1) == {"accepted": 1, "pending": False}, "the phone hears of its own commit"
    played = _played(rt)
    assert [a for a, _ in played[:4]] == [a for a, _ in _played(alone)[:4]]
    assert played[4][0]["type"] == "draw" and len(played) == 5
    session = rt.loop.session
    assert session is not None
    record = rt.journal.game(session.game_id)
    assert record is not None and from_record(record).state == session.state, \
        "the journal holds the game as played (the discarded group's draw was never written or shown)"
    assert len(_states(sub)) == 3, "only what was committed shows: the three inputs' own publishes"


def test_a_bad_input_in_a_burst_is_counted_and_the_others_go_in(table: Callable[[str], Runtime],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rt = table("bad")
    commits = _commits(rt)
    real_step = loop_module.step

    def step(state: Any, item: Any, ctx: Any) -> Any:
        if item == VOTES[1]:
            raise RuntimeError("a bug in one input's handling")
        return real_step(state, item, ctx)

    monkeypatch.setattr(loop_module, "step", step)
    errors = rt.loop.counters.errors
    queue_while_busy(rt, VOTES)
    assert commits == [1, 1], "the ballot before the bad input went in first, then the one after it"
    assert [(a["type"], a.get("seat")) for a, _ in _played(rt)] == [("deal", -1), ("vote", 0), ("vote", 2)]
    assert rt.loop.counters.errors == errors + 1
    assert not isinstance(rt.loop.call(Ping()), Refusal), "the table goes on"


def test_a_bug_in_a_group_commit_leaves_the_loop_running(table: Callable[[str], Runtime],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rt = table("bug")
    real = rt.journal.append_all

    def append_all(appends: Any) -> int:
        appends = list(appends)
        if len(appends) > 1:
            raise TypeError("a bug, not a database fault")
        return real(appends)

    monkeypatch.setattr(rt.journal, "append_all", append_all)
    queue_while_busy(rt, VOTES)
    assert rt.loop.alive, "the loop thread survives"
    assert [a["type"] for a, _ in _played(rt)] == ["deal", "vote", "vote", "vote", "draw"], "each went in alone"


def test_votes_submitted_from_phones_at_once_share_one_commit(table: Callable[[str], Runtime]) -> None:
    alone, rt = table("alone"), table("phones")
    _one_at_a_time(alone, VOTES)
    commits = _commits(rt)
    votes = [Call(Submit(v.seat, {"type": "vote", "vote": v.key}, f"seat:{v.seat}")) for v in VOTES]
    answered: list[int] = []
    for call in votes:  # a phone's POST /api/action waits on its call's answer, given after the commit
        call.future.add_done_callback(lambda _: answered.append(len(live_rows(rt))))
    queue_while_busy(rt, votes)
    assert commits == [3]
    assert [c.future.result(1) for c in votes] == [{"accepted": 1, "pending": False}] * 2 + [
        {"accepted": 2, "pending": False}], "the last vote's answer counts the draw it brought"
    assert answered == [5, 5, 5], "each phone hears back once its vote is journaled"
    assert [a for a, _ in _played(rt)] == [a for a, _ in _played(alone)]
    assert rt.loop.session.state == alone.loop.session.state  # type: ignore[union-attr]


def test_a_group_keeps_every_event_but_the_superseded_states(table: Callable[[str], Runtime]) -> None:
    rt = table("events")
    sub = rt.handle.subscribe(None)
    sub.get(0.5)
    commits = _commits(rt)
    queue_while_busy(rt, [VOTES[0], TagPlaced("r1", "DEADBEEF"), VOTES[1]])  # a card no one enrolled, between
    events = list(iter(lambda: sub.get(0.3), None))
    assert commits == [2]
    assert [e.type for e in events] == ["unknown_tag", "state"], events
    assert events[0].data == {"zone": "seat:1"}, "the UID is the host's alone"
    assert events[1].data["game"]["view"]["voted"] == [True, True, False]
    assert rt.loop.snapshot["game"]["view"]["voted"] == [True, True, False]
