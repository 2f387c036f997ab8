"""Guided enrollment as a value: the deck list of one game and seat count laid out as slots, the next slot named,
each tap enrolling it (or naming a tag already enrolled), skip and undo, a check mode and a verify-deck pass."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from companion.games.binding import GREEN, RED, WHITE, BLUE, Card, DeckItem, RGB, get_binding
from companion.games.registry import game_names, get_rules
from companion.table.refusal import Refusal

GUIDE_CODES: Mapping[str, str] = {
    "unknown_game": "No such game.",
    "bad_seat_count": "That game is not played with that many seats.",
    "no_deck_list": "That game has no list of components to enroll.",
    "no_guide": "Guided enrollment is not running.",
    "guide_done": "Every component on the list is enrolled or skipped.",
    "deck_incomplete": "Some components this game reads are not enrolled.",
}
"""The refusals of guided enrollment and of the physical start check, in English (the page translates by code)."""


class GuideMode(enum.StrEnum):
    """What a tap does: enroll the next component, only say what the tag is, or tick it off the deck list."""

    ENROLL = "enroll"
    CHECK = "check"
    VERIFY = "verify"


class TapResult(enum.StrEnum):
    """What the last tap did."""

    ENROLLED = "enrolled"
    KNOWN = "known"
    """A tag already enrolled: named, not enrolled again."""
    UNKNOWN = "unknown"
    """Not enrolled (check) or not a component of this game's list (verify)."""
    SEEN = "seen"
    """Verify: one of this game's components, ticked off."""
    DONE = "done"
    """Nothing left to enroll: the tag was left alone."""


CONFIRM: Mapping[TapResult, RGB] = {TapResult.ENROLLED: GREEN, TapResult.SEEN: GREEN, TapResult.KNOWN: WHITE,
                                    TapResult.UNKNOWN: RED, TapResult.DONE: BLUE}
"""The colour the reader's zone flashes for each result (the page shows the same in words)."""


@dataclass(frozen=True)
class Slot:
    """One physical component of the list: what it is and its place among those alike ("7/11")."""

    item: DeckItem
    index: int
    of: int

    def label(self, lang: str) -> str:
        """Its name in English or Korean, numbered when there are several alike."""
        name = self.item.ko if lang == "ko" else self.item.en
        return f"{name} {self.index}/{self.of}" if self.of > 1 else name


@dataclass(frozen=True)
class Tap:
    """The last tap, as the host page names it."""

    result: TapResult
    zone: str
    en: str = ""
    ko: str = ""


@dataclass(frozen=True)
class Guide:
    """Guided enrollment of one game's components at one seat count. `filled` holds each slot's UID, "" once
    skipped, None while still to do; `history` the slots filled or skipped, in order (for undo)."""

    game: str
    seats: int
    mode: GuideMode
    slots: tuple[Slot, ...]
    filled: tuple[str | None, ...]
    history: tuple[int, ...] = ()
    seen: frozenset[tuple[str, str, str]] = frozenset()
    """Verify: (uid, kind, value) of each of this game's components tapped."""
    unknown: frozenset[str] = frozenset()
    last: Tap | None = None

    @property
    def cursor(self) -> int | None:
        """The slot the next tap enrolls, or None when every slot is filled or skipped."""
        return next((i for i, uid in enumerate(self.filled) if uid is None), None)


def slots_of(items: Iterable[DeckItem]) -> tuple[Slot, ...]:
    """One slot per component, in the list's order."""
    return tuple(Slot(item, i, item.count) for item in items for i in range(1, item.count + 1))


def deck_list(game: Any, seats: Any) -> tuple[DeckItem, ...]:
    """A game's deck list at a seat count; Refusal unknown_game / bad_seat_count / no_deck_list."""
    if not isinstance(game, str) or game not in game_names():
        raise Refusal("unknown_game", f"unknown game {game!r}"[:200])
    rules = get_rules(game)
    if not isinstance(seats, int) or isinstance(seats, bool) or not rules.min_seats <= seats <= rules.max_seats:
        raise Refusal("bad_seat_count", f"{game} is played with {rules.min_seats} to {rules.max_seats} seats, "
                                        f"not {seats!r}"[:200])
    items = get_binding(game).deck_list(seats)
    if not items:
        raise Refusal("no_deck_list", f"{game} has no list of components to enroll")
    return items


