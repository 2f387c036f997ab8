"""SQLite itself refuses the commit (another connection holds the lock; the database hits its page limit):
the action is refused with a stable code, nothing changes or shows, and the same action goes in afterwards."""

from __future__ import annotations

import sqlite3
from typing import Callable

import pytest

from companion.table.runtime import Runtime
from companion.web.facade import Refusal
from tests.table.helpers import live_rows

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]
VOTE = {"type": "vote", "vote": "ja"}


def _refused_without_effect(rt: Runtime, code: str) -> None:
    state, rows, snapshot = rt.loop.session.state, live_rows(rt), rt.loop.snapshot  # type: ignore[union-attr]
    sub = rt.handle.subscribe(None)
    sub.get(0.1)  # the initial snapshot
    result = rt.loop.call("submit", seat=0, action=VOTE, source="test")
    assert isinstance(result, Refusal) and result.code == code, result
    assert rt.loop.session.state is state  # type: ignore[union-attr]
    assert rt.loop.snapshot is snapshot
    event = sub.get(0.5)
    assert event is not None and event.type == "rejected" and event.data["code"] == code
    assert sub.get(0.1) is None, "a refused commit must not publish a new state"
    sub.close()
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
    assert isinstance(rt.loop.call("submit", seat=0, action=VOTE, source="test"), dict)
    assert live_rows(rt)[before]["action"] == {**VOTE, "seat": 0}


def test_a_full_database_refuses_with_journal_full_then_recovers(make_table: Make) -> None:
    rt = make_table()
    rt.loop.wait_idle()
    # SQLite's own limit: no page may be added, so the next commit that needs one fails with SQLITE_FULL
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
        _refused_without_effect(rt, "journal_full")
    finally:
        with rt.conn:
            rt.conn.execute("DELETE FROM actions WHERE game_id = ?", (filler,))
        rt.conn.execute("PRAGMA max_page_count = 1073741823")
    before = len(live_rows(rt))
    assert isinstance(rt.loop.call("submit", seat=0, action=VOTE, source="test"), dict)
    assert live_rows(rt)[before]["action"] == {**VOTE, "seat": 0}
