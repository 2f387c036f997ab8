"""Round-end actions: pass, reveal_hand, credit, credit_draw, investigate, return_chip, award."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from companion.games.boss_wallet.config import CHIP_VALUES
from companion.games.boss_wallet.flow import (
    after_scan, is_bill, log, next_award, next_credit, round_end_specials, show, to_award, wallet_cards,
)
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import Refusal

Action = dict[str, Any]


def apply_pass(state: State, a: Action) -> State:
    """Decline: no (more) round-end specials, or keep the credit card unused."""
    state = log(state.evolve(queue=state.queue[1:]), "pass", seat=a["seat"])
    if state.phase is Phase.ROUND_END_SPECIALS:
        return round_end_specials(state, state.queue)
    return next_credit(state)


def check_hand(state: State, target: int, cards: tuple[str, ...]) -> None:
    """A scanned hand: known cards in use, bought extra IDs only, in no other hand, the counted size; with known
    hands exactly the hand the table knows."""
    if state.hands[target] is not None:
        raise Refusal("already_scanned", f"seat {target}'s hand was already scanned")
    if len(set(cards)) != len(cards):
        raise Refusal("duplicate_card", "a card is listed twice")
    if state.cfg.known_hands and sorted(cards) != sorted(state.held[target]):
        raise Refusal("hand_mismatch", f"seat {target}'s hand is not what was scanned")
    mine = state.extras[target]
    for card_id in cards:
        card = state.cfg.card(card_id)
        if card is None:
            raise Refusal("unknown_card", f"{card_id!r} is not in the card catalogue")
        if card.extra:
            if card_id not in mine:
                raise Refusal("extra_id_not_bought", f"seat {target} did not buy {card_id!r}")
        elif card_id not in state.cfg.usable:
            raise Refusal("card_not_in_use", f"{card_id!r} is not in use at {state.seats} seats")
    elsewhere = {c for hand in state.hands if hand for c in hand}
    twice = [c for c in cards if c in elsewhere]
    if twice:
        raise Refusal("card_in_two_hands", f"{twice[0]!r} was already scanned in another hand")
    missing = [c for c in mine if c not in cards]
    if missing:
        raise Refusal("extra_id_missing", f"seat {target} bought {missing[0]!r}: it must be in the hand")
    if state.size_check and len(cards) != state.hand_sizes[target]:
        raise Refusal("hand_size", f"seat {target} holds {state.hand_sizes[target]} cards, "
                                         f"{len(cards)} scanned")


def apply_reveal_hand(state: State, a: Action) -> State:
    """The table's scan of one hand: validated, kept hidden (the public sees only that it was scanned)."""
    target, cards = a["target"], a["cards"]
    check_hand(state, target, cards)
    hands = list(state.hands)
    hands[target] = tuple(cards)
    state = state.evolve(hands=tuple(hands))
    state = log(state, "hand_scanned", target=target)
    state = log(state, "hand_cards", to=target, target=target, cards=list(cards))
    if any(h is None for h in state.hands):
        return state
    return after_scan(state)


def apply_credit(state: State, a: Action) -> State:
    """John Smith uses a credit card: chance draws from the wallet until a bill."""
    return log(state.evolve(phase=Phase.CREDIT_DRAW), "credit", seat=a["seat"])


def apply_credit_draw(state: State, a: Action) -> State:
    """Cards drawn for the credit card: from the wallet, stopping at the first bill (or the wallet's end)."""
    seat, cards = state.queue[0], a["cards"]
    if a.get("target") is not None and a["target"] != seat:
        raise Refusal("wrong_target", f"the credit card being used is seat {seat}'s")
    wallet = wallet_cards(state)
    inside = set(wallet)
    if len(set(cards)) != len(cards):
        raise Refusal("duplicate_card", "a card is listed twice")
    for card_id in cards:
        if card_id not in inside:
            raise Refusal("not_in_wallet", f"{card_id!r} is not in the wallet")
    bills = [is_bill(state, c) for c in cards]
    ends_on_bill = bool(cards) and bills[-1] and not any(bills[:-1])
    drew_all_without_bill = not any(bills) and set(cards) == inside
    if not (ends_on_bill or drew_all_without_bill):
        raise Refusal("credit_draw_order", "a credit draw stops at the first bill (or when the wallet "
                                                 "runs out)")
    drawn = list(state.credit_drawn)
    drawn[seat] = tuple(cards)
    state = state.evolve(credit_drawn=tuple(drawn), queue=state.queue[1:])
    state = log(state, "credit_draw", seat=seat, count=len(cards))
    state = log(state, "credit_cards", to=seat, seat=seat, cards=list(cards))
    return next_credit(state)


def apply_investigate(state: State, a: Action) -> State:
    """An on-duty officer names a seat; the result stays hidden until the verdicts are shown."""
    seat, target = a["seat"], a["target"]
    if target == seat:
        raise Refusal("investigate_self", "an officer investigates another seat")
    state = state.evolve(investigations=state.investigations + ((seat, target),), queue=state.queue[1:])
    state = log(state, "investigate", seat=seat, target=target)
    return state if state.queue else show(state)


def apply_return_chip(state: State, a: Action) -> State:
    """A guilty seat returns one chip of its choice to the pool (the value stays private)."""
    seat, chip = a["seat"], a["chip"]
    held = list(state.chips[seat])
    if chip not in held:
        raise Refusal("no_such_chip", f"seat {seat} holds no chip worth {chip}")
    held.remove(chip)
    chips, pool = list(state.chips), list(state.pool)
    chips[seat] = tuple(held)
    pool[CHIP_VALUES.index(chip)] += 1
    result = state.last_round
    if result is not None:
        result = replace(result, returned=result.returned + (seat,))
    state = state.evolve(chips=tuple(chips), pool=tuple(pool),  # type: ignore[arg-type]
                         to_return=tuple(s for s in state.to_return if s != seat), last_round=result)
    state = log(state, "return_chip", seat=seat)
    state = log(state, "return_chip_value", to=seat, seat=seat, chip=chip)
    return state if state.to_return else to_award(state)


def chips_due(state: State) -> int:
    """Chips the current rank place draws: its schedule, or what is left in the pool."""
    return min(state.award_queue[0][1], sum(state.pool))


def apply_award(state: State, a: Action) -> State:
    """Chips drawn blind from the pool for the next innocent seat in rank order (values private)."""
    seat, due = state.award_queue[0][0], chips_due(state)
    if a["target"] != seat:
        raise Refusal("wrong_target", f"the next award goes to seat {seat}")
    values = a["chips"]
    if len(values) != due:
        raise Refusal("wrong_chip_count", f"seat {seat} draws {due} chips, got {len(values)}")
    want = Counter(values)
    if any(want[v] > state.pool[CHIP_VALUES.index(v)] for v in want):
        raise Refusal("chip_not_in_pool", "the pool does not hold those chips")
    chips = list(state.chips)
    chips[seat] = tuple(sorted(chips[seat] + tuple(values)))
    pool = tuple(n - want[v] for v, n in zip(CHIP_VALUES, state.pool))
    result = state.last_round
    if result is not None:
        result = replace(result, awards=result.awards + ((seat, due),))
    state = state.evolve(chips=tuple(chips), pool=pool, award_queue=state.award_queue[1:],  # type: ignore[arg-type]
                         last_round=result)
    state = log(state, "award", seat=seat, count=due)
    state = log(state, "award_chips", to=seat, seat=seat, chips=list(values))
    return next_award(state)
