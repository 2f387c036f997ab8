"""The judgement itself: identity, every reason code at its boundary, ranking ties, the award schedule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.boss_wallet import RULES
from companion.games.boss_wallet.config import award_schedule
from companion.games.boss_wallet.judge import REASONS, judge_hand, ranking
from companion.games.boss_wallet.state import Verdict


def catalogue() -> dict[str, dict]:
    """Bills of 1..300 CU in four currencies, jewellery, every ID, a badge and credit cards."""
    cards: dict[str, dict] = {}
    for cur in ("red", "green", "blue", "yellow"):
        for value in (300, 200, 100, 50, 49, 1):
            cards[f"{cur[0]}{value}"] = {"type": "bill", "value": value, "currency": cur}
    cards.update({"j1": {"type": "jewel", "value": 1}, "j200": {"type": "jewel", "value": 200}})
    for person in ("john_smith", "police", "model", "millionaire", "secret_agent"):
        cards[person] = {"type": "id", "person": person}
        cards[person + "_x"] = {"type": "id", "person": person, "extra": True}
    cards.update({"badge": {"type": "badge"}, "cc1": {"type": "credit"}, "cc2": {"type": "credit"}})
    return cards


CFG = RULES.initial_state(3, {"cards": catalogue()}).cfg
CFG_LIMIT = RULES.initial_state(3, {"cards": catalogue(), "credit_card_limit": 1}).cfg


@pytest.mark.parametrize(("hand", "coin", "identity", "reasons"), [
    # the 500 line is cent-exact and includes the coin
    (["john_smith", "r300", "r200"], 0, "john_smith", []),
    (["john_smith", "r300", "r200"], 1, "john_smith", ["over_500"]),
    (["police", "r300", "r100", "r49", "j1", "j1"][:5], 50, "police", []),
    (["secret_agent", "r300", "r200"], 2, "secret_agent", ["over_500"]),
    (["model", "r300", "j200"], 1, "model", ["over_500"]),
    (["millionaire", "r300", "r200"], 0, "millionaire", []),
    (["millionaire", "r300", "r100", "r50", "r49"], 50, "millionaire", ["under_500"]),
    (["millionaire", "r300", "r100", "r50", "r49", "j1"], 1, "millionaire", []),
    # currencies: two are fine, three are not; jewellery is not a currency; the model is exempt
    (["john_smith", "r1", "g1", "j1"], 5, "john_smith", []),
    (["john_smith", "r1", "g1", "b1"], 5, "john_smith", ["currencies"]),
    (["millionaire", "r300", "g200", "b1"], 5, "millionaire", ["currencies"]),
    (["model", "r1", "g1", "b1", "y1", "j1"], 5, "model", []),
    (["model", "r1"], 5, "model", ["no_jewel"]),
    # IDs
    (["r1", "j1"], 5, None, ["no_id"]),
    (["john_smith", "police_x", "r1"], 5, None, ["two_ids"]),
    (["secret_agent", "police", "millionaire_x", "r1"], 5, "secret_agent", []),
    (["secret_agent", "police", "badge"], 5, "secret_agent", ["badge"]),
    (["police_x", "badge", "r1"], 5, "police", []),
    # badge and credit card ownership
    (["model", "j1", "badge"], 5, "model", ["badge"]),
    (["john_smith", "cc1", "cc2"], 5, "john_smith", []),
    (["police", "cc1"], 5, "police", ["credit_card"]),
    (["r1", "g1", "b1", "badge", "cc1"], 5, None, ["no_id", "badge", "credit_card"]),
    (["john_smith", "r300", "r200", "g1", "b1", "badge"], 5, "john_smith", ["over_500", "currencies", "badge"]),
])
def test_judge_hand(hand: list[str], coin: int, identity: str | None, reasons: list[str]) -> None:
    found = judge_hand(CFG, tuple(hand), coin)
    assert found.identity == identity
    assert list(found.reasons) == reasons
    assert found.guilty == bool(reasons)


def test_guilt_wealth_is_cents_of_bills_and_jewellery_plus_coin() -> None:
    assert judge_hand(CFG, ("john_smith", "r49", "j1", "cc1", "badge"), 7).guilt_cents == 5007


def test_credit_card_limit() -> None:
    assert judge_hand(CFG_LIMIT, ("john_smith", "cc1"), 1).reasons == ()
    assert judge_hand(CFG_LIMIT, ("john_smith", "cc1", "cc2"), 1).reasons == ("credit_card",)


def test_reason_codes_are_the_contract() -> None:
    assert list(REASONS) == ["no_id", "two_ids", "over_500", "under_500", "currencies", "no_jewel", "badge",
                             "credit_card"]
    assert RULES.reasons == REASONS


def test_award_schedule() -> None:
    assert [award_schedule(n) for n in range(2, 8)] == [(1,), (2, 1), (3, 2, 1), (4, 3, 2, 1), (4, 3, 2, 1),
                                                         (4, 3, 2, 1)]


def _verdict(cents: int, guilty: bool = False) -> Verdict:
    return Verdict(None, guilty, ("no_id",) if guilty else (), cents, cents)


@pytest.mark.parametrize(("start", "expected"), [(0, (1, 3, 0, 4)), (2, (3, 1, 4, 0)), (4, (1, 3, 4, 0))])
def test_ranking_ties_go_clockwise_from_the_start_seat(start: int, expected: tuple[int, ...]) -> None:
    state = replace(RULES.initial_state(5), start_seat=start)
    found = (_verdict(100), _verdict(500), _verdict(900, guilty=True), _verdict(500), _verdict(100))
    assert ranking(state, found) == expected


def test_rank_guilty_ranks_everyone() -> None:
    state = replace(RULES.initial_state(5, {"rank_guilty": True}), start_seat=0)
    found = (_verdict(100), _verdict(500), _verdict(900, guilty=True), _verdict(500), _verdict(100))
    assert ranking(state, found) == (2, 1, 3, 0, 4)