def start(game: str, seats: int, mode: GuideMode, cards: Iterable[Card]) -> Guide:
    """A new guide; the game's cards already enrolled fill their slots first (enrollment picks up where it
    stopped). Refusal as `deck_list`."""
    slots = slots_of(deck_list(game, seats))
    free: dict[tuple[str, str], list[str]] = {}
    for card in cards:
        if card.game == game:
            free.setdefault((card.kind, card.value), []).append(card.uid)
    filled = []
    for slot in slots:
        uids = free.get((slot.item.kind, slot.item.value))
        filled.append(uids.pop(0) if uids else None)
    return Guide(game, seats, mode, slots, tuple(filled))


def card_for(guide: Guide, slot: int, uid: str) -> Card:
    """The card a tap enrolls into a slot (its registry label is the English name)."""
    s = guide.slots[slot]
    return Card(uid, guide.game, s.item.kind, s.item.value, s.label("en"))


def tap(guide: Guide, uid: str, zone: str, known: Card | None) -> tuple[Guide, Card | None]:
    """One tag placed: the guide after it and the card to enroll, if any (`known`: what the tag already is)."""
    if guide.mode is GuideMode.VERIFY:
        mine = known is not None and known.game == guide.game and any(
            (s.item.kind, s.item.value) == (known.kind, known.value) for s in guide.slots)
        if known is not None and mine:
            return replace(guide, seen=guide.seen | {(uid, known.kind, known.value)}, last=Tap(TapResult.SEEN, zone, known.label,
                                                                    _ko_label(guide, known))), None
        return replace(guide, unknown=guide.unknown | {uid},
                       last=_named(guide, TapResult.UNKNOWN, zone, known)), None
    if known is not None:
        return replace(guide, last=_named(guide, TapResult.KNOWN, zone, known)), None
    if guide.mode is GuideMode.CHECK:
        return replace(guide, last=Tap(TapResult.UNKNOWN, zone)), None
    cursor = guide.cursor
    if cursor is None:
        return replace(guide, last=Tap(TapResult.DONE, zone)), None
    card = card_for(guide, cursor, uid)
    filled = guide.filled[:cursor] + (uid,) + guide.filled[cursor + 1:]
    slot = guide.slots[cursor]
    return replace(guide, filled=filled, history=guide.history + (cursor,),
                   last=Tap(TapResult.ENROLLED, zone, slot.label("en"), slot.label("ko"))), card


def _ko_label(guide: Guide, card: Card) -> str:
    """The Korean name of an enrolled card: its slot's, when this guide placed it, else its item's."""
    for slot, uid in zip(guide.slots, guide.filled):
        if uid == card.uid:
            return slot.label("ko")
    item = next((s.item for s in guide.slots if (s.item.kind, s.item.value) == (card.kind, card.value)), None)
    return item.ko if item is not None else card.label


def _named(guide: Guide, result: TapResult, zone: str, card: Card | None) -> Tap:
    if card is None:
        return Tap(result, zone)
    if card.game != guide.game:
        return Tap(result, zone, card.label, card.label)  # another game's card: its registry label
    return Tap(result, zone, card.label, _ko_label(guide, card))


def skip(guide: Guide) -> Guide:
    """Leave the next slot out (a missing component); Refusal guide_done when nothing is left."""
    cursor = guide.cursor
    if cursor is None:
        raise Refusal("guide_done", GUIDE_CODES["guide_done"])
    return replace(guide, filled=guide.filled[:cursor] + ("",) + guide.filled[cursor + 1:],
                   history=guide.history + (cursor,), last=None)


def undo(guide: Guide) -> tuple[Guide, str | None]:
    """Take back the last enrollment or skip: the guide and the UID to forget (None for a skip)."""
    if not guide.history:
        raise Refusal("nothing_to_undo", "Nothing enrolled or skipped here to take back.")
    slot = guide.history[-1]
    uid = guide.filled[slot] or None
    return replace(guide, filled=guide.filled[:slot] + (None,) + guide.filled[slot + 1:],
                   history=guide.history[:-1], last=None), uid


def with_mode(guide: Guide, mode: GuideMode) -> Guide:
    """The guide in another mode (a verify pass starts from nothing seen)."""
    return replace(guide, mode=mode, seen=frozenset(), unknown=frozenset(), last=None)


