"""The journal API: components under one name, ids the table chooses, databases written by older versions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.table.journal import Journal, open_db


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
