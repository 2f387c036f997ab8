"""The validated, immutable game configuration built from the options."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.boss_wallet.cards import Card, Kind, in_use, parse_cards
from companion.games.schema import is_int

HAND = 5
"""Play cards dealt to every seat each round."""
ROUNDS = 3
HOURGLASSES = 6
BUY_ID_CU = 300
LIMIT_CENTS = 500 * 100
"""The 500 CU line, in cents (coins are cents)."""
COINS = (1, 2, 5, 7, 10, 20, 50)
CHIP_VALUES = (1, 2, 3)
CHIP_TOTAL = 37
SPECIALS_PER_SEAT = 2
"""Special cards dealt to each seat per round: nobody can play more."""


class Timing(str, Enum):
    """When a special card may be played."""

    TURN_START = "turn_start"
    ROUND_END = "round_end"


@dataclass(frozen=True)
class Special:
    """An enrolled special card: its effects are the players' business, the engine only logs it."""

    id: str
    name: str
    timing: Timing
    replaces_action: bool


OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "cards": None,
    "specials": None,
    "chips": None,
    "rank_guilty": False,
    "credit_card_limit": None,
    "balanced_deck": False,
    "known_hands": False,
})
"""Every option with its default (None = the sample cards / no specials / chips 20x1, 10x2, 7x3). `known_hands`
is the table's to set, from its components (digital: true), never the host's (RULINGS.md, "Known hands")."""

DEFAULT_CHIPS = ((1, 20), (2, 10), (3, 7))


def award_schedule(seats: int) -> tuple[int, ...]:
    """Chips per rank place: 2 seats 1 · 3: 2/1 · 4: 3/2/1 · 5–7: 4/3/2/1."""
    return tuple(range(min(seats - 1, 4), 0, -1))


@dataclass(frozen=True)
class Config:
    """Everything fixed for one game; never mutated (the dicts are read-only by convention)."""

    seats: int
    cards: Mapping[str, Card]
    in_use: tuple[str, ...]
    """Play card ids in the game at this seat count, catalogue order."""
    usable: frozenset[str]
    """The same ids as a set."""
    payment: tuple[str, ...] | None
    """A representative buy_id payment (fewest in-use cards worth >= 300 CU), None if none exists."""
    extra_ids: tuple[str, ...]
    specials: Mapping[str, Special]
    chips: tuple[int, int, int]
    """Chips of value 1, 2, 3 in the whole game."""
    rank_guilty: bool
    credit_card_limit: int | None
    sample_deck: bool
    known_hands: bool = False
    """The engine knows every hand from the deal (digital components): chance deals, draws and reveals cards."""
    catalogue: Mapping[str, Mapping[str, Any]] = field(init=False, repr=False, compare=False)
    """Every card's catalogue entry by id (the cards' own shared entries), read without a call per card."""
    choice_entries: Mapping[str, Mapping[str, Any]] = field(init=False, repr=False, compare=False)
    """`entries` of the extra IDs and the representative payment, and each special card by its name: what every
    seat's choices name (a special card's id is its tag, which no player reads)."""

    def __post_init__(self) -> None:
        # Derived once from the cards (views look entries up on every publish); frozen like the rest.
        object.__setattr__(self, "catalogue", MappingProxyType({i: c.entry() for i, c in self.cards.items()}))
        specials = {sid: {"type": "special", "name": s.name} for sid, s in self.specials.items()}
        object.__setattr__(self, "choice_entries",
                           MappingProxyType({**self.entries([*self.extra_ids, *(self.payment or ())]), **specials}))

    def __deepcopy__(self, memo: dict) -> "Config":
        # Immutable by construction: sharing it is what a deep copy of a tuple of ints does too.
        return self

    def card(self, card_id: str) -> Card | None:
        """The catalogue entry, or None for an unknown id."""
        return self.cards.get(card_id)

    def entries(self, ids: tuple[str, ...] | list[str]) -> dict[str, dict[str, Any]]:
        """Catalogue entries of the given ids (what a page needs to draw them)."""
        catalogue = self.catalogue
        return {i: catalogue[i] for i in ids if i in catalogue}


