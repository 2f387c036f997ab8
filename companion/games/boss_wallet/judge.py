"""Round-end judgement: identity, verdict reasons (cent-exact), confiscation and the ranking."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

from companion.games.boss_wallet.cards import Kind, Person
from companion.games.boss_wallet.config import LIMIT_CENTS, Config, award_schedule
from companion.games.boss_wallet.state import State, Verdict

REASONS: Mapping[str, str] = MappingProxyType({
    "no_id": "holds no ID card",
    "two_ids": "holds more than one ID card (only the secret agent may)",
    "over_500": "wealth (cards and coin) is over 500 CU",
    "under_500": "a millionaire's wealth (cards and coin) is under 500 CU",
    "currencies": "holds bills of more than two currencies",
    "no_jewel": "a model without jewellery",
    "badge": "holds a police badge without being the police",
    "credit_card": "holds a credit card without being John Smith (or more than the limit)",
})
"""Every verdict reason code, in the order a verdict lists them."""


@dataclass(frozen=True)
class Judgement:
    """What a hand and coin alone say: identity, reasons (empty = innocent) and guilt wealth in cents."""

    identity: str | None
    reasons: tuple[str, ...]
    guilt_cents: int
    badge: bool
    credit_cards: int

    @property
    def guilty(self) -> bool:
        """Guilty iff any rule is broken."""
        return bool(self.reasons)


def judge_hand(cfg: Config, hand: tuple[str, ...], coin: int) -> Judgement:
    """Judge one scanned hand with its coin (credit-drawn bills and confiscations never count here)."""
    cards = [cfg.cards[c] for c in hand]
    persons = [c.person for c in cards if c.kind is Kind.ID]
    cents = sum(c.value for c in cards if c.payable) * 100 + coin
    currencies = len({c.currency for c in cards if c.kind is Kind.BILL})
    jewels = sum(1 for c in cards if c.kind is Kind.JEWEL)
    badge = any(c.kind is Kind.BADGE for c in cards)
    credits = sum(1 for c in cards if c.kind is Kind.CREDIT)
    found: set[str] = set()
    if Person.SECRET_AGENT.value in persons:
        who: str | None = Person.SECRET_AGENT.value  # other IDs have no effect on the agent
    elif len(persons) == 1:
        who = persons[0]
    else:
        who = None
        found.add("no_id" if not persons else "two_ids")
    if who == Person.MILLIONAIRE.value:
        if cents < LIMIT_CENTS:
            found.add("under_500")
    elif who is not None and cents > LIMIT_CENTS:
        found.add("over_500")
    if who is not None and who != Person.MODEL.value and currencies > 2:
        found.add("currencies")
    if who == Person.MODEL.value and not jewels:
        found.add("no_jewel")
    if badge and who != Person.POLICE.value:
        found.add("badge")
    if credits and (who != Person.JOHN_SMITH.value
                    or (cfg.credit_card_limit is not None and credits > cfg.credit_card_limit)):
        found.add("credit_card")
    return Judgement(who, tuple(r for r in REASONS if r in found), cents, badge, credits)


def judgements(state: State) -> tuple[Judgement, ...]:
    """Every scanned hand judged (all hands must be scanned)."""
    return tuple(judge_hand(state.cfg, h or (), c) for h, c in zip(state.hands, state.coins))


def credit_users(state: State) -> tuple[int, ...]:
    """John Smiths holding a credit card, clockwise from the start seat."""
    found = judgements(state)
    return tuple(s for s in state.clockwise(state.start_seat or 0)
                 if found[s].identity == Person.JOHN_SMITH.value and found[s].credit_cards)


def on_duty(state: State) -> tuple[int, ...]:
    """Officers on duty (police ID + badge, innocent themselves), clockwise from the start seat."""
    found = judgements(state)
    return tuple(s for s in state.clockwise(state.start_seat or 0)
                 if found[s].identity == Person.POLICE.value and found[s].badge and not found[s].guilty)


def credit_bill(state: State, seat: int) -> str | None:
    """The bill a credit draw of this seat ended on, if any."""
    drawn = state.credit_drawn[seat]
    if drawn and state.cfg.cards[drawn[-1]].kind is Kind.BILL:
        return drawn[-1]
    return None


def verdicts(state: State) -> tuple[Verdict, ...]:
    """Final verdicts: judgement, credit bill, then confiscations in the officers' order."""
    found = judgements(state)
    out: list[Verdict] = []
    for seat, j in enumerate(found):
        bill = credit_bill(state, seat)
        bonus = state.cfg.cards[bill].value * 100 if bill else 0
        out.append(Verdict(j.identity, j.guilty, j.reasons, j.guilt_cents, j.guilt_cents + bonus,
                           on_duty=seat in state.officers, credit_bill=bill))
    for officer, target in state.investigations:
        if out[target].guilty:
            taken = out[target].wealth_cents
            out[target] = replace(out[target], wealth_cents=0,
                                  confiscated_by=officer if out[target].confiscated_by is None
                                  else out[target].confiscated_by)
            out[officer] = replace(out[officer], wealth_cents=out[officer].wealth_cents + taken,
                                   confiscated_cents=out[officer].confiscated_cents + taken)
    return tuple(out)


def ranking(state: State, found: tuple[Verdict, ...]) -> tuple[int, ...]:
    """Seats in rank order: richest first, ties clockwise from the start seat; guilty only if ranked."""
    start, n = state.start_seat or 0, state.seats
    ranked = [s for s in range(n) if state.cfg.rank_guilty or not found[s].guilty]
    return tuple(sorted(ranked, key=lambda s: (-found[s].wealth_cents, (s - start) % n)))


def award_queue(state: State, found: tuple[Verdict, ...]) -> tuple[tuple[int, int], ...]:
    """(seat, chips due) for every innocent seat in a paying rank place, in rank order."""
    order = ranking(state, found)
    return tuple((seat, due) for seat, due in zip(order, award_schedule(state.seats))
                 if not found[seat].guilty)
