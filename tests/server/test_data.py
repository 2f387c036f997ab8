"""The data directory against real `companion run` processes: one writer, a damaged journal refused with a
one-line error, `companion backup` consistent while the table runs, and a restore."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from tests.server.table import Table, companion, digest, free_port, write_config


def _play(table: Table, actions: int) -> int:
    """Accept `actions` seat actions (starting new games when one ends, also after the last action: the table
    is left with a game running); returns the running game's action count."""
    opener, csrf = table.host()
    done = 0
    while True:
        state = table.call("GET", "/api/state")[1]
        if state["game"]["outcome"] is not None:
            assert table.call("POST", "/api/host/new_game", {}, csrf, opener)[0] == 200
            continue
        if done >= actions:
            return int(state["game"]["actions"])
        tokens = [t["token"] for t in table.call("GET", "/api/host/state", opener=opener)[1]["game"]["seat_tokens"]]
        seat = state["game"]["to_act"][0]
        action = table.call("GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]["options"][0]["action"]
        assert table.call("POST", "/api/action", {"token": tokens[seat], "action": action})[0] == 200
        done += 1


def _refused(config: Path, data: Path) -> tuple[int, str]:
    """Start a table that must refuse to: (exit code, stderr)."""
    out = companion("run", "--config", str(config), "--data", str(data), "--port", str(free_port()), timeout=30)
    return out.returncode, out.stderr


def test_a_second_table_on_the_same_data_exits_2_and_changes_nothing(tmp_path: Path) -> None:
    config, data = write_config(tmp_path), tmp_path / "data"
    first = Table(config, data)
    try:
        played = _play(first, 3)
        before = digest(data)
        for port in (free_port(), first.port):  # another port, and the same one (the same config started twice)
            out = companion("run", "--config", str(config), "--data", str(data), "--port", str(port), timeout=30)
            assert out.returncode == 2, out.stderr
            assert out.stderr.startswith("error: data_locked: ") and str(data) in out.stderr
            assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1
        assert digest(data) == before
        assert _play(first, 1) > played  # the first table is untouched and still plays
    finally:
        assert first.stop() == 0
    second = Table(config, data)  # the lock went with the first process
    try:
        assert second.call("GET", "/api/state")[1]["game"]["actions"] > played
    finally:
        second.stop()


def test_a_busy_port_is_found_before_the_database_is_touched(tmp_path: Path) -> None:
    config, data = write_config(tmp_path), tmp_path / "data"
    other = Table(config, tmp_path / "other")
    try:
        out = companion("run", "--config", str(config), "--data", str(data), "--port", str(other.port), timeout=30)
        assert out.returncode == 2 and out.stderr.startswith("error: port_in_use: "), out.stderr
        assert not (data / "table.db").exists()
    finally:
        other.stop()


def _made_table(tmp_path: Path) -> tuple[Path, Path]:
    config, data = write_config(tmp_path), tmp_path / "data"
    table = Table(config, data)
    _play(table, 5)
    assert table.stop() == 0
    return config, data


def _damage(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    page = int.from_bytes(raw[16:18], "big")
    for start in range(page, len(raw), page):  # scribble over the header of every page after the first
        raw[start:start + 12] = b"\xa5" * 12
    path.write_bytes(bytes(raw))


def _truncate(path: Path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2 + 123])


def _foreign_text(path: Path) -> None:
    path.write_text("these are my notes, not a table\n" * 200)


def _foreign_sqlite(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(str(path))
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('beach')")
    db.commit()
    db.close()


@pytest.mark.parametrize("harm, code", [(_damage, "journal_damaged"), (_truncate, "journal_damaged"),
                                        (_foreign_text, "journal_foreign"), (_foreign_sqlite, "journal_foreign")])
def test_a_bad_database_exits_2_with_one_line_and_is_never_overwritten(tmp_path: Path, harm: object,
                                                                       code: str) -> None:
    config, data = _made_table(tmp_path)
    db = data / "table.db"
    harm(db)  # type: ignore[operator]
    before = digest(data)
    status, err = _refused(config, data)
    assert status == 2, err
    assert err.startswith(f"error: {code}: {db}") and err.count("\n") == 1 and "Traceback" not in err, err
    assert "move it aside" in err and "companion backup" in err
    after = digest(data)
    assert after.get("table.db") == before["table.db"], "the database file was changed"


def test_an_empty_database_with_a_wal_beside_it_is_not_a_new_table(tmp_path: Path) -> None:
    config, data = write_config(tmp_path), tmp_path / "data"
    table = Table(config, data)
    try:
        _play(table, 5)
        wal = (data / "table.db-wal").read_bytes()  # the running table's journal, not yet checkpointed
    finally:
        table.proc.kill()
        table.proc.wait()
    assert len(wal) > 0
    (data / "table.db").write_bytes(b"")  # as a bad copy or a full disk leaves it
    (data / "table.db-wal").write_bytes(wal)
    status, err = _refused(config, data)
    assert status == 2 and err.startswith("error: journal_damaged: ") and "table.db-wal" in err, err
    assert (data / "table.db").read_bytes() == b"" and (data / "table.db-wal").read_bytes() == wal


def test_backup_while_the_table_runs_holds_every_game_and_restores(tmp_path: Path) -> None:
    config, data = write_config(tmp_path), tmp_path / "data"
    table = Table(config, data)
    try:
        played = _play(table, 40)
        live = table.call("GET", "/api/state")[1]["game"]
        copy = tmp_path / "backup.db"
        out = companion("backup", str(copy), "--config", str(config), "--data", str(data))
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"backed up {data / 'table.db'} to {copy}:")
        assert (data / "table.db-wal").stat().st_size > 0, "the test means little if nothing was in the WAL"
        again = companion("backup", str(copy), "--data", str(data))
        assert again.returncode == 2 and again.stderr.startswith("error: backup_exists: ")
        assert table.call("GET", "/api/state")[0] == 200  # the table never noticed
    finally:
        table.stop()
    assert copy.stat().st_mode & 0o777 == 0o600
    assert not copy.with_name("backup.db-wal").exists()  # one self-contained file
    db = sqlite3.connect(str(copy))
    (live_actions,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone = 0",
                                 (live["id"],)).fetchone()
    db.close()
    assert live_actions == played
    restored = tmp_path / "restored"  # the README's restore: the copy becomes table.db of a data directory
    restored.mkdir()
    shutil.copy(copy, restored / "table.db")
    table = Table(config, restored)
    try:
        state = table.call("GET", "/api/state")[1]
        assert state["game"]["id"] == live["id"] and state["game"]["actions"] == live["actions"]
        assert state["game"]["view"] == live["view"]
    finally:
        table.stop()


def test_backup_of_a_4_mb_database_is_quick(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = sqlite3.connect(str(data / "table.db"))
    from companion.table.journal import SCHEMA
    db.executescript(SCHEMA)
    db.execute("INSERT INTO games (game, seats, options, mode, tokens, started) VALUES ('x', 3, '{}', 'digital', "
               "'[]', 0)")
    action = json.dumps({"type": "vote", "seat": 0, "vote": "ja", "pad": "y" * 150})
    db.executemany("INSERT INTO actions (game_id, idx, action, source, at) VALUES (1, ?, ?, 'test', 0)",
                   [(i, action) for i in range(18000)])
    db.commit()
    db.close()
    size = (data / "table.db").stat().st_size
    assert 4_000_000 <= size <= 5_000_000
    started = time.perf_counter()
    out = companion("backup", str(tmp_path / "copy.db"), "--data", str(data))
    total = time.perf_counter() - started
    assert out.returncode == 0, out.stderr
    copied_ms = float(out.stdout.rsplit(" in ", 1)[1].split()[0])
    print(f"\nbackup of a {size / 1e6:.1f} MB database: {copied_ms:.0f} ms copying, {total * 1000:.0f} ms "
          f"for the whole command")
    assert copied_ms < 2000


def test_a_restart_ends_host_sessions(tmp_path: Path) -> None:
    """Sessions live in the table process: after a restart an old cookie (perhaps copied before a logout the
    new process cannot know about) is refused and the host logs in again."""
    config, data = write_config(tmp_path), tmp_path / "data"
    table = Table(config, data)
    try:
        opener, csrf = table.host()
        assert table.call("GET", "/api/host/state", opener=opener)[0] == 200
    finally:
        table.stop()
    table = Table(config, data, port=table.port)
    try:
        assert table.call("GET", "/api/host/state", opener=opener)[0] == 401
        assert table.call("POST", "/api/host/undo", {}, csrf, opener)[0] == 401
        table.host()
    finally:
        table.stop()


def test_a_database_copied_without_its_wal_is_refused_in_words(tmp_path: Path) -> None:
    config, data = write_config(tmp_path), tmp_path / "data"
    table = Table(config, data)
    copy = tmp_path / "copy"
    copy.mkdir()
    try:
        _play(table, 5)
        shutil.copy(data / "table.db", copy / "table.db")  # `cp table.db` while it runs: the games are in the WAL
    finally:
        assert table.stop() == 0
    before = digest(copy)
    status, err = _refused(config, copy)
    assert status == 2 and err.startswith(f"error: journal_incomplete: {copy / 'table.db'} holds no games"), err
    assert "companion backup" in err and "table.db-wal" in err and err.count("\n") == 1, err
    listed = companion("games", "list", "--config", str(config), "--data", str(copy), timeout=30)
    assert listed.returncode == 2 and listed.stderr.startswith("error: journal_incomplete: "), listed.stderr
    assert digest(copy)["table.db"] == before["table.db"], "nothing was written into the copy"
    assert not (data / "table.db-wal").exists(), "stopped, the table checkpointed its log: table.db alone is whole"
    shutil.copy(data / "table.db", copy / "table.db")
    listed = companion("games", "list", "--config", str(config), "--data", str(copy), timeout=30)
    assert listed.returncode == 0, listed.stderr
