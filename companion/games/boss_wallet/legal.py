"""Who acts now, which action types each phase allows, and the listed legal actions."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from companion.games.boss_wallet.config import BUY_ID_CU, SPECIALS_PER_SEAT, Timing
from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import CHANCE

ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.SETUP: frozenset({"setup"}),
    Phase.TURNS: frozenset({"draw", "draw_card", "put", "buy_id", "flip", "special"}),
    Phase.ROUND_END_SPECIALS: frozenset({"special", "pass"}),
    Phase.SCAN: frozenset({"reveal_hand"}),
    Phase.CREDIT: frozenset({"credit", "pass"}),
    Phase.CREDIT_DRAW: frozenset({"credit_draw"}),
    Phase.INVESTIGATE: frozenset({"investigate"}),
    Phase.RETURN_CHIPS: frozenset({"return_chip"}),
    Phase.AWARD: frozenset({"award"}),
    Phase.GAME_OVER: frozenset(),
})

_CHANCE_PHASES = frozenset({Phase.SETUP, Phase.SCAN, Phase.CREDIT_DRAW, Phase.AWARD})
_CHANCE = frozenset({CHANCE})
# Members read once: `Phase.TURNS` looks the member up through the enum's metaclass on every read (~0.2 us),
# and these are read for every acting seat on every publish.
_TURNS, _RETURN_CHIPS, _GAME_OVER = Phase.TURNS, Phase.RETURN_CHIPS, Phase.GAME_OVER
_ROUND_END_SPECIALS, _CREDIT, _INVESTIGATE = Phase.ROUND_END_SPECIALS, Phase.CREDIT, Phase.INVESTIGATE
_TURN_START, _ROUND_END = Timing.TURN_START, Timing.ROUND_END


def to_act(state: State) -> frozenset[int]:
    """{CHANCE}, the seat(s) asked now, or nobody once the game is over."""
    phase = state.phase
    if phase in _CHANCE_PHASES:
        return _CHANCE
    if phase is _TURNS:
        if state.drawing is not None:  # with known hands: chance names the card drawn
            return _CHANCE
        return frozenset({state.turn}) if state.turn is not None else frozenset()
    if phase is _RETURN_CHIPS:
        return frozenset(state.to_return)
    if phase is _GAME_OVER or not state.queue:
        return frozenset()
    return frozenset({state.queue[0]})


def _specials(state: State, seat: int, timing: Timing) -> list[dict[str, Any]]:
    if state.specials_by_seat[seat] >= SPECIALS_PER_SEAT:
        return []
    return [{"type": "special", "seat": seat, "card": s.id} for s in state.cfg.specials.values()
            if s.timing is timing and s.id not in state.specials_used]


def turn_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions of the seat whose turn it is."""
    if state.cfg.known_hands:
        return known_turn_actions(state, seat)
    out: list[dict[str, Any]] = []
    check = state.size_check
    if state.wallet > 0 or not check:
        out.append({"type": "draw", "seat": seat})
    cards = state.hand_sizes[seat] - len(state.extras[seat])  # `play_cards`, inlined
    if cards > 0 or not check:
        out.append({"type": "put", "seat": seat})
    payment = state.cfg.payment
    if payment is not None and (len(payment) <= cards or not check):
        taken = extras_taken(state) if any(state.extras) else ()  # most turns: no extra ID bought yet
        # One representative payment per extra ID: the engine cannot know which cards the hand holds.
        out += [{"type": "buy_id", "seat": seat, "paid": list(payment), "id_card": i}
                for i in state.cfg.extra_ids if i not in taken]
    out.append({"type": "flip", "seat": seat})
    return out + _specials(state, seat, _TURN_START) if state.cfg.specials else out


def known_turn_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """A known hand's turn: draw, put one of its play cards (one per kind of card), buy an extra ID with cards
    it holds (`payments`), flip. No specials: a game with known hands has none."""
    out: list[dict[str, Any]] = []
    if state.wallet > 0:
        out.append({"type": "draw", "seat": seat})
    cards = state.cfg.cards
    hand = state.held[seat]
    extras = state.extras[seat]
    seen: set[tuple[Any, ...]] = set()
    for card_id in hand:
        if card_id in extras:
            continue
        key = cards[card_id].facts
        if key not in seen:
            seen.add(key)
            out.append({"type": "put", "seat": seat, "card": card_id})
    offers = payments(state, hand)
    if offers:
        taken = extras_taken(state) if any(state.extras) else ()
        out += [{"type": "buy_id", "seat": seat, "paid": list(paid), "id_card": i}
                for i in state.cfg.extra_ids if i not in taken for paid in offers]
    out.append({"type": "flip", "seat": seat})
    return out


MAX_PAYMENTS = 6
"""Payments listed per extra ID for a known hand (the engine accepts any payment from the hand)."""


def payments(state: State, hand: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Up to MAX_PAYMENTS ways a known hand can pay for an extra ID: sets of its bills and jewellery worth >= 300 CU
    from which no card could be left out, one per kind of payment (cards alike in type, value and currency are
    one choice), least paid first, then fewest cards, then in hand order."""
    cards = state.cfg.cards
    payable = [cards[c] for c in hand if cards[c].payable]
    if sum(c.value for c in payable) < BUY_ID_CU:
        return []
    payable.sort(key=lambda c: -c.value)  # stable: hand order among equal values
    rest = [0] * (len(payable) + 1)
    for i in range(len(payable) - 1, -1, -1):
        rest[i] = rest[i + 1] + payable[i].value
    found: dict[tuple[Any, ...], tuple[int, int, tuple[str, ...]]] = {}
    chosen: list[int] = []

    def walk(i: int, total: int) -> None:
        if total >= BUY_ID_CU:  # the last card taken is the smallest: without it the payment falls short
            key = tuple(sorted(payable[j].facts for j in chosen))
            if key not in found:
                found[key] = (total, len(chosen), tuple(payable[j].id for j in chosen))
            return
        if i == len(payable) or total + rest[i] < BUY_ID_CU or len(found) >= MAX_SEARCH:
            return
        chosen.append(i)
        walk(i + 1, total + payable[i].value)
        chosen.pop()
        walk(i + 1, total)

    walk(0, 0)
    best = sorted(found.values(), key=lambda f: (f[0], f[1]))[:MAX_PAYMENTS]
    return [paid for _, _, paid in best]


MAX_SEARCH = 64
"""Kinds of payment looked at before the best are chosen (a hand of many small bills has very many)."""


def acting(state: State, seat: int) -> bool:
    """Whether `seat` is in `to_act(state)` (a turn's seat without building the set)."""
    if state.phase is _TURNS:
        return state.turn is not None and state.turn == seat and state.drawing is None
    return seat in to_act(state)


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions this acting seat may take now."""
    phase = state.phase
    if phase is _TURNS:
        return turn_actions(state, seat)
    if phase is _ROUND_END_SPECIALS:
        return [{"type": "pass", "seat": seat}] + _specials(state, seat, _ROUND_END)
    if phase is _CREDIT:
        return [{"type": "credit", "seat": seat}, {"type": "pass", "seat": seat}]
    if phase is _INVESTIGATE:
        return [{"type": "investigate", "seat": seat, "target": t} for t in range(state.seats) if t != seat]
    if phase is _RETURN_CHIPS:
        return [{"type": "return_chip", "seat": seat, "chip": v} for v in sorted(set(state.chips[seat]))]
    return []