def _specials(raw: Any) -> dict[str, Special]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ValueError("option 'specials': expected an object {id: {name, timing, replaces_action}}")
    out: dict[str, Special] = {}
    for sid, entry in raw.items():
        if not isinstance(sid, str) or not sid or not isinstance(entry, Mapping):
            raise ValueError(f"option 'specials': bad entry {sid!r}")
        extra = set(entry) - {"name", "timing", "replaces_action"}
        name, timing, replaces = entry.get("name"), entry.get("timing"), entry.get("replaces_action", False)
        if extra:
            raise ValueError(f"option 'specials': {sid!r} has unknown field(s) {sorted(extra)}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"option 'specials': {sid!r} needs a name")
        if timing not in (t.value for t in Timing):
            raise ValueError(f"option 'specials': {sid!r} timing must be turn_start or round_end")
        if not isinstance(replaces, bool):
            raise ValueError(f"option 'specials': {sid!r} replaces_action must be true or false")
        out[sid] = Special(sid, name, Timing(timing), replaces)
    return out


def _chips(raw: Any, seats: int) -> tuple[int, int, int]:
    if raw is None:
        return tuple(n for _, n in DEFAULT_CHIPS)  # type: ignore[return-value]
    if not isinstance(raw, Mapping) or set(raw) - {"1", "2", "3"}:
        raise ValueError('option \'chips\': expected {"1": n, "2": n, "3": n}')
    counts = tuple(raw.get(str(v), 0) for v in CHIP_VALUES)
    if not all(is_int(n) and n >= 0 for n in counts):
        raise ValueError("option 'chips': counts must be non-negative integers")
    if sum(counts) != CHIP_TOTAL:
        raise ValueError(f"option 'chips': the game has {CHIP_TOTAL} chips, got {sum(counts)}")
    if counts[0] < seats:
        raise ValueError(f"option 'chips': every seat starts with a 1-chip, so at least {seats} are needed")
    return counts  # type: ignore[return-value]


def _payment(cards: list[Card]) -> tuple[str, ...] | None:
    """The fewest payable cards reaching BUY_ID_CU: the most valuable first."""
    chosen: list[str] = []
    total = 0
    for card in sorted((c for c in cards if c.payable), key=lambda c: -c.value):
        if total >= BUY_ID_CU:
            break
        chosen.append(card.id)
        total += card.value
    return tuple(chosen) if total >= BUY_ID_CU else None


def build_config(options: Mapping[str, Any], seats: int) -> Config:
    """Validate option values; ValueError names the option."""
    for flag in ("rank_guilty", "balanced_deck", "known_hands"):
        if not isinstance(options[flag], bool):
            raise ValueError(f"option {flag!r} must be true or false")
    limit = options["credit_card_limit"]
    if limit is not None and (not is_int(limit) or limit < 0):
        raise ValueError("option 'credit_card_limit' must be null or a non-negative integer")
    cards = parse_cards(options["cards"])
    by_id = {c.id: c for c in cards}
    used = tuple(c.id for c in cards if in_use(c, seats, options["balanced_deck"]))
    if len(used) < HAND * seats:
        raise ValueError(f"option 'cards': {len(used)} play cards in use at {seats} seats, "
                         f"{HAND * seats} needed for the deal")
    specials = _specials(options["specials"])
    clash = set(specials) & set(by_id)
    if clash:
        raise ValueError(f"option 'specials': ids {sorted(clash)} are also play cards")
    if specials and options["known_hands"]:
        raise ValueError("option 'specials': special cards are physical cards; a game whose hands the table "
                         "knows (known_hands, digital components) plays without them")
    return Config(
        seats=seats,
        cards=MappingProxyType(by_id),
        in_use=used,
        usable=frozenset(used),
        payment=_payment([by_id[i] for i in used]),
        extra_ids=tuple(c.id for c in cards if c.kind is Kind.ID and c.extra),
        specials=MappingProxyType(specials),
        chips=_chips(options["chips"], seats),
        rank_guilty=options["rank_guilty"],
        credit_card_limit=limit,
        sample_deck=options["cards"] is None,
        known_hands=options["known_hands"],
    )
