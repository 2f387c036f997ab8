"""The palace-card deck: what a deal or a draw may contain, and sampling them with the right odds."""

from __future__ import annotations

import random
from typing import Sequence

from companion.games.contract import Refusal
from companion.games.thief_of_baghdad.board import CARD_INDEX, CARDS_PER_COLOUR, COLORS, DANCER, PALACES

Counts = bytes
"""Counts by palace colour (6 entries)."""


def colour_counts(cards: Sequence[str]) -> Counts:
    """Counts by colour of palace cards; a dancer raises `not_a_palace_card`."""
    counts = [0] * PALACES
    for card in cards:
        if card == DANCER:
            raise Refusal("not_a_palace_card", "dancers come from their supply, never from the pile")
        counts[CARD_INDEX[card]] += 1
    return bytes(counts)


def check_deal(hands: Sequence[Sequence[str]], sizes: Sequence[int]) -> tuple[tuple[Counts, ...], Counts]:
    """Each seat's dealt counts and the pile left; refuses wrong sizes and more than 17 of a colour."""
    dealt: list[Counts] = []
    for seat, (hand, size) in enumerate(zip(hands, sizes)):
        if len(hand) != size:
            raise Refusal("wrong_hand_size", f"seat {seat} starts with {size} cards, got {len(hand)}")
        dealt.append(colour_counts(hand))
    left = [CARDS_PER_COLOUR - sum(h[c] for h in dealt) for c in range(PALACES)]
    for colour, n in enumerate(left):
        if n < 0:
            raise Refusal(
                "card_not_in_pile", f"{CARDS_PER_COLOUR - n} {COLORS[colour]} dealt; the deck has {CARDS_PER_COLOUR}"
            )
    return tuple(dealt), bytes(left)


def check_draw(pile: Counts, discard: Counts, drawn: Counts) -> tuple[Counts, Counts, int]:
    """(pile, discard, cards reshuffled) after drawing `drawn`; the pile is taken whole before a reshuffle."""
    size = sum(drawn)
    if size <= sum(pile):
        for colour in range(PALACES):
            if drawn[colour] > pile[colour]:
                raise Refusal("card_not_in_pile", f"no {COLORS[colour]} card is left in the draw pile")
        return bytes(p - d for p, d in zip(pile, drawn)), discard, 0
    # The pile runs out mid-draw: all of it is drawn, the discard is shuffled into a new pile, drawing goes on.
    for colour in range(PALACES):
        if drawn[colour] > pile[colour] + discard[colour]:
            raise Refusal(
                "card_not_in_pile", f"no {COLORS[colour]} card is left in the draw pile or the discard"
            )
        if drawn[colour] < pile[colour]:
            raise Refusal(
                "card_not_in_pile",
                f"the pile runs out mid-draw, so all of it is drawn: {pile[colour]} {COLORS[colour]} expected",
            )
    new_pile = bytes(p + x - d for p, x, d in zip(pile, discard, drawn))
    return new_pile, bytes(PALACES), sum(discard)


def sample(counts: Counts, n: int, rng: random.Random) -> list[str]:
    """`n` cards drawn one by one without replacement from a pile of these counts."""
    left = list(counts)
    total = sum(left)
    out: list[str] = []
    for _ in range(n):
        r = rng.randrange(total)
        colour = 0
        while r >= left[colour]:
            r -= left[colour]
            colour += 1
        left[colour] -= 1
        total -= 1
        out.append(COLORS[colour])
    return out


def sample_draw(pile: Counts, discard: Counts, n: int, rng: random.Random) -> list[str]:
    """A draw of `n` cards: from the pile, then (when it runs out) from the reshuffled discard."""
    from_pile = min(n, sum(pile))
    cards = sample(pile, from_pile, rng)
    if from_pile < n:
        cards += sample(discard, n - from_pile, rng)
    return cards
