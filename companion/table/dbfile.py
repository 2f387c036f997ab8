"""The table database as a file: one writer per data directory (a lock), integrity at open, online backups."""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import sqlite3
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError, JournalError

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
    """An exclusive lock on a data directory, held while a table writes there: `flock` on `table.lock`, and on
    Linux also an abstract socket named after the directory's path, which no `rm -rf` can take away (a table
    started on a path whose directory was deleted and made again under a running table is refused too).

    The kernel drops both when the process dies, so a killed table never leaves a stale lock behind."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd: int | None = None
        self._name: socket.socket | None = None

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
            holder = os.read(fd, 32).decode(errors="replace").split("\n")[0].strip() or "another process"
            os.close(fd)
            raise self._locked(holder) from None
        try:
            self._name = _path_lock(self.path.parent)
        except OSError:
            os.close(fd)
            raise self._locked(None) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def _locked(self, holder: str | None) -> "DatabaseFileError":
        holder = holder or _path_lock_holder(self.path.parent) or "another process"
        return DatabaseFileError(
            "data_locked", f"{self.path.parent} is in use by a running table (pid {holder}); stop it first, or "
                           f"give this one another --data directory")

    def announce(self, host: str, port: int) -> None:
        """Write where the table serves under its pid in the lock file, for `companion host-link` to read."""
        if self._fd is None:
            return
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n{host} {port}\n".encode(), 0)

    def file_id(self) -> tuple[int, int] | None:
        """(device, inode) of the lock file this lock holds, or None when not held."""
        if self._fd is None:
            return None
        info = os.fstat(self._fd)
        return info.st_dev, info.st_ino

    def release(self) -> None:
        """Let the next table in (idempotent)."""
        fd, self._fd = self._fd, None
        name, self._name = self._name, None
        if fd is not None:
            os.close(fd)
        if name is not None:
            name.close()


def _path_name(directory: Path) -> bytes:
    """The abstract socket name that stands for a data directory's path."""
    digest = hashlib.sha256(os.fsencode(os.path.abspath(directory))).hexdigest()[:32]
    return b"\0companion-data-lock-" + digest.encode()


def _path_lock(directory: Path) -> socket.socket | None:
    """Bind the directory path's abstract socket (Linux); OSError when another process holds it."""
    if not sys.platform.startswith("linux"):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(_path_name(directory))
        sock.listen(4)
    except OSError:
        sock.close()
        raise
    return sock


def _path_lock_holder(directory: Path) -> str | None:
    """The pid holding a directory path's abstract socket (its peer credentials), when it can be asked."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            probe.connect(_path_name(directory))
            pid, _, _ = struct.unpack("3i", probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                             struct.calcsize("3i")))
            return str(pid)
    except OSError:
        return None


class JournalGone(JournalError):
    """The database or the data directory's lock is no longer the file at its path (deleted, replaced, moved):
    nothing written now would be found at the next start, so nothing is acknowledged any more."""

    code = "journal_gone"


class JournalFiles:
    """The database, its write-ahead log and the lock file as the table opened them, by (device, inode): the
    journal checks they are still the files at their paths before it acknowledges anything (three `stat`s)."""

    def __init__(self, db_path: Path, lock: DataLock | None) -> None:
        self.paths = [db_path, db_path.with_name(db_path.name + "-wal")]
        self.ids = [_file_id(p) for p in self.paths]
        lock_id = lock.file_id() if lock is not None else None
        if lock is not None and lock_id is not None:
            self.paths.append(lock.path)
            self.ids.append(lock_id)

    def missing(self) -> tuple[Path, str] | None:
        """The first of the files that is no longer the one at its path, with what happened to it (`removed`,
        `replaced`), or None."""
        for path, known in zip(self.paths, self.ids):
            if known is None:
                continue
            now = _file_id(path)
            if now != known:
                return path, "removed" if now is None else "replaced"
        return None


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:  # gone, or its directory gone or replaced by a file
        return None
    return info.st_dev, info.st_ino


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


def held_lock_text(directory: Path) -> str | None:
    """What the table holding this data directory's lock wrote in it (its pid, and where it serves once it
    announced it), or None when no table holds it. The lock file is only looked at, never made."""
    try:
        fd = os.open(directory / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: a table runs there, so what it wrote is current
            return os.read(fd, 512).decode(errors="replace")
        return None  # nobody holds it (closing drops the lock taken here at once)
    finally:
        os.close(fd)


def served_address(directory: Path) -> tuple[str, int] | None:
    """(host, port) a table running on this data directory announced in its lock file, or None (no table
    runs there, or it announced nothing readable)."""
    text = held_lock_text(directory)
    lines = [] if text is None else text.split("\n")
    host, _, port = (lines[1] if len(lines) > 1 else "").rpartition(" ")
    return (host, int(port)) if host and port.isdigit() and 0 < int(port) < 65536 else None
