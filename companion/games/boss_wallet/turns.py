"""The round start (chance `setup`) and the turn actions: draw (and chance's `draw_card`), put, buy_id, flip,
special."""

from __future__ import annotations

from typing import Any

from companion.games.boss_wallet.config import BUY_ID_CU, COINS, HAND, HOURGLASSES, SPECIALS_PER_SEAT, Timing
from companion.games.boss_wallet.flow import (
    extras_taken, finish_turn, log, play_cards, round_end_specials, round_over,
)
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import Refusal

Action = dict[str, Any]


def apply_setup(state: State, a: Action) -> State:
    """Coins dealt (distinct, from the seven), the lowest starts; every hand is dealt 5 cards: blind, or with
    known hands the cards the action names (`hands`)."""
    coins = a["coins"]
    if len(set(coins)) != len(coins) or any(c not in COINS for c in coins):
        raise Refusal("bad_coins", f"coins must be distinct values from {list(COINS)}, got {list(coins)}")
    held = check_deal(state, a.get("hands"))
    n = state.seats
    start = coins.index(min(coins))
    state = state.evolve(
        phase=Phase.TURNS, start_seat=start, turn=start, coins=tuple(coins), hourglasses=0,
        turns_taken=0, hand_sizes=(HAND,) * n, extras=((),) * n, wallet=len(state.cfg.in_use) - HAND * n,
        specials_used=(), specials_by_seat=(0,) * n, size_check=True, queue=(), hands=(),
        credit_drawn=((),) * n, officers=(), investigations=(), verdicts=(), to_return=(), award_queue=(),
        round_log=len(state.log), held=held, drawing=None,
    )
    state = log(state, "round_start", round=state.round, coins=list(coins), start_seat=start)
    for seat, hand in enumerate(held):
        state = log(state, "hand_dealt", to=seat, seat=seat, cards=list(hand))
    return state


def check_deal(state: State, hands: tuple[tuple[str, ...], ...] | None) -> tuple[tuple[str, ...], ...]:
    """The dealt hands: none without known hands; with them five distinct in-use play cards a seat, no card
    in two hands."""
    if not state.cfg.known_hands:
        if hands is not None:
            raise Refusal("bad_deal", "this table does not know the hands: they are dealt blind")
        return ()
    if hands is None:
        raise Refusal("bad_deal", "a table that knows the hands deals them: `hands` names each seat's cards")
    seen: set[str] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != HAND:
            raise Refusal("bad_deal", f"seat {seat} is dealt {len(hand)} cards, not {HAND}")
        for card_id in hand:
            if card_id not in state.cfg.usable:
                raise Refusal("bad_deal", f"{card_id!r} is not a play card in use at {state.seats} seats")
            if card_id in seen:
                raise Refusal("bad_deal", f"{card_id!r} is dealt twice")
            seen.add(card_id)
    return tuple(tuple(h) for h in hands)


def apply_draw(state: State, a: Action) -> State:
    """Draw a play card from the wallet: blind (which one is hidden until the scan), or with known hands chance
    then names it (`draw_card`) and the turn ends there."""
    seat = a["seat"]
    if state.wallet <= 0 and state.size_check:
        raise Refusal("wallet_empty", "the wallet holds no play card to draw")
    sizes = list(state.hand_sizes)
    sizes[seat] += 1
    state = log(state.evolve(hand_sizes=tuple(sizes), wallet=max(0, state.wallet - 1)), "draw", seat=seat)
    if state.cfg.known_hands:
        return state.evolve(drawing=seat)
    return finish_turn(state)


def apply_draw_card(state: State, a: Action) -> State:
    """Chance names the card a known hand drew: one in the wallet (in use, in no hand)."""
    seat, card_id = a["target"], a["card"]
    if seat != state.drawing:
        raise Refusal("wrong_target", f"seat {state.drawing} is drawing")
    if card_id not in state.cfg.usable or any(card_id in hand for hand in state.held):
        raise Refusal("not_in_wallet", f"{card_id!r} is not in the wallet")
    state = state.evolve(held=_with(state.held, seat, state.held[seat] + (card_id,)), drawing=None)
    return finish_turn(log(state, "card_drawn", to=seat, seat=seat, card=card_id))


def apply_put(state: State, a: Action) -> State:
    """Put one play card into the wallet: hidden, or with known hands the one named (`card`)."""
    seat = a["seat"]
    if state.cfg.known_hands:
        return _put_known(state, seat, a.get("card"))
    if play_cards(state, seat) <= 0 and state.size_check:
        raise Refusal("empty_hand", "this hand holds no play card to put into the wallet")
    sizes = list(state.hand_sizes)
    sizes[seat] = max(len(state.extras[seat]), sizes[seat] - 1)
    state = state.evolve(hand_sizes=tuple(sizes), wallet=state.wallet + 1)
    return finish_turn(log(state, "put", seat=seat))


