"""The journal: every game and every accepted action in SQLite (WAL, synchronous=FULL, file mode 0600).

An action is committed here before any output shows it; the journal of actions *is* the game.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from companion.table.dbfile import JournalFiles, JournalGone, check_database
from companion.table.records import ACTION_JSON, MAX_ACTION_BYTES, GameRecord, journal_form

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    options TEXT NOT NULL,
    mode TEXT NOT NULL,
    tokens TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    end_reason TEXT,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS cards (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    label TEXT NOT NULL,
    enrolled REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS terminal_bindings (
    terminal TEXT PRIMARY KEY,
    seat INTEGER,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seat_players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    at_action INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS timer_settings (
    game TEXT NOT NULL,
    phase TEXT NOT NULL,
    seconds INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, phase)
);
CREATE TABLE IF NOT EXISTS shares (
    token TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS redos (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    queued REAL NOT NULL
);
"""
"""`CREATE ... IF NOT EXISTS` throughout: opening a database made by an older version adds the newer tables.
`terminal_bindings` holds the host's bindings; a NULL seat means the host unbound that terminal on purpose.
`shares` holds the replay links the host made, each for one finished game (deleting a row revokes it).
`outbox` holds the finished games whose result a venue has not yet acknowledged (a table with `[venue]` queues a
row in the same transaction as the game's end; its venue publisher deletes it on the broker's PUBACK).
`seat_players` records each time the host handed a seat to a bot or back ("bot" / "human", from which action
on); `timer_settings` the host's advisory timers (seconds per game and phase).
An action's `undone` is 0 while it is live, 1 once an undo took it back and a redo may still re-apply it, 2 once a
new action was taken after that undo (it is history only); `redos` records each action a redo made live again, so
a restarted table counts every take-back and redo in its revision."""


PAGE_BYTES = 1024
"""The page size of a new database (one made earlier keeps its own): a tap commits about two pages to the
write-ahead log, so 1 KiB pages write ~2.4 KB per commit instead of ~8.5 KB at SQLite's 4 KiB default, which
cost ~25 % of a commit's CPU here and is a quarter of the wear on a Pi's SD card."""
BUSY_TIMEOUT_S = 2.0
"""How long a commit waits for another connection's lock: short, because the loop thread waits with it."""

_FAULT_CODES = {"SQLITE_FULL": "journal_full", "SQLITE_BUSY": "journal_locked", "SQLITE_LOCKED": "journal_locked",
                "SQLITE_READONLY": "journal_readonly", "SQLITE_IOERR": "journal_io"}


