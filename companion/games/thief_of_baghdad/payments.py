"""Card payments: exact count, each card of a colour its slot accepts (dancers wild), all held."""

from __future__ import annotations

from itertools import permutations, product
from typing import Callable, Final, Sequence

from companion.games.contract import Refusal
from companion.games.thief_of_baghdad.board import CARD_INDEX, CARD_NAMES, DANCER_INDEX, PALACES

Slots = tuple[frozenset[int], ...]
"""One entry per card to pay: the palace colours (indices) that card may be; a dancer fits any."""

Payment = tuple[tuple[tuple[int, int], ...], tuple[str, ...]]
"""One distinct way to pay: ((card index, count) for each card paid, card names in a canonical order)."""


def card_counts(indices: Sequence[int]) -> tuple[int, ...]:
    """Counts by card index (7 entries) of a sequence of card indices."""
    counts = [0] * (DANCER_INDEX + 1)
    for i in indices:
        counts[i] += 1
    return tuple(counts)


def _fits(colours: Sequence[int], slots: Slots) -> bool:
    """Whether the non-dancer cards can each take a distinct slot that accepts their colour."""
    return any(
        all(card in slot for card, slot in zip(colours, chosen))
        for chosen in permutations(slots, len(colours))
    )


def check_payment(hand: bytes, cards: Sequence[str], slots: Slots) -> tuple[int, ...]:
    """The counts paid, or Refusal: count first, then colours, then whether the hand holds them."""
    if len(cards) < len(slots):
        raise Refusal("too_few_cards", f"this costs {len(slots)} card(s); {len(cards)} paid")
    if len(cards) > len(slots):
        raise Refusal("too_many_cards", f"this costs {len(slots)} card(s); {len(cards)} paid")
    indices = [CARD_INDEX[c] for c in cards]
    if not _fits([i for i in indices if i != DANCER_INDEX], slots):
        raise Refusal("wrong_colour", f"{list(cards)} does not pay for this (dancers are wild)")
    paid = card_counts(indices)
    if paid[DANCER_INDEX] > hand[DANCER_INDEX]:
        raise Refusal(
            "dancer_not_held", f"{paid[DANCER_INDEX]} dancer(s) paid, {hand[DANCER_INDEX]} held"
        )
    for colour in range(PALACES):
        if paid[colour] > hand[colour]:
            raise Refusal(
                "card_not_in_hand", f"{paid[colour]} {CARD_NAMES[colour]} paid, {hand[colour]} held"
            )
    return paid


def payment_options(slots: Slots) -> tuple[Payment, ...]:
    """Every distinct multiset of cards that pays these slots, regardless of the hand."""
    seen: dict[tuple[int, ...], tuple[str, ...]] = {}
    for choice in product(*(sorted(slot) + [DANCER_INDEX] for slot in slots)):
        ordered = tuple(sorted(choice))
        seen.setdefault(ordered, tuple(CARD_NAMES[i] for i in ordered))
    return tuple(
        (tuple((i, ordered.count(i)) for i in sorted(set(ordered))), names) for ordered, names in seen.items()
    )


def affordable(options: tuple[Payment, ...], hand: bytes) -> list[tuple[str, ...]]:
    """The payments among `options` this hand holds."""
    out = []
    for needs, names in options:  # a loop, not all(...): it runs for every pair of palaces on every publish
        for i, k in needs:
            if hand[i] < k:
                break
        else:
            out.append(names)
    return out


def infiltrate_slots(palace: int, foreign: int) -> Slots:
    """One card of the palace's colour per foreign guard."""
    return (frozenset({palace}),) * foreign


def move_guard_slots(origin: int, destination: int) -> Slots:
    """One card of the origin's or the destination's colour."""
    return (frozenset({origin, destination}),)


def move_neutral_slots(origin: int, destination: int) -> Slots:
    """One card of the origin's colour and one of the destination's."""
    return (frozenset({origin}), frozenset({destination}))


def _table(slots_of: Callable[[int, int], Slots], size: int) -> tuple[tuple[tuple[Payment, ...], ...], ...]:
    """payment_options for every (palace, second argument) pair, computed once at import."""
    return tuple(tuple(payment_options(slots_of(a, b)) for b in range(size)) for a in range(PALACES))


INFILTRATE_OPTIONS: Final = _table(infiltrate_slots, 4)
"""[palace][foreign guards] -> distinct payments; immutable."""
MOVE_GUARD_OPTIONS: Final = _table(move_guard_slots, PALACES)
"""[origin][destination] -> distinct payments; immutable."""
MOVE_NEUTRAL_OPTIONS: Final = _table(move_neutral_slots, PALACES)
"""[origin][destination] -> distinct payments; immutable."""
