"""Card vocabulary, the shipped SAMPLE catalogue (our own invention) and parsing of the `cards` option."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from companion.games.schema import is_int


class Kind(str, Enum):
    """The five kinds of card the catalogue knows."""

    BILL = "bill"
    JEWEL = "jewel"
    ID = "id"
    CREDIT = "credit"
    BADGE = "badge"


class Person(str, Enum):
    """The identities an ID card names."""

    JOHN_SMITH = "john_smith"
    POLICE = "police"
    MODEL = "model"
    MILLIONAIRE = "millionaire"
    SECRET_AGENT = "secret_agent"


MIN_SEATS, MAX_SEATS = 2, 7
PERSONS = frozenset(p.value for p in Person)


@dataclass(frozen=True)
class Card:
    """One catalogue entry: value in whole CU (bills and jewellery), currency, person, player-count mark."""

    id: str
    kind: Kind
    value: int = 0
    currency: str | None = None
    person: str | None = None
    extra: bool = False
    min_seats: int = MIN_SEATS
    _entry: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    facts: tuple[str, int, str, str, bool] = field(init=False, repr=False, compare=False)
    """What the card is in play (cards alike in these are one choice): kind, value, currency, person, extra."""

    @property
    def payable(self) -> bool:
        """Bills and jewellery pay for an extra ID."""
        return self.kind in (Kind.BILL, Kind.JEWEL)

    def __post_init__(self) -> None:
        # The catalogue entry is fixed for the card's life: built once here and shared by every view that
        # names the card (every publish draws dozens of them), so nothing may mutate it.
        out: list[tuple[str, Any]] = [("type", self.kind.value)]
        if self.kind in (Kind.BILL, Kind.JEWEL):
            out.append(("value", self.value))
        if self.currency is not None:
            out.append(("currency", self.currency))
        if self.person is not None:
            out += [("person", self.person), ("extra", self.extra)]
        if self.min_seats != MIN_SEATS:
            out.append(("min_seats", self.min_seats))
        object.__setattr__(self, "_entry", dict(out))
        object.__setattr__(self, "facts", (self.kind.value, self.value, self.currency or "", self.person or "",
                                           self.extra))

    def entry(self) -> dict[str, Any]:
        """The JSON catalogue entry (as the `cards` option spells it); one shared dict, read-only by convention."""
        return self._entry  # type: ignore[return-value]


def _sample() -> tuple[Card, ...]:
    """A SAMPLE catalogue: 80 play cards and 5 extra IDs we made up; the real card list is unpublished."""
    cards: list[Card] = []
    # min_seats marks rotate so that every seat count from 2 to 7 keeps a mixed deck (balanced_deck too).
    marks = (2, 2, 3, 2, 4, 2, 5, 2, 6, 2, 7, 2, 2)
    bill_values = (10, 20, 20, 50, 50, 50, 100, 100, 100, 150, 200, 200, 250)
    for currency in ("red", "green", "blue", "yellow"):
        for i, value in enumerate(bill_values):
            cards.append(Card(f"{currency}{value}{'abc'[sum(v == value for v in bill_values[:i])]}",
                              Kind.BILL, value, currency=currency, min_seats=marks[i]))
    for i, value in enumerate((30, 50, 80, 100, 120, 150, 200, 250)):
        cards.append(Card(f"jewel{value}", Kind.JEWEL, value, min_seats=(2, 3, 2, 4, 2, 5, 6, 7)[i]))
    ids = (("john_smith", (2, 2, 5)), ("police", (2, 2, 4)), ("model", (2, 3, 6)),
           ("millionaire", (2, 2, 7)), ("secret_agent", (2, 5)))
    for person, id_marks in ids:
        for i, mark in enumerate(id_marks):
            cards.append(Card(f"{person}{i + 1}", Kind.ID, person=person, min_seats=mark))
    for i, mark in enumerate((2, 3, 6)):
        cards.append(Card(f"badge{i + 1}", Kind.BADGE, min_seats=mark))
    for i, mark in enumerate((2, 4, 7)):
        cards.append(Card(f"credit{i + 1}", Kind.CREDIT, min_seats=mark))
    for person in Person:
        cards.append(Card(f"extra_{person.value}", Kind.ID, person=person.value, extra=True))
    return tuple(cards)


SAMPLE_CARDS: tuple[Card, ...] = _sample()
"""The sample catalogue (immutable); shown as `sample_deck: true` wherever a view shows the game."""


def _bad(message: str) -> ValueError:
    return ValueError(f"option 'cards': {message}")


_ENTRY_KEYS = frozenset({"type", "value", "currency", "person", "extra", "min_seats", "label"})


def parse_card(card_id: Any, entry: Any) -> Card:
    """One `cards` option entry -> Card; anything wrong raises ValueError naming the option."""
    if not isinstance(card_id, str) or not card_id or len(card_id) > 200:
        raise _bad(f"card ids are non-empty strings, got {card_id!r}")
    if not isinstance(entry, Mapping):
        raise _bad(f"card {card_id!r} must be an object")
    unknown = set(entry) - _ENTRY_KEYS
    if unknown:
        raise _bad(f"card {card_id!r} has unknown field(s) {sorted(unknown)}")
    try:
        kind = Kind(entry.get("type"))
    except ValueError:
        raise _bad(f"card {card_id!r} has type {entry.get('type')!r}") from None
    min_seats = entry.get("min_seats", MIN_SEATS)
    if not is_int(min_seats) or not MIN_SEATS <= min_seats <= MAX_SEATS:
        raise _bad(f"card {card_id!r} has min_seats {min_seats!r} (2..7)")
    value, currency, person, extra = 0, None, None, False
    if kind in (Kind.BILL, Kind.JEWEL):
        value = entry.get("value")
        if not is_int(value) or value <= 0:
            raise _bad(f"card {card_id!r} needs a positive integer value in CU, got {value!r}")
    if kind is Kind.BILL:
        currency = entry.get("currency")
        if not isinstance(currency, str) or not currency:
            raise _bad(f"bill {card_id!r} needs a currency")
    if kind is Kind.ID:
        person = entry.get("person")
        if person not in PERSONS:
            raise _bad(f"ID {card_id!r} has person {person!r} (one of {sorted(PERSONS)})")
        extra = entry.get("extra", False)
        if not isinstance(extra, bool):
            raise _bad(f"ID {card_id!r} has extra {extra!r} (true or false)")
    return Card(card_id, kind, value, currency, person, extra, min_seats)


def parse_cards(raw: Any) -> tuple[Card, ...]:
    """The `cards` option (None = the sample catalogue) -> cards in catalogue order."""
    if raw is None:
        return SAMPLE_CARDS
    if not isinstance(raw, Mapping) or not raw:
        raise _bad("expected a non-empty object {id: {type, ...}}")
    return tuple(parse_card(card_id, entry) for card_id, entry in raw.items())


def in_use(card: Card, seats: int, balanced: bool) -> bool:
    """Whether a play card is in the game at this seat count (its printed mark)."""
    if card.extra:
        return False
    return card.min_seats <= seats if balanced or seats < 3 else True