def fault_code(exc: sqlite3.Error) -> str:
    """A stable refusal code for a failed journal write (SQLite's own result code; else `journal_error`)."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    for prefix, code in _FAULT_CODES.items():
        if name == prefix or name.startswith(prefix + "_"):
            return code
    return "journal_error"


def open_db(path: Path) -> sqlite3.Connection:
    """Open (creating with mode 0600 and PAGE_BYTES pages) the table database in WAL mode with synchronous=FULL,
    after checking that an existing file is a whole database of ours (raises dbfile.DatabaseFileError, having
    changed nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    check_database(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)  # create private before SQLite sees it
    os.close(fd)
    os.chmod(path, 0o600)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
    conn.execute(f"PRAGMA page_size={PAGE_BYTES}")  # only a database not yet written takes it
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(SCHEMA)
    return conn


class Journal:
    """Game and action rows; only the table's loop thread writes."""

    def __init__(self, conn: sqlite3.Connection, files: JournalFiles | None = None, outbox: bool = False) -> None:
        self.conn = conn
        self.files = files
        """The database and lock as opened: `verify` checks each commit landed in the files at their paths."""
        self.gone: tuple[Path, str] | None = None
        """The file no longer at its path and what happened to it (`removed`, `replaced`), once seen (for good)."""
        self.outbox = outbox
        """Whether a game finished by its rules queues its result for the venue (`[venue]` configured)."""
        self._next_idx: dict[int, int] = {}
        """Each game's next action index as this journal last wrote it, so an append need not ask (only
        this journal's loop thread writes actions; a failed write forgets it and the next one asks)."""
        self._redoable: dict[int, bool] = {}
        """Whether a game has actions a redo may re-apply, as this journal last left it (asked when unknown): an
        append then drops them first, in its own transaction."""

    def verify(self) -> None:
        """Before a commit and after it, before anything is acknowledged: the database, its log and the lock must
        be the files at their paths (a `stat` each), else what is committed lands in a file no restart will read:
        raises JournalGone, now and for every later write. Checked before too, so a directory removed or moved
        away since the last commit gets nothing written into it."""
        if self.gone is None and self.files is not None:
            self.gone = self.files.missing()
        if self.gone is not None:
            path, what = self.gone
            raise JournalGone(message=f"the table's database is gone ({path} was {what}); restart the table",
                              params={"path": str(path), "what": what})

    def next_game_id(self) -> int:
        """The id the next new game gets (ids are never reused, even of deleted rows)."""
        row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        (top,) = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        return max(int(row[0]) if row else 0, int(top)) + 1

    def new_game(self, game: str, seats: int, options: dict[str, Any], components: str, tokens: Sequence[str],
                 actions: Iterable[tuple[dict[str, Any], str]] = (), replacing: int | None = None,
                 game_id: int | None = None, players: Iterable[tuple[int, str]] = ()) -> int:
        """Start a game row (with the id the table chose, else the next one) with its first (chance) actions and
        the seats a bot plays from the start, ending the game it replaces, in one transaction; returns its id."""
        with self.conn:
            if replacing is not None:
                self._end(replacing, "replaced", None)
            cur = self.conn.execute(
                "INSERT INTO games (id, game, seats, options, mode, tokens, started) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, game, seats, json.dumps(options), str(components), json.dumps(list(tokens)), time.time()))
            game_id = int(cur.lastrowid or 0)
            rows = list(actions)
            self._insert(game_id, 0, rows)
            self._players(game_id, players, 0)
        self._next_idx[game_id] = len(rows)
        self._redoable[game_id] = False
        return game_id

    def append(self, game_id: int, actions: Iterable[tuple[dict[str, Any], str]],
               end: tuple[str, dict[str, Any] | None] | None = None) -> int:
        """Commit actions (with their sources) in one transaction, with the game's end (reason, outcome) when
        they finish it; returns how many actions were written."""
        return self.append_all([(game_id, actions, end)])

    def append_all(self, appends: Sequence[tuple[int, Iterable[tuple[dict[str, Any], str]],
                                                 tuple[str, dict[str, Any] | None] | None]]) -> int:
        """Commit several appends (game id, actions with sources, end or None), in order, in one transaction:
        all of them or none; returns how many actions were written."""
        batch = [(game_id, list(actions), end) for game_id, actions, end in appends]
        if not any(rows or end is not None for _, rows, end in batch):
            return 0
        written: dict[int, int] = {}
        try:
            with self.conn:
                for game_id, rows, end in batch:
                    if rows and self._has_redo(game_id):  # a new action after an undo: nothing to redo any more
                        self.conn.execute("UPDATE actions SET undone = 2 WHERE game_id = ? AND undone = 1", (game_id,))
                        self._redoable[game_id] = False
                    if rows:
                        first = written.get(game_id, self._next_idx.get(game_id))
                        if first is None:
                            (top,) = self.conn.execute("SELECT COALESCE(MAX(idx), -1) FROM actions WHERE game_id = ?",
                                                       (game_id,)).fetchone()
                            first = top + 1
                        self._insert(game_id, first, rows)
                        written[game_id] = first + len(rows)
                    if end is not None:
                        self._end(game_id, *end)
        except BaseException:
            for game_id, _, _ in batch:  # rolled back: the next append asks the database
                self._next_idx.pop(game_id, None)
                self._redoable.pop(game_id, None)
            raise
        self._next_idx.update(written)
        return sum(len(rows) for _, rows, _ in batch)

    def checkpoint(self) -> None:
        """Copy the write-ahead log's pages into the database file itself (PASSIVE: it waits for no reader), so
        that a hand copy of the file alone holds every game finished so far."""
        self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    def undo_from(self, game_id: int, keep: int) -> int:
        """Mark every live action after the first `keep` as undone (kept for history); returns how many. A game
        that has ended is never reopened (its secrets may be out): ValueError, nothing written."""
        row = self.conn.execute("SELECT ended FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] is not None:
            raise ValueError(f"game {game_id} has ended or does not exist: its actions are never undone")
        live = self._live_idx(game_id)
        drop = live[keep:]
        with self.conn:
            self.conn.executemany("UPDATE actions SET undone = 1 WHERE game_id = ? AND idx = ?",
                                  [(game_id, i) for i in drop])
        if drop:
            self._redoable[game_id] = True
        return len(drop)

    def redo(self, game_id: int, count: int) -> int:
        """Make live again the first `count` actions an undo took back and no new action dropped (the ones the
        last undo took), recording each redo; returns how many. A game that has ended, or fewer such actions
        than `count`: ValueError, nothing written."""
        row = self.conn.execute("SELECT ended FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] is not None:
            raise ValueError(f"game {game_id} has ended or does not exist: nothing in it is redone")
        idx = [i for (i,) in self.conn.execute(
            "SELECT idx FROM actions WHERE game_id = ? AND undone = 1 ORDER BY idx LIMIT ?", (game_id, count))]
        if count < 1 or len(idx) != count:
            raise ValueError(f"game {game_id} has {len(idx)} actions to redo, not {count}")
        now = time.time()
        try:
            with self.conn:
                self.conn.executemany("UPDATE actions SET undone = 0 WHERE game_id = ? AND idx = ?",
                                      [(game_id, i) for i in idx])
                self.conn.executemany("INSERT INTO redos (game_id, idx, at) VALUES (?, ?, ?)",
                                      [(game_id, i, now) for i in idx])
        finally:
            self._redoable.pop(game_id, None)
        return count

    def _has_redo(self, game_id: int) -> bool:
        known = self._redoable.get(game_id)
        if known is None:
            known = self.conn.execute("SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = ? AND undone = 1)",
                                      (game_id,)).fetchone()[0] == 1
            self._redoable[game_id] = known
        return known

    def end_game(self, game_id: int, reason: str, outcome: dict[str, Any] | None) -> None:
        """Close a game: finished by the rules or ended by the host."""
        with self.conn:
            self._end(game_id, reason, outcome)

    def _end(self, game_id: int, reason: str, outcome: dict[str, Any] | None) -> None:
        now = time.time()
        ended = self.conn.execute("UPDATE games SET ended = ?, end_reason = ?, outcome = ? WHERE id = ? AND ended IS "
                                  "NULL", (now, reason, json.dumps(outcome), game_id)).rowcount
        if self.outbox and ended and outcome is not None:  # in the end's own transaction: no result is ever lost
            self.conn.execute("INSERT OR REPLACE INTO outbox (game_id, queued) VALUES (?, ?)", (game_id, now))

    def _insert(self, game_id: int, first: int, rows: list[tuple[dict[str, Any], str]]) -> None:
        now = time.time()
        self.conn.executemany(
            "INSERT INTO actions (game_id, idx, action, source, at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, first + i, ACTION_JSON.encode(a), src, now) for i, (a, src) in enumerate(rows)])

    def unfinished(self) -> GameRecord | None:
        """The latest game not yet ended, with its live actions."""
        row = self.conn.execute("SELECT id FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return self.game(row[0]) if row else None

    def game(self, game_id: int) -> GameRecord | None:
        """One game with its live actions."""
        row = self.conn.execute(
            "SELECT id, game, seats, options, mode, tokens, started, ended, end_reason FROM games WHERE id = ?",
            (game_id,)).fetchone()
        if row is None:
            return None
        actions = tuple(json.loads(a) for (a,) in self.conn.execute(
            "SELECT action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY idx", (game_id,)))
        redo = tuple(json.loads(a) for (a,) in self.conn.execute(
            "SELECT action FROM actions WHERE game_id = ? AND undone = 1 ORDER BY idx", (game_id,)))
        (undone,) = self.conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone > 0",
                                      (game_id,)).fetchone()
        (redone,) = self.conn.execute("SELECT COUNT(*) FROM redos WHERE game_id = ?", (game_id,)).fetchone()
        return GameRecord(row[0], row[1], row[2], json.loads(row[3]), row[4], tuple(json.loads(row[5])),
                          row[6], row[7], row[8], actions, undone + redone, redone, redo)

    def rows(self, game_id: int) -> list[dict[str, Any]]:
        """Every action row of a game, undone ones included (history)."""
        return [{"idx": i, "action": json.loads(a), "source": s, "at": at, "undone": bool(u)}
                for i, a, s, at, u in self.conn.execute(
                    "SELECT idx, action, source, at, undone FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))]

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent games, newest first."""
        out = []
        for gid, game, seats, mode, started, ended, reason, outcome in self.conn.execute(
                "SELECT id, game, seats, mode, started, ended, end_reason, outcome FROM games "
                "ORDER BY id DESC LIMIT ?", (limit,)):
            (count,) = self.conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone = 0",
                                         (gid,)).fetchone()
            out.append({"id": gid, "game": game, "seats": seats, "components": mode, "started": started, "ended": ended,
                        "end_reason": reason, "outcome": json.loads(outcome) if outcome else None,
                        "actions": count})
        return out

    def set_seat_players(self, game_id: int, players: Iterable[tuple[int, str]], at_action: int) -> None:
        """Record who plays seats of a game from action `at_action` on, in one transaction."""
        with self.conn:
            self._players(game_id, players, at_action)

    def _players(self, game_id: int, players: Iterable[tuple[int, str]], at_action: int) -> None:
        now = time.time()
        self.conn.executemany("INSERT INTO seat_players (game_id, seat, player, at_action, at) VALUES (?, ?, ?, ?, ?)",
                              [(game_id, seat, player, at_action, now) for seat, player in players])

    def seat_players(self, game_id: int) -> dict[int, str]:
        """Who plays each seat of a game now, where the host changed it (the latest record per seat)."""
        out: dict[int, str] = {}
        for seat, player in self.conn.execute(
                "SELECT seat, player FROM seat_players WHERE game_id = ? ORDER BY rowid", (game_id,)):
            out[int(seat)] = str(player)
        return out

    def set_timer(self, game: str, phase: str, seconds: int | None) -> None:
        """The host's timer of one phase of a game (None: off)."""
        with self.conn:
            if seconds is None:
                self.conn.execute("DELETE FROM timer_settings WHERE game = ? AND phase = ?", (game, phase))
            else:
                self.conn.execute(
                    "INSERT INTO timer_settings (game, phase, seconds, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(game, phase) DO UPDATE SET seconds = excluded.seconds, at = excluded.at",
                    (game, phase, seconds, time.time()))

    def timer_settings(self) -> dict[tuple[str, str], int]:
        """Every advisory timer the host set: (game, phase) -> seconds."""
        return {(g, p): int(s) for g, p, s in self.conn.execute("SELECT game, phase, seconds FROM timer_settings")}

    def terminal_bindings(self) -> dict[str, int | None]:
        """The host's terminal bindings (terminal -> seat, None = unbound on purpose)."""
        return {t: s for t, s in self.conn.execute("SELECT terminal, seat FROM terminal_bindings ORDER BY terminal")}

    def bind_terminals(self, bindings: Iterable[tuple[str, int | None]]) -> None:
        """Record terminal -> seat bindings (None unbinds) in one transaction: all of them or none."""
        now = time.time()
        with self.conn:
            self.conn.executemany(
                "INSERT INTO terminal_bindings (terminal, seat, at) VALUES (?, ?, ?) "
                "ON CONFLICT(terminal) DO UPDATE SET seat = excluded.seat, at = excluded.at",
                [(t, s, now) for t, s in bindings])

    def _live_idx(self, game_id: int) -> list[int]:
        return [i for (i,) in self.conn.execute(
            "SELECT idx FROM actions WHERE game_id = ? AND undone = 0 ORDER BY idx", (game_id,))]

    # --- finished games: listing, reading, share links (the replay and history) -----------------------------

    def finished(self, limit: int = 500) -> list[dict[str, Any]]:
        """Every ended game, newest first: id, game, seats, start and end time, end reason, outcome, action count."""
        rows = self.conn.execute(
            "SELECT g.id, g.game, g.seats, g.mode, g.started, g.ended, g.end_reason, g.outcome, "
            "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.undone = 0) "
            "FROM games g WHERE g.ended IS NOT NULL ORDER BY g.id DESC LIMIT ?", (limit,))
        return [{"id": gid, "game": game, "seats": seats, "components": mode, "started": started, "ended": ended,
                 "end_reason": reason, "outcome": json.loads(outcome) if outcome else None, "actions": count}
                for gid, game, seats, mode, started, ended, reason, outcome, count in rows]

    def outcome_of(self, game_id: int) -> dict[str, Any] | None:
        """The journaled outcome of a game (None while it runs or when the host ended it)."""
        row = self.conn.execute("SELECT outcome FROM games WHERE id = ?", (game_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def add_share(self, game_id: int, token: str) -> None:
        """Record a replay link for one game."""
        with self.conn:
            self.conn.execute("INSERT INTO shares (token, game_id, created) VALUES (?, ?, ?)",
                              (token, game_id, time.time()))

    def revoke_shares(self, game_id: int) -> int:
        """Revoke every replay link of a game; returns how many there were."""
        with self.conn:
            return self.conn.execute("DELETE FROM shares WHERE game_id = ?", (game_id,)).rowcount

    def shared_game(self, token: str) -> int | None:
        """The game a replay link opens, or None for an unknown or revoked one."""
        row = self.conn.execute("SELECT game_id FROM shares WHERE token = ?", (token,)).fetchone()
        return int(row[0]) if row else None
