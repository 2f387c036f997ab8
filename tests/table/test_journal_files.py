"""The journal acknowledges only what is in the database at its path: a data directory removed, moved or replaced
under a running table makes every later action a `journal_gone` refusal, the host is told, and the directory's
path stays locked against a second table."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.table.dbfile import DatabaseFileError, DataLock, JournalFiles, JournalGone
from companion.table.journal import Journal, open_db
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import host_call


def vote(rt: Runtime, seat: int) -> Any:
    return host_call(rt.loop, "submit", seat=seat, action={"type": "vote", "seat": seat, "vote": "ja"},
                     source="test")


def journaled(path: Path) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("how", ["rm", "mv", "replace_db", "replace_lock"])
def test_every_action_after_the_files_left_their_paths_is_refused_journal_gone(
        make_table: Callable[..., Runtime], tiny_game: None, how: str) -> None:
    rt = make_table()
    data = rt.db_path.parent
    events = rt.loop.bus.subscribe(None)
    assert isinstance(vote(rt, 0), dict)
    before = journaled(rt.db_path)
    moved = data.with_name(data.name + ".moved")
    if how == "rm":
        shutil.rmtree(data)
    elif how == "mv":
        data.rename(moved)
    elif how == "replace_db":  # a backup copied over the running database: another file at the path
        copy = data / "copy.db"
        shutil.copy(rt.db_path, copy)
        copy.replace(rt.db_path)
    else:
        (data / "table.lock").unlink()
        (data / "table.lock").write_text("someone else's")
    for seat in (1, 2):
        reply = vote(rt, seat)
        assert isinstance(reply, Refusal) and reply.code == "journal_gone", reply
    assert isinstance(host_call(rt.loop, "new_game", game="tiny", seats=3, components="digital", replace=True),
                      Refusal)
    if how == "mv":
        assert journaled(moved / "table.db") == before  # nothing was written after the files left
    assert rt.loop.journal.gone is not None
    journal = rt.handle.host_state()["journal"]
    assert journal["problem"] == "journal_gone" and journal["what"] in ("removed", "replaced"), journal
    seen = []
    while (event := events.get(0.05)) is not None:
        seen.append((event.type, dict(event.data)))
    assert ("health", {"journal": "journal_gone"}) in seen
    assert rt.loop.counters.errors >= 2


def test_a_table_whose_files_stay_put_checks_each_commit_and_goes_on(make_table: Callable[..., Runtime],
                                                                       tiny_game: None) -> None:
    rt = make_table()
    for seat in range(3):
        assert isinstance(vote(rt, seat), dict)
    assert rt.loop.journal.gone is None
    assert rt.handle.host_state()["journal"] == {"problem": None, "path": None, "what": None}


def test_the_path_stays_locked_after_its_directory_was_removed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = DataLock(data).acquire()
    try:
        shutil.rmtree(data)
        with pytest.raises(DatabaseFileError) as caught:
            DataLock(data).acquire()  # a fresh directory and lock file at the same path
        assert caught.value.code == "data_locked" and "pid" in caught.value.message
    finally:
        first.release()
    DataLock(data).acquire().release()  # released: the next table gets it


def test_journal_files_name_what_left(tmp_path: Path) -> None:
    lock = DataLock(tmp_path).acquire()
    try:
        conn = open_db(tmp_path / "table.db")
        files = JournalFiles(tmp_path / "table.db", lock)
        journal = Journal(conn, files)
        journal.verify()
        (tmp_path / "table.db-wal").rename(tmp_path / "elsewhere")
        with pytest.raises(JournalGone) as caught:
            journal.verify()
        assert caught.value.code == "journal_gone" and "table.db-wal was removed" in caught.value.message
        (tmp_path / "elsewhere").rename(tmp_path / "table.db-wal")
        with pytest.raises(JournalGone):
            journal.verify()  # once gone, gone: what was refused meanwhile must not be half-acknowledged later
        conn.close()
    finally:
        lock.release()
