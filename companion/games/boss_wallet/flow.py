"""Phase transitions: turn order, the hourglass, and the fixed order of the round end."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games.boss_wallet import judge
from companion.games.boss_wallet.cards import Kind
from companion.games.boss_wallet.config import HOURGLASSES, ROUNDS, SPECIALS_PER_SEAT, Timing
from companion.games.boss_wallet.state import Phase, RoundResult, State
from companion.games.rules import LogEntry


def log(state: State, code: str, to: int | None = None, **params: Any) -> State:
    """Append one log entry (public, or private to seat `to`); list params are stored as tuples."""
    frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
    entry = LogEntry(code, MappingProxyType(frozen), None if to is None else frozenset({to}))
    return state.evolve(log=state.log.append(entry))


def play_cards(state: State, seat: int) -> int:
    """Play cards in a hand as far as the engine counts (bought extra IDs never leave it)."""
    return state.hand_sizes[seat] - len(state.extras[seat])


def extras_taken(state: State) -> frozenset[str]:
    """Extra IDs already bought this round."""
    return frozenset().union(*state.extras)


def wallet_cards(state: State) -> tuple[str, ...]:
    """After the scan: the play cards in the wallet (in use, in no hand, not drawn by a credit card)."""
    out_of_wallet = {c for hand in state.hands if hand for c in hand}
    out_of_wallet.update(c for drawn in state.credit_drawn for c in drawn)
    return tuple(c for c in state.cfg.in_use if c not in out_of_wallet)


def finish_turn(state: State) -> State:
    """The turn is over: next seat; after a full orbit the start seat's hourglass flips by itself."""
    taken = state.turns_taken + 1
    state = state.evolve(turns_taken=taken, turn=((state.turn or 0) + 1) % state.seats)
    if taken % state.seats == 0:
        state = state.evolve(hourglasses=state.hourglasses + 1)
        state = log(state, "auto_flip", seat=state.start_seat, hourglasses=state.hourglasses)
        if state.hourglasses >= HOURGLASSES:
            return round_over(state)
    return state


def round_over(state: State) -> State:
    """The 6th flip: the round ends at once; round-end specials first, if any can still be played."""
    state = log(state.evolve(turn=None), "round_end", round=state.round)
    return round_end_specials(state, state.clockwise(state.start_seat or 0))


def round_end_specials(state: State, queue: tuple[int, ...]) -> State:
    """Ask the next seat that may still play a round-end special; scan once none can."""
    left = any(s.timing is Timing.ROUND_END and s.id not in state.specials_used
               for s in state.cfg.specials.values())
    queue = tuple(s for s in queue if state.specials_by_seat[s] < SPECIALS_PER_SEAT)
    if left and queue:
        return state.evolve(phase=Phase.ROUND_END_SPECIALS, queue=queue)
    return to_scan(state)


def to_scan(state: State) -> State:
    """Every hand is to be scanned by chance (the table's readers)."""
    return state.evolve(phase=Phase.SCAN, queue=(), hands=(None,) * state.seats)


def after_scan(state: State) -> State:
    """All hands scanned: credit cards clockwise from the start seat, then the officers."""
    return next_credit(state.evolve(queue=judge.credit_users(state)))


def next_credit(state: State) -> State:
    """Ask the next John Smith with a credit card (not when the wallet is empty)."""
    if state.queue and wallet_cards(state):
        return state.evolve(phase=Phase.CREDIT)
    return to_investigate(state.evolve(queue=()))


def to_investigate(state: State) -> State:
    """On-duty officers are announced and investigate in order; without any, verdicts are shown."""
    officers = judge.on_duty(state)
    state = state.evolve(officers=officers)
    if officers:
        state = log(state, "officers", seats=list(officers))
        return state.evolve(phase=Phase.INVESTIGATE, queue=officers)
    return show(state)


def show(state: State) -> State:
    """Hands, wealth and verdicts become public; guilty seats with chips return one."""
    found = judge.verdicts(state)
    result = RoundResult(
        round=state.round, start_seat=state.start_seat or 0, coins=state.coins,
        hands=tuple(h or () for h in state.hands), credit_drawn=state.credit_drawn, verdicts=found,
        investigations=state.investigations, ranking=judge.ranking(state, found))
    state = state.evolve(verdicts=found, queue=(), last_round=result)
    for seat, v in enumerate(found):
        state = log(state, "verdict", seat=seat, hand=list(state.hands[seat] or ()), identity=v.identity,
                    verdict="guilty" if v.guilty else "innocent", reasons=list(v.reasons),
                    wealth_cents=v.wealth_cents)
    for officer, target in state.investigations:
        state = log(state, "investigation", seat=officer, target=target, guilty=found[target].guilty)
    for seat, v in enumerate(found):
        if v.confiscated_cents:
            state = log(state, "confiscation", seat=seat, cents=v.confiscated_cents)
    to_return = tuple(s for s in range(state.seats) if found[s].guilty and state.chips[s])
    if to_return:
        return state.evolve(phase=Phase.RETURN_CHIPS, to_return=to_return)
    return to_award(state)


def to_award(state: State) -> State:
    """Chips are drawn blind for each innocent seat in rank order."""
    queue = judge.award_queue(state, state.verdicts)
    state = log(state, "ranking", seats=list(judge.ranking(state, state.verdicts)))
    return next_award(state.evolve(award_queue=queue))


def next_award(state: State) -> State:
    """Award the next rank place, or end the round when none is left (or the pool is empty)."""
    if state.award_queue and sum(state.pool):
        return state.evolve(phase=Phase.AWARD)
    return end_round(state.evolve(award_queue=()))


def end_round(state: State) -> State:
    """The round is judged; the next one starts with a setup, or the game ends after round 3."""
    if state.last_round is not None:
        state = state.evolve(last_round=replace(state.last_round, finished=True))
    if state.round >= ROUNDS:
        totals = [(sum(c), len(c)) for c in state.chips]
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        state = log(state, "game_over", winners=winners, chip_values=[sum(c) for c in state.chips])
        return state.evolve(phase=Phase.GAME_OVER)
    return state.evolve(phase=Phase.SETUP, round=state.round + 1)


def is_bill(state: State, card_id: str) -> bool:
    """Whether a catalogue card is a bill."""
    return state.cfg.cards[card_id].kind is Kind.BILL
