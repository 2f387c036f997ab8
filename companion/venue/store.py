"""The venue's SQLite (DIR/venue.db): its tables, every result counted once per (table, game id), standings, the
staff login (PBKDF2) and the announcements made. One connection, used under a lock by the collector's and the
dashboard's threads."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    added REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    table_id TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    seat_names TEXT NOT NULL,
    winners TEXT NOT NULL,
    reason TEXT NOT NULL,
    sides TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL NOT NULL,
    actions INTEGER NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (table_id, game_id)
);
CREATE TABLE IF NOT EXISTS staff (
    login TEXT PRIMARY KEY,
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,
    iterations INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS announcements (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    cleared REAL
);
"""
"""`results` has one row per (table, game id): a result sent again (QoS 1 redelivery, a table that restarted
before the broker's acknowledgement) is the same row; one whose game was reopened and ended anew replaces it."""
DB_NAME = "venue.db"
PBKDF2_ITERATIONS = 200_000


class VenueStore:
    """The venue's database."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / DB_NAME
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        self.conn = sqlite3.connect(str(path), check_same_thread=False, timeout=5.0)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self.conn.close()

    # --- tables ---------------------------------------------------------------------------------------------

    def add_tables(self, ids: Iterable[str]) -> None:
        """Register tables (the ones `venue init` made accounts for)."""
        now = time.time()
        with self._lock, self.conn:
            self.conn.executemany("INSERT OR IGNORE INTO tables (id, added) VALUES (?, ?)", [(i, now) for i in ids])

    def tables(self) -> list[str]:
        """Every registered table id, in order."""
        with self._lock:
            return [t for (t,) in self.conn.execute("SELECT id FROM tables ORDER BY id")]

    # --- results --------------------------------------------------------------------------------------------

    def add_result(self, r: Mapping[str, Any]) -> bool:
        """Keep a checked result; whether it was new (a duplicate changes nothing; a later end of the same game,
        reopened by an undo, replaces it)."""
        row = (r["table"], r["game_id"], r["game"], r["seats"], json.dumps(r["seat_names"], ensure_ascii=False),
               json.dumps(r["winners"]), r["reason"], json.dumps(r["sides"]), r["started"], r["ended"], r["actions"],
               time.time())
        with self._lock, self.conn:
            before = self.conn.total_changes
            self.conn.execute(
                "INSERT INTO results (table_id, game_id, game, seats, seat_names, winners, reason, sides, started, "
                "ended, actions, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(table_id, game_id) DO UPDATE SET game = excluded.game, seats = excluded.seats, "
                "seat_names = excluded.seat_names, winners = excluded.winners, reason = excluded.reason, "
                "sides = excluded.sides, started = excluded.started, ended = excluded.ended, "
                "actions = excluded.actions, received = excluded.received WHERE excluded.ended > results.ended", row)
            return self.conn.total_changes > before

    def results(self, limit: int = 500) -> list[dict[str, Any]]:
        """Results, newest first."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT table_id, game_id, game, seats, seat_names, winners, reason, sides, started, ended, actions "
                "FROM results ORDER BY ended DESC LIMIT ?", (limit,)).fetchall()
        return [{"table": t, "game_id": g, "game": game, "seats": seats, "seat_names": json.loads(names),
                 "winners": json.loads(winners), "reason": reason, "sides": json.loads(sides), "started": started,
                 "ended": ended, "actions": actions}
                for t, g, game, seats, names, winners, reason, sides, started, ended, actions in rows]

    def result_count(self) -> int:
        """How many results are kept."""
        with self._lock:
            return int(self.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def standings(self) -> list[dict[str, Any]]:
        """Per game: games played, wins by side and wins by seat name (an unnamed seat counts as its number at
        its table: `{"table", "seat"}`), most wins first."""
        out: dict[str, dict[str, Any]] = {}
        for r in reversed(self.results(limit=1_000_000)):
            g = out.setdefault(r["game"], {"game": r["game"], "played": 0, "by_side": {}, "by_name": {}})
            g["played"] += 1
            for side in r["sides"]:
                g["by_side"][side] = g["by_side"].get(side, 0) + 1
            for seat in r["winners"]:
                name = r["seat_names"][seat] if seat < len(r["seat_names"]) else ""
                key = name or f"{r['table']}#{seat + 1}"
                entry = g["by_name"].setdefault(key, {"name": name, "table": r["table"], "seat": seat, "wins": 0})
                entry["wins"] += 1
        return [{"game": g["game"], "played": g["played"],
                 "by_side": sorted(({"side": s, "wins": n} for s, n in g["by_side"].items()),
                                   key=lambda e: (-e["wins"], e["side"])),
                 "by_name": sorted(g["by_name"].values(), key=lambda e: (-e["wins"], e["name"], e["table"], e["seat"]))}
                for _, g in sorted(out.items())]

    # --- staff ----------------------------------------------------------------------------------------------

    def set_staff(self, login: str, password: str) -> None:
        """Set (or replace) a staff login's password, kept as a salted PBKDF2-SHA256 hash."""
        salt = secrets.token_bytes(16)
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ITERATIONS)
        with self._lock, self.conn:
            self.conn.execute("INSERT INTO staff (login, salt, hash, iterations) VALUES (?, ?, ?, ?) ON CONFLICT(login) "
                              "DO UPDATE SET salt = excluded.salt, hash = excluded.hash, iterations = excluded.iterations",
                              (login, salt, digest, PBKDF2_ITERATIONS))

    def check_staff(self, login: str, password: str) -> bool:
        """Whether the login and password are a staff account's (constant time in the password)."""
        with self._lock:
            row = self.conn.execute("SELECT salt, hash, iterations FROM staff WHERE login = ?", (login,)).fetchone()
        if row is None:
            hashlib.pbkdf2_hmac("sha256", password.encode(), b"0" * 16, PBKDF2_ITERATIONS)  # the same time either way
            return False
        salt, digest, iterations = row
        return hmac.compare_digest(hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations), digest)

    def has_staff(self) -> bool:
        """Whether any staff login exists."""
        with self._lock:
            return self.conn.execute("SELECT 1 FROM staff LIMIT 1").fetchone() is not None

    # --- announcements ----------------------------------------------------------------------------------------

    def announce(self, announcement_id: str, text: str, at: float) -> None:
        """Record an announcement made (and clear the one before it)."""
        with self._lock, self.conn:
            self.conn.execute("UPDATE announcements SET cleared = ? WHERE cleared IS NULL", (at,))
            self.conn.execute("INSERT INTO announcements (id, text, at) VALUES (?, ?, ?)", (announcement_id, text, at))

    def clear_announcement(self) -> None:
        """The current announcement was taken down."""
        with self._lock, self.conn:
            self.conn.execute("UPDATE announcements SET cleared = ? WHERE cleared IS NULL", (time.time(),))

    def current_announcement(self) -> dict[str, Any] | None:
        """The announcement showing now, or None."""
        with self._lock:
            row = self.conn.execute("SELECT id, text, at FROM announcements WHERE cleared IS NULL ORDER BY at DESC "
                                    "LIMIT 1").fetchone()
        return None if row is None else {"id": row[0], "text": row[1], "at": row[2]}
