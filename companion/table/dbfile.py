"""The table database as a file: one writer per data directory (a lock), integrity at open, online backups."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

SQLITE_MAGIC = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"games", "actions"})
"""A database holding tables but not these is someone else's file, never ours to write into."""
LOCK_NAME = "table.lock"
HEADER_BYTES = 100
WAL_VERSIONS = b"\x02\x02"
"""Header bytes 18-19 of a database in WAL mode. Ours turns WAL on before it creates its tables, so until its
first checkpoint the file itself holds no table: such a file with no `-wal` beside it is one copied from a
running table without the log that held everything."""

AFTER_DAMAGE = ("move it aside (e.g. `mv {path} {path}.damaged`) to start an empty table, or restore a backup "
                "made with `companion backup` in its place")


class DatabaseFileError(CompanionError, OSError):
    """The data directory or its database cannot be used (data_locked, journal_damaged, journal_foreign,
    backup_exists, ...): one-line `message` naming the file and what to do."""

    code = "journal_damaged"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


class DataLock:
    """An exclusive lock on a data directory (flock on `table.lock`), held while a table writes there.

    The kernel drops it when the process dies, so a killed table never leaves a stale lock behind."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> "DataLock":
        """Take the lock, or raise DatabaseFileError data_locked naming the holder; writes nothing else."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise DatabaseFileError("data_dir", f"{self.path.parent}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise DatabaseFileError(
                "data_locked", f"{self.path.parent} is in use by a running table (pid {holder}); stop it first, or "
                               f"give this one another --data directory") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the next table in (idempotent)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def check_database(path: Path) -> bool:
    """Refuse a file that is not ours or not whole, before anything writes to it; False when it is new (empty).

    Raises DatabaseFileError journal_damaged / journal_foreign; never changes the file."""
    wal = path.with_name(path.name + "-wal")
    size = path.stat().st_size if path.exists() else 0
    wal_size = wal.stat().st_size if wal.exists() else 0
    if size == 0:
        if wal_size > 0:
            raise DatabaseFileError("journal_damaged", f"{path} is empty or missing but {wal.name} beside it holds "
                                    f"{wal_size} bytes of journal: the database was truncated; "
                                    + AFTER_DAMAGE.format(path=path) + f" (move {wal.name} aside with it)")
        return False
    try:
        with path.open("rb") as fh:
            header = fh.read(HEADER_BYTES)
    except OSError as exc:
        raise DatabaseFileError("journal_unreadable", f"{path}: {exc.strerror or exc}") from None
    if not header.startswith(SQLITE_MAGIC):
        raise DatabaseFileError("journal_foreign", f"{path} is not a SQLite database; " + AFTER_DAMAGE.format(path=path))
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        verdict = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        raise DatabaseFileError("journal_damaged", f"{path} is damaged ({exc}); "
                                + AFTER_DAMAGE.format(path=path)) from None
    finally:
        conn.close()
    if verdict != ["ok"]:
        raise DatabaseFileError("journal_damaged", f"{path} failed its integrity check ({verdict[0]}); "
                                + AFTER_DAMAGE.format(path=path))
    if not tables and header[18:20] == WAL_VERSIONS and wal_size == 0:
        raise DatabaseFileError("journal_incomplete", f"{path} holds no games and no {wal.name} lies beside it: "
                                "it looks copied from a running table without its write-ahead log, which holds "
                                "them (copy a table with `companion backup FILE`, or stop it and copy "
                                f"{wal.name} too); " + AFTER_DAMAGE.format(path=path))
    if tables and not OUR_TABLES <= tables:
        raise DatabaseFileError("journal_foreign", f"{path} is another program's database (tables: "
                                f"{', '.join(sorted(tables))[:120]}); " + AFTER_DAMAGE.format(path=path))
    return True


@dataclass(frozen=True)
class BackupResult:
    """What a backup copied."""

    target: Path
    bytes: int
    games: int
    actions: int
    seconds: float


def backup_database(source: Path, target: Path, overwrite: bool = False) -> BackupResult:
    """A consistent copy of a (possibly running) table database via SQLite's online backup API.

    The copy is one self-contained file (rollback journal mode, nothing left in a WAL), mode 0600, checked with
    `quick_check`, and appears under its name only when whole. Raises DatabaseFileError."""
    started = time.perf_counter()
    if not check_database(source):
        raise DatabaseFileError("backup_nothing", f"{source} does not exist or is empty: nothing to back up")
    if target.exists() and not overwrite:
        raise DatabaseFileError("backup_exists", f"{target} exists already; choose another name or pass --force")
    partial = target.with_name(target.name + ".partial")
    try:
        partial.unlink(missing_ok=True)
        os.close(os.open(partial, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))  # private before SQLite sees it
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=5.0)
        dst = sqlite3.connect(str(partial))
        try:
            src.backup(dst)  # one step: a single read transaction, so one consistent snapshot (WAL included)
            dst.execute("PRAGMA journal_mode=DELETE")
            verdict = dst.execute("PRAGMA quick_check").fetchone()[0]
            (games,) = dst.execute("SELECT COUNT(*) FROM games").fetchone()
            (actions,) = dst.execute("SELECT COUNT(*) FROM actions").fetchone()
        finally:
            dst.close()
            src.close()
        if verdict != "ok":
            raise DatabaseFileError("backup_failed", f"the copy failed its integrity check ({verdict})")
        with partial.open("rb") as fh:
            os.fsync(fh.fileno())
        os.replace(partial, target)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise DatabaseFileError("backup_failed", f"{source} -> {target}: {exc}") from None
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise DatabaseFileError("backup_failed", f"{target}: {exc.strerror or exc}") from None
    return BackupResult(target, target.stat().st_size, int(games), int(actions), time.perf_counter() - started)
