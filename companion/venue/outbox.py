"""The table's side of the result outbox: finished games the venue has not acknowledged, read from the table's
own journal (`outbox` rows are queued in the same transaction as a game's end) on a connection of the
publisher's thread, and deleted only once the broker has acknowledged the result (PUBACK)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from companion.games.registry import get_rules
from companion.games.rules import Rules
from companion.games.timeline import Record

BUSY_TIMEOUT_S = 0.5
"""A delete waits this long at most for the loop thread's commit (it is retried on the next pass)."""


def _has_sides(rules: Rules) -> bool:
    """Whether a game names the winners' sides (only then is its record replayed to find them)."""
    return type(rules)._winning_sides is not Rules._winning_sides


class Outbox:
    """The outbox rows and the public facts of their games; one per publisher thread (it owns the connection)."""

    def __init__(self, db_path: Path) -> None:
        self.conn = sqlite3.connect(str(db_path), timeout=BUSY_TIMEOUT_S)
        # a lost delete only sends a result again, which the venue counts once: no fsync for it
        self.conn.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def pending(self) -> list[int]:
        """The games whose result waits for the venue's acknowledgement, oldest first (a game reopened by an undo
        waits until it ends again)."""
        return [gid for (gid,) in self.conn.execute(
            "SELECT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id WHERE g.ended IS NOT NULL "
            "ORDER BY o.queued, o.game_id")]

    def game(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's listing (id, game, seats, started, ended, outcome, actions) and its winners' sides;
        None (and the row dropped) for one that has no outcome any more (reopened, then ended by the host)."""
        row = self.conn.execute(
            "SELECT id, game, seats, options, started, ended, outcome, "
            "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.undone = 0) FROM games g WHERE id = ?",
            (game_id,)).fetchone()
        outcome = json.loads(row[6]) if row and row[6] else None
        if row is None or outcome is None:
            self.delete(game_id)
            return None
        listing = {"id": row[0], "game": row[1], "seats": row[2], "started": row[4], "ended": row[5],
                   "outcome": outcome, "actions": row[7]}
        return {**listing, "sides": self._sides(row[1], row[2], json.loads(row[3]), game_id)}

    def _sides(self, game: str, seats: int, options: dict[str, Any], game_id: int) -> list[str]:
        try:
            rules = get_rules(game)
            if not _has_sides(rules):
                return []
            actions = tuple(json.loads(a) for (a,) in self.conn.execute(
                "SELECT action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY idx", (game_id,)))
            return Record(game, seats, options, actions).final()[2]
        except ValueError:  # a record these rules no longer replay still counts, by seat
            return []

    def delete(self, game_id: int) -> None:
        """The venue has the result: forget it."""
        with self.conn:
            self.conn.execute("DELETE FROM outbox WHERE game_id = ?", (game_id,))

    def started(self, game_id: int) -> float | None:
        """When a game started."""
        row = self.conn.execute("SELECT started FROM games WHERE id = ?", (game_id,)).fetchone()
        return float(row[0]) if row else None

    def last_action(self, game_id: int) -> float | None:
        """When a game's latest live action was journaled."""
        row = self.conn.execute("SELECT MAX(at) FROM actions WHERE game_id = ? AND undone = 0", (game_id,)).fetchone()
        return float(row[0]) if row and row[0] is not None else None