def _put_known(state: State, seat: int, card_id: str | None) -> State:
    """A known hand puts the card it names into the wallet."""
    if play_cards(state, seat) <= 0:
        raise Refusal("empty_hand", "this hand holds no play card to put into the wallet")
    if card_id is None:
        raise Refusal("card_required", "name the card put into the wallet (`card`)")
    hand = state.held[seat]
    if card_id not in hand:
        raise Refusal("card_not_in_hand", f"{card_id!r} is not in seat {seat}'s hand")
    if card_id in state.extras[seat]:
        raise Refusal("extra_id_kept", f"{card_id!r} is a bought extra ID: it stays in the hand")
    sizes = _with(state.hand_sizes, seat, state.hand_sizes[seat] - 1)
    kept = tuple(c for c in hand if c != card_id)
    state = state.evolve(hand_sizes=sizes, held=_with(state.held, seat, kept), wallet=state.wallet + 1)
    state = log(log(state, "put", seat=seat), "card_put", to=seat, seat=seat, card=card_id)
    return finish_turn(state)


def _with(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """`values` with the seat's entry replaced."""
    return values[:seat] + (value,) + values[seat + 1:]


def check_payment(state: State, paid: tuple[str, ...]) -> None:
    """Bills and jewellery in use, distinct, worth >= 300 CU together (overpaying allowed)."""
    if len(set(paid)) != len(paid):
        raise Refusal("duplicate_card", "a card is listed twice")
    total = 0
    for card_id in paid:
        card = state.cfg.card(card_id)
        if card is None:
            raise Refusal("unknown_card", f"{card_id!r} is not in the card catalogue")
        if card_id not in state.cfg.usable:
            raise Refusal("card_not_in_use", f"{card_id!r} is not in use at {state.seats} seats")
        if not card.payable:
            raise Refusal("not_payable", f"{card_id!r} is not a bill or jewellery")
        total += card.value
    if total < BUY_ID_CU:
        raise Refusal("underpaid", f"an extra ID costs {BUY_ID_CU} CU, paid {total} CU")


def apply_buy_id(state: State, a: Action) -> State:
    """Pay >= 300 CU in bills and jewellery into the wallet, take one extra ID (no change given); a known hand
    pays with cards it holds."""
    seat, paid, id_card = a["seat"], a["paid"], a["id_card"]
    check_payment(state, paid)
    known = state.cfg.known_hands
    if known:
        missing = [c for c in paid if c not in state.held[seat]]
        if missing:
            raise Refusal("card_not_in_hand", f"{missing[0]!r} is not in seat {seat}'s hand")
    elif state.size_check and len(paid) > play_cards(state, seat):
        raise Refusal("hand_too_small", f"the hand holds {play_cards(state, seat)} play cards, "
                                              f"{len(paid)} paid")
    card = state.cfg.card(id_card)
    if card is None or not card.extra:
        raise Refusal("not_extra_id", f"{id_card!r} is not an extra ID card")
    if id_card in extras_taken(state):
        raise Refusal("extra_id_taken", f"{id_card!r} was already bought this round")
    sizes, extras = list(state.hand_sizes), list(state.extras)
    sizes[seat] = max(len(extras[seat]), sizes[seat] - len(paid)) + 1
    extras[seat] = extras[seat] + (id_card,)
    state = state.evolve(hand_sizes=tuple(sizes), extras=tuple(extras), wallet=state.wallet + len(paid))
    if known:
        kept = tuple(c for c in state.held[seat] if c not in paid) + (id_card,)
        state = state.evolve(held=_with(state.held, seat, kept))
    state = log(state, "buy_id", seat=seat, paid_count=len(paid))
    state = log(state, "buy_id_cards", to=seat, seat=seat, paid=list(paid), id_card=id_card)
    return finish_turn(state)


def apply_flip(state: State, a: Action) -> State:
    """Flip an hourglass; the 6th flip ends the round at once."""
    state = state.evolve(hourglasses=state.hourglasses + 1)
    state = log(state, "flip", seat=a["seat"], hourglasses=state.hourglasses)
    if state.hourglasses >= HOURGLASSES:
        return round_over(state)
    return finish_turn(state)


def apply_special(state: State, a: Action) -> State:
    """Play a special card: logged for the players to resolve; a replacing one ends the turn."""
    seat, card_id = a["seat"], a["card"]
    special = state.cfg.specials.get(card_id)
    if special is None:
        raise Refusal("unknown_special", f"{card_id!r} is not an enrolled special card")
    wanted = Timing.TURN_START if state.phase is Phase.TURNS else Timing.ROUND_END
    if special.timing is not wanted:
        raise Refusal("wrong_timing", f"{special.name} is played at {special.timing.value}")
    if card_id in state.specials_used:
        raise Refusal("special_used", f"{special.name} was already used this round")
    if state.specials_by_seat[seat] >= SPECIALS_PER_SEAT:
        raise Refusal("too_many_specials", f"a seat holds only {SPECIALS_PER_SEAT} special cards a round")
    counts = list(state.specials_by_seat)
    counts[seat] += 1
    state = state.evolve(specials_used=state.specials_used + (card_id,), specials_by_seat=tuple(counts),
                    size_check=False)
    state = log(state, "special", seat=seat, card=card_id, name=special.name, timing=special.timing.value,
                replaces_action=special.replaces_action)
    if state.phase is Phase.TURNS:
        return finish_turn(state) if special.replaces_action else state
    return round_end_specials(state, state.queue)
