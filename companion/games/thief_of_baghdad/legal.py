"""The legal actions of the acting seat: one representative per distinct multiset of cards paid.

Every action a seat can be offered is one of a few hundred fixed ones, so each is built once at import with the
words of its prompt option (`worded`), grouped by what it depends on: the board picks the groups, and a group's
actions that the hand pays for are found by one lookup of the hand's cards as bits (`held_mask`). They are
read-only (`Fixed`, `FixedList`: companion/games/fixed_actions.py) and handed out as they are, so a seat offered
an action again holds the very same object (the table compares them at a glance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Mapping, Sequence

from companion.games.fixed_actions import Fixed, FixedList
from companion.games.thief_of_baghdad.board import (
    COLORS, DANCER_INDEX, GUARD_SPACES, GUARDS_PER_SEAT, PALACES, THIEF_MOVES_PER_TURN,
)
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.payments import (
    INFILTRATE_OPTIONS, MOVE_GUARD_OPTIONS, MOVE_NEUTRAL_OPTIONS, Payment,
)
from companion.games.thief_of_baghdad.state import State

MAX_PAID: Final = GUARD_SPACES - 1
"""The most cards of one kind a payment takes (infiltrating past three foreign guards)."""
HELD_BITS: Final[tuple[int, ...]] = tuple(sum(1 << (8 * k) for k in range(min(n, MAX_PAID))) for n in range(256))
"""For a count of one card held: bit 8k set for each k < min(count, MAX_PAID) (held at least k + 1)."""

PALETTE: Final = (1 << PALACES) - 1
"""The mask bits of holding at least one card of each colour."""
DANCER_BIT: Final = 1 << DANCER_INDEX
"""The mask bit of holding a dancer."""


def worded(action: dict[str, Any]) -> Fixed:
    """`action` carrying its option's words: the type in words, then each field but the seat (a name as it
    is, a list of names joined, a flag as "key yes/no"), the same for every table's seat names."""
    group = action["type"].replace("_", " ")
    words = []
    for key, value in action.items():
        if key in ("type", "seat"):
            continue
        if type(value) is str:
            words.append(value)
        elif type(value) is list:
            words.append(" ".join(value))
        elif type(value) is bool:  # the key in words, as the table's own labels say it ("with thief yes")
            words.append(f"{key.replace('_', ' ')} {'yes' if value else 'no'}")
        else:
            raise ValueError(f"no fixed words for {key}={value!r}")
    label = f"{group} {' '.join(words)}" if words else group
    if not label.isascii():
        raise ValueError(f"a fixed action's label is ASCII: {label!r}")
    made = Fixed({k: FixedList(v) if type(v) is list else v for k, v in action.items()})
    made.option_words = (group, label, label, " ".join(words) or group)
    return made


Payable = tuple[int, Mapping[int, tuple[Fixed, ...]]]
"""The bits of a hand's mask that a group's payments read, and for each value of those bits the group's
actions the hand pays for, in order."""


def need_mask(needs: tuple[tuple[int, int], ...]) -> int:
    """The bits a hand's mask (`held_mask`) must have to pay: for k of card i, bits 8j + i for j < k."""
    if any(k > MAX_PAID for _, k in needs):
        raise ValueError(f"a payment of more than {MAX_PAID} of one card: {needs!r}")
    return sum(1 << (8 * j + i) for i, k in needs for j in range(k))


def held_mask(hand: bytes) -> int:
    """A hand as bits: 8j + i set when it holds more than j of card i (j < MAX_PAID)."""
    bits = HELD_BITS
    return (bits[hand[0]] | bits[hand[1]] << 1 | bits[hand[2]] << 2 | bits[hand[3]] << 3 | bits[hand[4]] << 4
            | bits[hand[5]] << 5 | bits[hand[6]] << 6)


def payable(choices: Sequence[tuple[int, Sequence[Fixed]]]) -> Payable:
    """A group of payments (each its need and its actions) by what a hand pays for: for every combination of
    the bits they read, the actions of the payments it covers."""
    read = 0
    for need, _ in choices:
        read |= need
    bits = [1 << b for b in range(read.bit_length()) if read >> b & 1]
    by_held = {}
    for chosen in range(1 << len(bits)):
        held = sum(bit for i, bit in enumerate(bits) if chosen >> i & 1)
        by_held[held] = tuple(a for need, actions in choices if not need & ~held for a in actions)
    return read, by_held