def missing(items: Iterable[DeckItem], cards: Iterable[Card], required: Iterable[str] | None = None,
            ) -> dict[str, list[tuple[DeckItem, int]]]:
    """Kind -> the items short and by how many, given the cards there are (`required`: only these kinds; a
    kind whose list is our sample needs only one card of its kind, since the real deck may differ)."""
    have: dict[tuple[str, str], int] = {}
    kinds: dict[str, int] = {}
    for card in cards:
        have[(card.kind, card.value)] = have.get((card.kind, card.value), 0) + 1
        kinds[card.kind] = kinds.get(card.kind, 0) + 1
    wanted = None if required is None else set(required)
    out: dict[str, list[tuple[DeckItem, int]]] = {}
    for item in items:
        if wanted is not None and item.kind not in wanted:
            continue
        if item.sample and required is not None:
            short = 0 if kinds.get(item.kind) else item.count
        else:
            short = max(0, item.count - have.get((item.kind, item.value), 0))
        if short:
            out.setdefault(item.kind, []).append((item, short))
    return out


def start_check(game: str, seats: int, cards: Iterable[Card]) -> Refusal | None:
    """A physical game's check: every kind the game reads is enrolled (deck_incomplete naming them), else None."""
    binding = get_binding(game)
    try:
        items = binding.deck_list(seats)
    except (ValueError, KeyError):
        return None  # a bad seat count: the setup check names it
    gaps = missing(items, [c for c in cards if c.game == game], binding.needed_kinds)
    if not gaps:
        return None
    words = {lang: ", ".join(kind_word(game, kind, lang) for kind in gaps) for lang in ("en", "ko")}
    return Refusal("deck_incomplete", f"{GUIDE_CODES['deck_incomplete']} Missing: {words['en']}. Enroll them "
                                      "(guided enrollment) or play with digital components.", {"missing": words})


def kind_word(game: str, kind: str, lang: str) -> str:
    """A card kind in words (the binding's), else the kind itself."""
    words = get_binding(game).kind_words.get(kind)
    return kind if words is None else words[1 if lang == "ko" else 0]


def guide_json(guide: Guide) -> dict[str, Any]:
    """What the host page shows: the next component, progress per kind, the last tap, a verify report."""
    cursor = guide.cursor
    kinds: dict[str, dict[str, Any]] = {}
    for slot, uid in zip(guide.slots, guide.filled):
        k = kinds.setdefault(slot.item.kind, {"kind": slot.item.kind, "done": 0, "skipped": 0, "total": 0,
                                              "words": {lang: kind_word(guide.game, slot.item.kind, lang)
                                                        for lang in ("en", "ko")}})
        k["total"] += 1
        if uid:
            k["done"] += 1
        elif uid == "":
            k["skipped"] += 1
    out: dict[str, Any] = {
        "game": guide.game, "seats": guide.seats, "mode": str(guide.mode),
        "next": None if cursor is None else {"en": guide.slots[cursor].label("en"),
                                             "ko": guide.slots[cursor].label("ko"),
                                             "kind": guide.slots[cursor].item.kind,
                                             "seat": guide.slots[cursor].item.seat, "position": cursor + 1},
        "total": len(guide.slots), "done": sum(1 for uid in guide.filled if uid),
        "skipped": sum(1 for uid in guide.filled if uid == ""), "can_undo": bool(guide.history),
        "kinds": list(kinds.values()),
        "last": None if guide.last is None else {"result": str(guide.last.result), "zone": guide.last.zone,
                                                 "en": guide.last.en, "ko": guide.last.ko},
    }
    if guide.mode is GuideMode.VERIFY:
        out["verify"] = verify_report(guide)
    return out


def verify_report(guide: Guide) -> dict[str, Any]:
    """Per kind: how many were tapped of how many, and which are missing; how many tags were unknown."""
    items = tuple(dict.fromkeys(s.item for s in guide.slots))
    gaps = missing(items, [Card(uid, guide.game, kind, value, "") for uid, kind, value in guide.seen])
    kinds = []
    for kind in dict.fromkeys(i.kind for i in items):
        total = sum(i.count for i in items if i.kind == kind)
        short = gaps.get(kind, [])
        kinds.append({"kind": kind, "total": total, "seen": total - sum(n for _, n in short),
                      "words": {lang: kind_word(guide.game, kind, lang) for lang in ("en", "ko")},
                      "missing": [{"en": i.en, "ko": i.ko, "count": n} for i, n in short]})
    return {"kinds": kinds, "unknown": len(guide.unknown), "complete": not gaps and not guide.unknown}
