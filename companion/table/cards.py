"""The card registry: tag UID -> component {game, kind, value, label} in SQLite, and enrollment (a card's and a
deck file's checks and the ids games know cards by are in companion/table/card_values.py, imported here too)."""

from __future__ import annotations

import secrets
import sqlite3
import time
from typing import Any, Mapping, Sequence

from companion.games.binding import Card
from companion.table.card_values import (CARD_ID_HEX, DECK_FORMAT, DECK_VERSION, MAX_LABEL, UID_RE, CardError,
                                         as_played, card_id, card_json, check_card, check_deck, deck_of,
                                         normalise_uid)

class CardRegistry:
    """Cards in SQLite with an in-memory copy for the hot path (only the loop thread writes)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._cache: dict[str, Card] = {}
        for uid, game, kind, value, label in conn.execute("SELECT uid, game, kind, value, label FROM cards"):
            self._cache[uid] = Card(uid, game, kind, value, label)

    def card_key(self) -> bytes:
        """The table's secret for card ids (made on first use, kept in the database with the cards)."""
        with self.conn:
            self.conn.execute("CREATE TABLE IF NOT EXISTS card_key (id INTEGER PRIMARY KEY CHECK (id = 1), "
                              "key BLOB NOT NULL)")
            self.conn.execute("INSERT OR IGNORE INTO card_key (id, key) VALUES (1, ?)", (secrets.token_bytes(32),))
        return bytes(self.conn.execute("SELECT key FROM card_key WHERE id = 1").fetchone()[0])

    def get(self, uid: str) -> Card | None:
        """The card a UID is, or None when not enrolled."""
        return self._cache.get(uid)

    def enroll(self, raw: Mapping[str, Any]) -> Card:
        """Assign what a tag is (replacing an earlier assignment)."""
        card = check_card(raw)
        self.write([card])
        return card

    def forget(self, uid: str) -> bool:
        """Remove a card; False when it was not enrolled."""
        uid = normalise_uid(uid)
        with self.conn:
            gone = self.conn.execute("DELETE FROM cards WHERE uid = ?", (uid,)).rowcount
        self._cache.pop(uid, None)
        return bool(gone)

    def all(self) -> list[Card]:
        """Every card, by game, kind, value, uid."""
        return sorted(self._cache.values(), key=lambda c: (c.game, c.kind, c.value, c.uid))

    def export(self, game: str | None = None) -> dict[str, Any]:
        """A deck file: every card (of one game, if given)."""
        return deck_of(self.all(), game)

    def import_deck(self, deck: Any) -> int:
        """Import a deck file: all cards checked first, then written in one transaction; returns the count."""
        cards = check_deck(deck)
        self.write(cards)
        return len(cards)

    def write(self, cards: Sequence[Card]) -> None:
        """Store checked cards (replacing earlier assignments of their UIDs) in one transaction."""
        now = time.time()
        with self.conn:
            self.conn.executemany(
                "INSERT INTO cards (uid, game, kind, value, label, enrolled) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(uid) DO UPDATE SET game=excluded.game, kind=excluded.kind, value=excluded.value, "
                "label=excluded.label, enrolled=excluded.enrolled",
                [(c.uid, c.game, c.kind, c.value, c.label, now) for c in cards])
        for c in cards:
            self._cache[c.uid] = c
