"""SQLite itself refuses the commit (another connection holds the lock; the database hits its page limit):
the action is refused with a stable code, nothing changes or shows, and the same action goes in afterwards."""

from __future__ import annotations

import random
import sqlite3
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest

from companion.hal.events import ButtonPressed
from companion.table.runtime import Runtime
from companion.table.session import from_record
from companion.table.refusal import Refusal
from tests.table.helpers import host_call, live_rows, queue_while_busy

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]
VOTE = {"type": "vote", "vote": "ja"}


def _refused_without_effect(rt: Runtime, code: str) -> None:
    state, rows, snapshot = rt.loop.session.state, live_rows(rt), rt.loop.snapshot  # type: ignore[union-attr]
    sub, host = rt.handle.subscribe(None), rt.handle.subscribe(None, host=True)
    sub.get(0.1)  # the initial snapshot
    host.get(0.1)
    result = host_call(rt.loop, "submit", seat=0, action=VOTE, source="test")
    assert isinstance(result, Refusal) and result.code == code, result
    assert rt.loop.session.state is state  # type: ignore[union-attr]
    assert rt.loop.snapshot is snapshot
    event, told = sub.get(0.5), host.get(0.5)
    assert event is not None and event.type == "rejected" and "code" not in event.data, "the host's to read"
    assert told is not None and told.type == "rejected" and told.data["code"] == code
    assert sub.get(0.1) is None, "a refused commit must not publish a new state"
    sub.close()
    host.close()
    assert live_rows(rt) == rows


