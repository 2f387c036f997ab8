"""Cards as values: a tag UID's form, a card's and a deck file's checks, and the ids games know cards by (never
UIDs). No database here: the registry that keeps cards is companion/table/cards.py."""

from __future__ import annotations

import hashlib
import hmac
import re
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
