"""The journal API: components under one name, ids the table chooses, databases written by older versions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.table.journal import SCHEMA, Journal, open_db


def test_a_database_from_before_the_table_chose_ids_still_opens_and_never_reuses_one(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    old = sqlite3.connect(str(path))
    old.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, seats INTEGER NOT NULL,
            options TEXT NOT NULL, mode TEXT NOT NULL, tokens TEXT NOT NULL, started REAL NOT NULL, ended REAL,
            end_reason TEXT, outcome TEXT);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
            action TEXT NOT NULL, source TEXT NOT NULL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, idx));
        INSERT INTO games (game, seats, options, mode, tokens, started) VALUES ('tiny', 3, '{}', 'physical', '[]', 1);
        INSERT INTO games (game, seats, options, mode, tokens, started) VALUES ('tiny', 3, '{}', 'digital', '[]', 2);
        DELETE FROM games WHERE id = 2;
    """)
    old.commit()
    old.close()
    journal = Journal(open_db(path))  # the newer tables are added, the old column keeps its name
    record = journal.game(1)
    assert record is not None and record.components == "physical"
    assert journal.history(5)[0]["components"] == "physical" and "mode" not in journal.history(5)[0]
    assert journal.next_game_id() == 3, "id 2 was used once: never again"
    chosen = journal.next_game_id()
    assert journal.new_game("tiny", 3, {}, "digital", ("t",) * 3, game_id=chosen) == chosen
    assert journal.next_game_id() == chosen + 1 and journal.terminal_bindings() == {}


def _indices(path: Path, game_id: int) -> list[tuple[int, int]]:
    """(idx, undone) of a game's rows as another connection reads them."""
    reader = sqlite3.connect(str(path))
    try:
        return list(reader.execute("SELECT idx, undone FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)))
    finally:
        reader.close()


def test_action_indices_run_on_through_undo_failed_writes_and_a_reopened_database(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    journal = Journal(open_db(path))
    game = journal.new_game("tiny", 3, {}, "digital", ("t",) * 3, [({"type": "deal", "seat": -1}, "chance")])
    other = journal.new_game("tiny", 3, {}, "digital", ("t",) * 3)
    journal.append(game, [({"type": "a", "seat": 0}, "test"), ({"type": "b", "seat": 1}, "test")])
    journal.append(other, [({"type": "a", "seat": 0}, "test")])
    assert journal.undo_from(game, 2) == 1  # the last one undone, its row kept
    journal.append(game, [({"type": "c", "seat": 2}, "test")])  # a new action: the undone one is history (2)
    assert _indices(path, game) == [(0, 0), (1, 0), (2, 2), (3, 0)] and _indices(path, other) == [(0, 0)]

    journal.conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'no'); END")
    try:
        journal.append(game, [({"type": "d", "seat": 0}, "test")])
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("the trigger should have refused the write")
    journal.conn.execute("DROP TRIGGER refuse")
    assert _indices(path, game)[-1] == (3, 0), "the refused write left nothing"
    journal.append(game, [({"type": "d", "seat": 0}, "test")], end=("finished", None))
    assert _indices(path, game)[-1] == (4, 0)
    journal.conn.close()

    reopened = Journal(open_db(path))  # a restarted table asks the database where each game stands
    reopened.append(other, [({"type": "b", "seat": 1}, "test")])
    assert _indices(path, other) == [(0, 0), (1, 0)]
    record = reopened.game(game)
    assert record is not None and [a["type"] for a in record.actions] == ["deal", "a", "c", "d"]


def test_a_new_database_has_small_pages_so_a_tap_writes_little_and_an_older_one_keeps_its_own(tmp_path: Path) -> None:
    journal = Journal(open_db(tmp_path / "new.db"))
    assert journal.conn.execute("PRAGMA page_size").fetchone() == (1024,)
    game = journal.new_game("tiny", 3, {}, "digital", ("t",) * 3)
    journal.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log starts empty: what one tap adds is measured
    journal.append(game, [({"type": "vote", "seat": 1, "vote": "ja"}, "reader:r1")])
    assert (tmp_path / "new.db-wal").stat().st_size <= 4 * (1024 + 24) + 32, "about two pages and a header"

    old_path = tmp_path / "old.db"
    old = sqlite3.connect(str(old_path))
    old.execute("PRAGMA page_size=4096")
    old.executescript(SCHEMA)  # as an earlier version made it
    old.commit()
    old.close()
    older = Journal(open_db(old_path))
    assert older.conn.execute("PRAGMA page_size").fetchone() == (4096,)
    game = older.new_game("tiny", 3, {}, "digital", ("t",) * 3)
    assert older.append(game, [({"type": "vote", "seat": 1, "vote": "ja"}, "reader:r1")]) == 1
    assert older.game(game) is not None and len(older.game(game).actions) == 1  # type: ignore[union-attr]


def test_redo_makes_the_last_undone_rows_live_and_a_new_action_drops_them(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    journal = Journal(open_db(path))
    game = journal.new_game("tiny", 3, {}, "digital", ("t",) * 3, [({"type": "deal", "seat": -1}, "chance")])
    journal.append(game, [({"type": "a", "seat": 0}, "test"), ({"type": "draw", "seat": -1}, "chance"),
                          ({"type": "b", "seat": 1}, "test")])
    assert journal.undo_from(game, 3) == 1 and journal.undo_from(game, 1) == 2
    record = journal.game(game)
    assert record is not None and [a["type"] for a in record.redo] == ["a", "draw", "b"] and record.undone == 3
    with pytest.raises(ValueError):  # more than there is to redo: nothing written
        journal.redo(game, 4)
    assert journal.redo(game, 2) == 2
    record = journal.game(game)
    assert record is not None and [a["type"] for a in record.actions] == ["deal", "a", "draw"]
    assert [a["type"] for a in record.redo] == ["b"] and (record.undone, record.redone) == (3, 2)  # 3 taken back, 2 redone
    journal.conn.close()

    reopened = Journal(open_db(path))  # a restarted journal asks the database whether an append drops a redo
    reopened.append(game, [({"type": "c", "seat": 2}, "test")])
    assert _indices(path, game) == [(0, 0), (1, 0), (2, 0), (3, 2), (4, 0)]
    record = reopened.game(game)
    assert record is not None and record.redo == () and [a["type"] for a in record.actions][-1] == "c"
    with pytest.raises(ValueError):
        reopened.redo(game, 1)
