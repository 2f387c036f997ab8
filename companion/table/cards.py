"""The card registry: tag UID -> component {game, kind, value, label}; enrollment and JSON deck files; and the
ids games know cards by, which are never UIDs."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from dataclasses import replace
from typing import Any, Mapping, Sequence

from companion.errors import CardFault
from companion.games.binding import Card, get_binding
from companion.games.registry import game_names

DECK_FORMAT = "companion-deck"
DECK_VERSION = 1
UID_RE = re.compile(r"^[0-9A-F]{8}$|^[0-9A-F]{14}$|^[0-9A-F]{20}$")
"""4-, 7- or 10-byte UIDs as upper-case hex."""
MAX_LABEL = 60
CARD_ID_HEX = 12
"""Hex digits of a card id (48 bits: a few hundred cards never share one)."""


class CardError(CardFault):
    """A bad enrollment or deck file: stable `code`, English message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def normalise_uid(uid: Any) -> str:
    """Upper-case hex without separators; anything else raises CardError bad_uid."""
    if not isinstance(uid, str):
        raise CardError("bad_uid", f"a UID is a hex string, got {uid!r}")
    clean = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    if not UID_RE.match(clean):
        raise CardError("bad_uid", f"{uid!r} is not a 4-, 7- or 10-byte UID in hex")
    return clean


def check_card(raw: Any) -> Card:
    """A validated Card from a JSON object {uid, game, kind, value, label}."""
    if not isinstance(raw, Mapping):
        raise CardError("bad_card", "a card is an object {uid, game, kind, value, label}")
    uid = normalise_uid(raw.get("uid"))
    game = raw.get("game")
    if game not in game_names():
        raise CardError("bad_card", f"card {uid}: unknown game {game!r}")
    kinds = get_binding(game).card_kinds
    kind, value, label = raw.get("kind"), raw.get("value"), raw.get("label", "")
    if not isinstance(kind, str) or kind not in kinds:
        raise CardError("bad_card", f"card {uid}: {game} has no card kind {kind!r} (kinds: {', '.join(kinds)})")
    if not isinstance(value, str) or value not in kinds[kind]:
        raise CardError("bad_card", f"card {uid}: a {kind} is one of {', '.join(kinds[kind])}, not {value!r}")
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        raise CardError("bad_card", f"card {uid}: the label is text of at most {MAX_LABEL} characters")
    return Card(uid, game, kind, value, label.strip() or f"{kind} {value}")


def card_json(card: Card) -> dict[str, str]:
    """A card as a deck file lists it."""
    return {"uid": card.uid, "game": card.game, "kind": card.kind, "value": card.value, "label": card.label}


def deck_of(cards: Sequence[Card], game: str | None = None) -> dict[str, Any]:
    """A deck file of these cards (of one game, if given)."""
    return {"format": DECK_FORMAT, "version": DECK_VERSION,
            "cards": [card_json(c) for c in cards if game is None or c.game == game]}


def check_deck(deck: Any) -> list[Card]:
    """Every card of a deck file, checked (CardError bad_deck / bad_card / bad_uid naming the first problem)."""
    if not isinstance(deck, Mapping) or deck.get("format") != DECK_FORMAT:
        raise CardError("bad_deck", f"not a deck file (expected \"format\": \"{DECK_FORMAT}\")")
    if deck.get("version") != DECK_VERSION:
        raise CardError("bad_deck", f"deck version {deck.get('version')!r} is not {DECK_VERSION}")
    raw_cards = deck.get("cards")
    if not isinstance(raw_cards, list):
        raise CardError("bad_deck", "\"cards\" must be a list")
    cards = []
    for i, raw in enumerate(raw_cards):
        try:
            cards.append(check_card(raw))
        except CardError as exc:
            raise CardError(exc.code, f"cards[{i}]: {exc.message}") from None
    uids = [c.uid for c in cards]
    if len(set(uids)) != len(uids):
        raise CardError("bad_deck", "a UID appears twice in the deck")
    return cards


def card_id(key: bytes, game_id: int, uid: str) -> str:
    """The id a game knows a card by in one game: any NFC phone reads a tag's UID through a sleeve, so a game's
    views, log and record (its public output) must never hold it. Keyed by the table's secret, so nobody can
    work out which id a UID has, and new every game, so what one game showed of a card says nothing later."""
    digest = hmac.new(key, f"{game_id}:{uid}".encode(), hashlib.sha256).hexdigest()
    return f"c{digest[:CARD_ID_HEX]}"


def as_played(card: Card, key: bytes, game_id: int) -> Card:
    """The card as a game's binding sees it: its UID replaced by its id in that game (`card_id`)."""
    return replace(card, uid=card_id(key, game_id, card.uid))


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