def test_a_locked_database_refuses_with_journal_locked_then_recovers(make_table: Make) -> None:
    rt = make_table()
    other = sqlite3.connect(str(rt.db_path), timeout=0, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        _refused_without_effect(rt, "journal_locked")
    finally:
        other.execute("ROLLBACK")
        other.close()
    before = len(live_rows(rt))
    assert isinstance(host_call(rt.loop, "submit", seat=0, action=VOTE, source="test"), dict)
    assert live_rows(rt)[before]["action"] == {**VOTE, "seat": 0}


@contextmanager
def full_database(rt: Runtime) -> Iterator[None]:
    """SQLite's own limit: no page may be added, so the next commit that needs one fails with SQLITE_FULL."""
    rt.loop.wait_idle()
    (pages,) = rt.conn.execute("PRAGMA page_count").fetchone()
    rt.conn.execute(f"PRAGMA max_page_count = {pages}")
    # a finished filler game whose action rows take the last free bytes of the action table's pages
    with rt.conn:
        filler = rt.conn.execute("INSERT INTO games (game, seats, options, mode, tokens, started, ended, end_reason) "
                                 "VALUES ('tiny', 2, '{}', 'digital', '[]', 0, 0, 'filler')").lastrowid
    rt.conn.execute("PRAGMA synchronous = OFF")  # filling only; FULL again before the action under test
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for idx in range(100_000):
            with rt.conn:
                rt.conn.execute("INSERT INTO actions (game_id, idx, action, source, at) VALUES (?, ?, '{}', 'f', 0)",
                                (filler, idx))
    rt.conn.execute("PRAGMA synchronous = FULL")
    try:
        yield
    finally:
        with rt.conn:
            rt.conn.execute("DELETE FROM actions WHERE game_id = ?", (filler,))
        rt.conn.execute("PRAGMA max_page_count = 1073741823")


def test_a_full_database_refuses_with_journal_full_then_recovers(make_table: Make) -> None:
    rt = make_table()
    with full_database(rt):
        _refused_without_effect(rt, "journal_full")
    before = len(live_rows(rt))
    assert isinstance(host_call(rt.loop, "submit", seat=0, action=VOTE, source="test"), dict)
    assert live_rows(rt)[before]["action"] == {**VOTE, "seat": 0}



def test_a_burst_into_a_full_database_is_refused_input_by_input_and_nothing_shows(make_table: Make) -> None:
    rt = make_table()
    state, rows, snapshot = rt.loop.session.state, live_rows(rt), rt.loop.snapshot  # type: ignore[union-attr]
    sub = rt.handle.subscribe(None, host=True)
    sub.get(0.1)
    votes = [ButtonPressed(0, "ja"), ButtonPressed(1, "nein"), ButtonPressed(2, "ja")]
    with full_database(rt):
        queue_while_busy(rt, votes)  # queued together: the group's commit fails, then each one's own
        assert rt.loop.session.state is state  # type: ignore[union-attr]
        assert rt.loop.snapshot is snapshot and live_rows(rt) == rows
        events = list(iter(lambda: sub.get(0.3), None))  # the host reads why
        assert [(e.type, e.data["code"]) for e in events] == [("rejected", "journal_full")] * 3, events
    sub.close()
    queue_while_busy(rt, votes)
    assert [r["action"]["type"] for r in live_rows(rt)[len(rows):]] == ["vote", "vote", "vote", "draw"]

# --- a write that belongs with an action: the game's end, the game it replaces -----------------------------------

@contextmanager
def lock_at(rt: Runtime, statement: str) -> Iterator[list[bool]]:
    """Another connection takes the write lock the moment the table's connection starts `statement` (SQL
    prefix); yields [True] if it got the lock there, [False] if the table already held it (same transaction)."""
    other = sqlite3.connect(str(rt.db_path), timeout=0, isolation_level=None, check_same_thread=False)
    taken: list[bool] = []

    def trace(sql: str) -> None:
        if not taken and sql.lstrip().upper().startswith(statement.upper()):
            try:
                other.execute("BEGIN EXCLUSIVE")
                taken.append(True)
            except sqlite3.OperationalError:
                taken.append(False)

    rt.conn.set_trace_callback(trace)
    try:
        yield taken
    finally:
        rt.conn.set_trace_callback(None)
        if taken and taken[0]:
            other.execute("ROLLBACK")
        other.close()


def _to_the_last_action(rt: Runtime) -> tuple[int, dict[str, Any]]:
    """Play the tiny game until one action would end it; returns that (seat, action) unsubmitted."""
    while True:
        session = rt.loop.session
        assert session is not None
        seat = min(session.rules.to_act(session.state))
        action = session.rules.legal_actions(session.state, seat)[0]
        if session.rules.outcome(session.rules.apply(session.state, action)) is not None:
            return seat, action
        assert isinstance(host_call(rt.loop, "submit", seat=seat, action=action, source="test"), dict)


def _journal_state(rt: Runtime, game_id: int) -> tuple[Any, str | None]:
    """What the journal says of a game: its replayed state and its end reason."""
    record = rt.journal.game(game_id)
    assert record is not None
    return from_record(record).state, record.end_reason


Restart = Callable[[Runtime], Runtime]


@pytest.fixture()
def restart() -> Iterator[Restart]:
    """Stop a table and start a new one on the same database (stopped at the end of the test)."""
    started: list[Runtime] = []

    def again(rt: Runtime) -> Runtime:
        rt.stop()
        started.append(Runtime(rt.config, rng=random.Random(9)).start())
        return started[-1]

    yield again
    for rt in started:
        rt.stop()


@pytest.mark.parametrize("statement, committed", [("INSERT INTO actions", False), ("UPDATE games", True)])
def test_the_action_that_ends_the_game_and_its_end_are_one_commit(make_table: Make, restart: Restart,
        statement: str, committed: bool) -> None:
    rt = make_table()
    seat, action = _to_the_last_action(rt)
    before = rt.loop.session
    assert before is not None
    with lock_at(rt, statement) as taken:
        result = host_call(rt.loop, "submit", seat=seat, action=action, source="test")
    # the lock can only come before the actions' transaction: once it writes, the end is in it too
    assert taken == [not committed]
    if committed:
        assert isinstance(result, dict) and rt.loop.status == "over"
        assert rt.loop.session.ended == "finished"  # type: ignore[union-attr]
    else:
        assert isinstance(result, Refusal) and result.code == "journal_locked", result
        assert rt.loop.session is before and rt.loop.status == "running"
    session = rt.loop.session
    assert session is not None
    assert _journal_state(rt, session.game_id) == (session.state, session.ended)
    rt = restart(rt)
    if committed:
        assert rt.journal.history(2)[1]["end_reason"] == "finished"  # the restart started a fresh game
    else:
        assert rt.loop.session is not None and rt.loop.session.game_id == session.game_id
        assert rt.loop.session.state == session.state


def test_the_host_ending_a_game_on_a_locked_journal_is_refused_with_its_code(make_table: Make) -> None:
    rt = make_table()
    session = rt.loop.session
    assert session is not None
    with lock_at(rt, "BEGIN"):
        result = host_call(rt.loop, "end_game")
    assert isinstance(result, Refusal) and result.code == "journal_locked", result
    assert rt.loop.session is session and rt.loop.status == "running"
    assert _journal_state(rt, session.game_id) == (session.state, None)
    assert host_call(rt.loop, "end_game") == {"ended": session.game_id}
    assert _journal_state(rt, session.game_id)[1] == "ended_by_host"


@pytest.mark.parametrize("statement, committed", [
    ("UPDATE games", False), ("INSERT INTO games", True), ("INSERT INTO actions", True)])
def test_a_new_game_the_game_it_replaces_and_its_deal_are_one_commit(make_table: Make, restart: Restart,
        statement: str, committed: bool) -> None:
    rt = make_table()
    assert isinstance(host_call(rt.loop, "submit", seat=0, action=VOTE, source="test"), dict)
    old = rt.loop.session
    assert old is not None
    with lock_at(rt, statement) as taken:
        result = host_call(rt.loop, "new_game", game="tiny", seats=2, replace=True)
    assert taken == [not committed]
    if committed:
        assert isinstance(result, dict) and result["accepted"] == 1  # the deal
        new = rt.loop.session
        assert new is not None and new.game_id == result["game_id"] != old.game_id
        assert _journal_state(rt, old.game_id)[1] == "replaced"
        assert _journal_state(rt, new.game_id) == (new.state, None)
    else:
        assert isinstance(result, Refusal) and result.code == "journal_locked", result
        assert rt.loop.session is old and rt.journal.history(1)[0]["id"] == old.game_id
    assert _journal_state(rt, old.game_id)[0] == old.state
    live = rt.loop.session
    rt = restart(rt)
    assert rt.loop.session is not None and rt.loop.session.game_id == live.game_id  # type: ignore[union-attr]
    assert rt.loop.session.state == live.state  # type: ignore[union-attr]


def test_the_action_that_ends_the_game_on_a_full_database_is_refused_and_the_game_stays_open(
        make_table: Make) -> None:
    rt = make_table()
    seat, action = _to_the_last_action(rt)
    session = rt.loop.session
    assert session is not None
    with full_database(rt):
        result = host_call(rt.loop, "submit", seat=seat, action=action, source="test")
        assert isinstance(result, Refusal) and result.code == "journal_full", result
        assert rt.loop.session is session and rt.loop.status == "running"
        assert _journal_state(rt, session.game_id) == (session.state, None)
    assert isinstance(host_call(rt.loop, "submit", seat=seat, action=action, source="test"), dict)
    finished = rt.loop.session
    assert finished is not None and finished.ended == "finished"
    assert _journal_state(rt, session.game_id) == (finished.state, "finished")