@dataclass(frozen=True)
class SeatChoices:
    """Every action one seat can be offered, grouped by what it depends on."""

    place: tuple[Fixed, ...]
    """[palace]."""
    infiltrate: tuple[tuple[Payable, ...], ...]
    """[palace][foreign guards]."""
    move_guard: tuple[tuple[Payable, ...], ...]
    """[origin][destination], without a thief."""
    carry: tuple[tuple[Payable, ...], ...]
    """[origin][destination], each payment without and then with a thief."""
    move_neutral: tuple[tuple[Payable, ...], ...]
    """[origin][destination]."""
    end_turn: tuple[Fixed, Fixed]
    """(without, taking a dancer)."""


def _paid(payments: tuple[Payment, ...], extra: tuple[dict[str, Any], ...], **fields: Any) -> Payable:
    """`payable` of one action per payment and `extra` fields: `fields`, the cards, then `extra`'s."""
    return payable([(need_mask(needs), tuple(worded({**fields, "cards": list(names), **more}) for more in extra))
                    for needs, names in payments])


def seat_choices(seat: int) -> SeatChoices:
    """The fixed actions of `seat`."""
    def moves(o: int, d: int, thief: tuple[bool, ...]) -> Payable:
        return _paid(MOVE_GUARD_OPTIONS[o][d], tuple({"with_thief": t} for t in thief), type="move_guard",
                     seat=seat, **{"from": COLORS[o]}, to=COLORS[d])
    return SeatChoices(
        tuple(worded({"type": "place_guard", "seat": seat, "palace": COLORS[p]}) for p in range(PALACES)),
        tuple(tuple(_paid(options, ({},), type="infiltrate", seat=seat, palace=COLORS[p])
                    for options in INFILTRATE_OPTIONS[p]) for p in range(PALACES)),
        tuple(tuple(moves(o, d, (False,)) for d in range(PALACES)) for o in range(PALACES)),
        tuple(tuple(moves(o, d, (False, True)) for d in range(PALACES)) for o in range(PALACES)),
        tuple(tuple(_paid(MOVE_NEUTRAL_OPTIONS[o][d], ({},), type="move_neutral", seat=seat,
                          **{"from": COLORS[o]}, to=COLORS[d]) for d in range(PALACES)) for o in range(PALACES)),
        (worded({"type": "end_turn", "seat": seat, "take_dancer": False}),
         worded({"type": "end_turn", "seat": seat, "take_dancer": True})),
    )


CHOICES: Final[tuple[SeatChoices, ...]] = tuple(seat_choices(seat) for seat in range(max(GUARDS_PER_SEAT)))
"""[seat] -> its fixed actions; read-only (handed out as they are)."""
DESTINATIONS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(d for d in range(PALACES) if d != o and free >> d & 1) for free in range(1 << PALACES))
    for o in range(PALACES))
"""[origin][palaces with a free space, as bits] -> the other palaces a guard may move to; immutable."""


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action `apply` accepts from `seat` now (the caller checked that it is to act)."""
    width = neutral = state.seats
    width += 1
    guards = state.guards
    mine = CHOICES[seat]
    turn = state.phase is Phase.TURN
    if not turn and state.phase is not Phase.PLACE:
        return []
    picked: list[dict[str, Any]] = []
    held = held_mask(state.hand(seat))
    infiltrating = turn and state.thief_moves < THIEF_MOVES_PER_TURN and state.supply[seat]
    # one pass over the palaces: the free ones, the infiltrations, and where this seat's and neutral guards are
    free = 0
    own: list[int] = []
    neutrals: list[int] = []
    for p in range(PALACES):
        here = guards[p * width:p * width + width]
        total = sum(here)
        if total < GUARD_SPACES:
            free |= 1 << p
        if here[seat]:
            own.append(p)
            if infiltrating and total > here[seat]:
                read, by_held = mine.infiltrate[p][total - here[seat]]
                picked += by_held[held & read]
        if here[neutral]:
            neutrals.append(p)
    if not turn:
        place = mine.place
        return [place[p] for p in range(PALACES) if free >> p & 1]
    thieves = state.thieves[seat::state.seats] if state.thief_moves < THIEF_MOVES_PER_TURN else bytes(PALACES)
    # without a dancer a payment needs a card of the origin's or the destination's colour
    colours = PALETTE if held & DANCER_BIT else held & PALETTE
    for o in own:
        moves = (mine.carry if thieves[o] else mine.move_guard)[o]
        for d in DESTINATIONS[o][free if colours >> o & 1 else free & colours]:
            read, by_held = moves[d]
            picked += by_held[held & read]
    for o in neutrals:
        if colours >> o & 1:
            moves = mine.move_neutral[o]
            for d in DESTINATIONS[o][free & colours]:
                read, by_held = moves[d]
                picked += by_held[held & read]
    picked.append(mine.end_turn[0])
    if not state.acted and state.dancers:
        picked.append(mine.end_turn[1])
    return picked
