"""The journal's finished games and replay links (companion/table/journal.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.table.journal import Journal, open_db


def test_finished_games_are_listed_newest_first_with_their_counts_and_links_are_per_game(tmp_path: Path) -> None:
    journal = Journal(open_db(tmp_path / "t.db"))
    one = journal.new_game("tiny", 3, {}, "digital", ["a", "b", "c"], [({"type": "deal", "seat": -1}, "table")])
    journal.append(one, [({"type": "vote", "seat": 0}, "api")], end=("finished", {"winners": [0], "reason": "won"}))
    two = journal.new_game("tiny", 3, {}, "digital", ["d", "e", "f"])
    journal.end_game(two, "ended_by_host", None)
    three = journal.new_game("tiny", 3, {}, "digital", ["g", "h", "i"])
    rows = journal.finished()
    assert [r["id"] for r in rows] == [two, one] and three not in {r["id"] for r in rows}
    assert rows[1]["actions"] == 2 and rows[1]["outcome"] == {"winners": [0], "reason": "won"}
    assert rows[0]["outcome"] is None and rows[0]["end_reason"] == "ended_by_host"
    assert journal.outcome_of(one) == {"winners": [0], "reason": "won"} and journal.outcome_of(three) is None
    journal.add_share(one, "tok-1")
    journal.add_share(one, "tok-2")
    journal.add_share(two, "tok-3")
    assert journal.shared_game("tok-2") == one and journal.shared_game("nope") is None
    assert journal.revoke_shares(one) == 2
    assert journal.shared_game("tok-1") is None and journal.shared_game("tok-3") == two


def test_an_older_database_gains_the_links_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = open_db(path)
    conn.execute("DROP TABLE shares")
    conn.commit()
    conn.close()
    journal = Journal(open_db(path))
    journal.add_share(journal.new_game("tiny", 3, {}, "digital", ["a", "b", "c"]), "t")
    tables = {n for (n,) in journal.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "shares" in tables and isinstance(journal.conn, sqlite3.Connection)
