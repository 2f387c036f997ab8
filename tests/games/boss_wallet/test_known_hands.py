"""Known hands (digital components): chance deals five cards a seat, names each card drawn, and the scan is the
known hand; `put` names its card, `buy_id` pays from the hand; the public view is what physical cards show."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.games import CHANCE, Refusal
from companion.games.boss_wallet import BINDING, RULES
from companion.games.boss_wallet.config import BUY_ID_CU, HAND
from companion.games.boss_wallet.judge import judge_hand
from companion.games.contract import Components
from companion.games.replay import replay_actions
from tests.games.boss_wallet.drive import act
from tests.games.harness import check_playout

KNOWN = {"known_hands": True}


def code_of(state: Any, action: dict[str, Any]) -> str:
    """The refusal code of an action."""
    with pytest.raises(Refusal) as err:
        RULES.apply(state, action)
    return err.value.code


def chance(state: Any, rng: random.Random, actions: list[dict[str, Any]] | None = None) -> Any:
    """Chance's actions drawn with `rng` until a seat is to act (recorded when asked)."""
    while RULES.to_act(state) == frozenset({CHANCE}):
        action = RULES.sample_chance(state, rng)
        state = RULES.apply(state, action)
        if actions is not None:
            actions.append(action)
    return state


def dealt(seats: int = 4, seed: int = 1) -> Any:
    """A known-hands game right after the deal."""
    return chance(RULES.initial_state(seats, KNOWN), random.Random(seed))


def hand(state: Any, seat: int) -> list[str]:
    """The seat's own view of its hand."""
    return RULES.view(state, seat)["hand"]


def test_the_deal_gives_every_seat_five_known_cards_and_the_public_view_none() -> None:
    state = dealt(5)
    cfg = state.cfg
    hands = [hand(state, s) for s in range(5)]
    assert all(len(h) == HAND for h in hands)
    every = [c for h in hands for c in h]
    assert len(set(every)) == len(every) and set(every) <= cfg.usable
    for s in range(5):
        view = RULES.view(state, s)
        assert view["hand_complete"] is True
        assert set(view["hand"]) <= set(view["card_info"]), "the phone can name every card"
        assert [e["params"]["cards"] for e in view["log"] if e["code"] == "hand_dealt"] == [view["hand"]]
    public = RULES.view(state)
    assert public["wallet"] == len(cfg.usable) - 5 * HAND
    assert [p["hand_size"] for p in public["players"]] == [HAND] * 5
    text = json.dumps(public)
    assert not any(f'"{c}"' in text for c in every), "no dealt card in the public view"
    assert all("hand" not in p for p in public["players"])


def test_the_deal_is_a_journaled_chance_action_drawn_from_the_seed() -> None:
    first: list[dict[str, Any]] = []
    again: list[dict[str, Any]] = []
    a = chance(RULES.initial_state(4, KNOWN), random.Random(9), first)
    b = chance(RULES.initial_state(4, KNOWN), random.Random(9), again)
    assert first == again and first[0]["type"] == "setup" and len(first[0]["hands"]) == 4
    assert a == b
    assert replay_actions(RULES, 4, KNOWN, first) == a
    other = chance(RULES.initial_state(4, KNOWN), random.Random(10))
    assert [hand(other, s) for s in range(4)] != [hand(a, s) for s in range(4)]


def test_a_draw_asks_chance_for_the_card_which_joins_the_hand() -> None:
    state = dealt()
    seat = state.turn
    before = hand(state, seat)
    wallet = RULES.view(state)["wallet"]
    state = act(state, "draw", seat)
    assert RULES.to_act(state) == frozenset({CHANCE}), "chance names the card"
    assert RULES.legal_actions(state, seat) == []
    assert code_of(state, {"type": "flip", "seat": seat}) == "not_your_turn"
    drawn = RULES.sample_chance(state, random.Random(3))
    assert drawn["type"] == "draw_card" and drawn["target"] == seat
    in_hands = {c for s in range(4) for c in hand(state, s)}
    assert drawn["card"] in state.cfg.usable and drawn["card"] not in in_hands
    assert code_of(state, {**drawn, "target": (seat + 1) % 4}) == "wrong_target"
    assert code_of(state, {**drawn, "card": hand(state, (seat + 1) % 4)[0]}) == "not_in_wallet"
    assert code_of(state, {**drawn, "card": before[0]}) == "not_in_wallet"
    state = RULES.apply(state, drawn)
    assert hand(state, seat) == [*before, drawn["card"]]
    assert RULES.view(state)["wallet"] == wallet - 1
    assert RULES.view(state)["players"][seat]["hand_size"] == HAND + 1
    assert state.turn == (seat + 1) % 4, "the card drawn ends the turn"
    mine = RULES.view(state, seat)["log"]
    assert {"code": "card_drawn", "params": {"seat": seat, "card": drawn["card"]}} in mine
    assert not any(e["code"] == "card_drawn" for e in RULES.view(state)["log"])


def test_a_put_names_a_card_of_the_hand_and_removes_it() -> None:
    state = dealt()
    seat = state.turn
    cards = hand(state, seat)
    puts = [a for a in RULES.legal_actions(state, seat) if a["type"] == "put"]
    assert puts and all(a["card"] in cards for a in puts)
    other = hand(state, (seat + 1) % 4)[0]
    assert code_of(state, {"type": "put", "seat": seat}) == "card_required"
    assert code_of(state, {"type": "put", "seat": seat, "card": other}) == "card_not_in_hand"
    assert code_of(state, {"type": "put", "seat": seat, "card": "no_such_card"}) == "card_not_in_hand"
    after = RULES.apply(state, puts[-1])
    assert hand(after, seat) == [c for c in cards if c != puts[-1]["card"]]
    assert RULES.view(after)["wallet"] == RULES.view(state)["wallet"] + 1
    assert RULES.view(after)["players"][seat]["hand_size"] == HAND - 1
    assert RULES.view(after, seat)["card_info"][puts[-1]["card"]], "the card put back is named on the phone"
    assert len(puts) > 1
    other_put = RULES.apply(state, puts[0])
    assert RULES.view(other_put) == RULES.view(after), "which card went back is the seat's secret"
    assert RULES.view(other_put, seat) != RULES.view(after, seat)


def test_puts_list_one_card_of_each_kind() -> None:
    cards = {f"r{i}": {"type": "bill", "value": 50, "currency": "red"} for i in range(12)}
    state = chance(RULES.initial_state(2, {**KNOWN, "cards": cards}), random.Random(2))
    seat = state.turn
    puts = [a for a in RULES.legal_actions(state, seat) if a["type"] == "put"]
    assert puts == [{"type": "put", "seat": seat, "card": hand(state, seat)[0]}], "five alike bills: one choice"


def rich(seed: int = 4) -> tuple[Any, int]:
    """A dealt game whose seat to act can buy an extra ID from its hand."""
    for s in range(seed, seed + 200):
        state = dealt(4, s)
        seat = state.turn
        if any(a["type"] == "buy_id" for a in RULES.legal_actions(state, seat)):
            return state, seat
    raise AssertionError("no deal lets the first seat buy an extra ID")


def test_buy_id_offers_payments_from_the_hand_and_pays_with_them() -> None:
    state, seat = rich()
    cards = hand(state, seat)
    offers = [a for a in RULES.legal_actions(state, seat) if a["type"] == "buy_id"]
    catalogue = state.cfg.cards
    for a in offers:
        assert set(a["paid"]) <= set(cards)
        values = [catalogue[c].value for c in a["paid"]]
        assert sum(values) >= BUY_ID_CU and sum(values) - min(values) < BUY_ID_CU, "no card could be left out"
    paying = offers[0]
    after = RULES.apply(state, paying)
    assert hand(after, seat) == [c for c in cards if c not in paying["paid"]] + [paying["id_card"]]
    assert RULES.view(after)["players"][seat]["hand_size"] == HAND - len(paying["paid"]) + 1
    # the extra ID stays: it cannot be put back
    after_turns = after
    while after_turns.turn != seat:
        nxt = after_turns.turn
        after_turns = chance(act(after_turns, "flip", nxt), random.Random(1))
    assert code_of(after_turns, {"type": "put", "seat": seat, "card": paying["id_card"]}) == "extra_id_kept"
    assert all(a.get("card") != paying["id_card"] for a in RULES.legal_actions(after_turns, seat))


def test_buy_id_with_a_card_not_in_the_hand_is_refused() -> None:
    state, seat = rich()
    offer = next(a for a in RULES.legal_actions(state, seat) if a["type"] == "buy_id")
    theirs = [c for s in range(4) if s != seat for c in hand(state, s) if state.cfg.cards[c].payable]
    stolen = {**offer, "paid": [*offer["paid"][:-1], theirs[0]]}
    if sum(state.cfg.cards[c].value for c in stolen["paid"]) >= BUY_ID_CU:
        assert code_of(state, stolen) == "card_not_in_hand"
    big = sorted(state.cfg.usable - set(hand(state, seat)), key=lambda c: -state.cfg.cards[c].value)[:2]
    assert code_of(state, {**offer, "paid": big}) == "card_not_in_hand"


def test_round_end_scans_the_known_hands_and_judges_them() -> None:
    state = dealt(3, 6)
    rng = random.Random(6)
    while RULES.phase(state) == "turns":
        acting = RULES.to_act(state)
        if acting == frozenset({CHANCE}):
            state = RULES.apply(state, RULES.sample_chance(state, rng))  # a card drawn
        else:
            (seat,) = acting
            state = RULES.apply(state, rng.choice(RULES.legal_actions(state, seat)))
    assert RULES.phase(state) == "scan"
    known = [hand(state, s) for s in range(3)]
    target = RULES.sample_chance(state, rng)
    assert target["cards"] == known[target["target"]], "the scan is the known hand: nothing dealt blind"
    elsewhere = next(iter(state.cfg.usable - {c for h in known for c in h}))
    assert code_of(state, {**target, "cards": [*known[target["target"]][1:], elsewhere]}) == "hand_mismatch"
    assert code_of(state, {**target, "cards": list(reversed(target["cards"]))[:-1]}) == "hand_mismatch"
    state = RULES.apply(state, {**target, "cards": list(reversed(target["cards"]))})  # in any order
    while state.last_round is None or state.last_round.round != 1:
        acting = sorted(RULES.to_act(state) - {CHANCE})
        action = RULES.legal_actions(state, acting[0])[0] if acting else RULES.sample_chance(state, rng)
        state = RULES.apply(state, action)
    result = RULES.view(state)["last_round"]
    for s, p in enumerate(result["players"]):
        assert sorted(p["hand"]) == sorted(known[s])
        judged = judge_hand(state.cfg, tuple(known[s]), p["coin"])
        assert p["verdict"] == ("guilty" if judged.guilty else "innocent") and p["reasons"] == list(judged.reasons)


def test_deals_are_checked() -> None:
    start = RULES.initial_state(2, KNOWN)
    cards = sorted(start.cfg.usable)
    good = {"type": "setup", "seat": CHANCE, "coins": [1, 2], "hands": [cards[:5], cards[5:10]]}
    assert RULES.apply(start, good).held == (tuple(cards[:5]), tuple(cards[5:10]))
    assert code_of(start, {**good, "hands": None}) == "bad_deal"
    assert code_of(start, {"type": "setup", "seat": CHANCE, "coins": [1, 2]}) == "bad_deal"
    assert code_of(start, {**good, "hands": [cards[:4], cards[5:10]]}) == "bad_deal"
    assert code_of(start, {**good, "hands": [cards[:5], cards[4:9]]}) == "bad_deal", "a card in two hands"
    assert code_of(start, {**good, "hands": [cards[:5], [*cards[5:9], "extra_police"]]}) == "bad_deal"
    blind = RULES.initial_state(2)
    assert code_of(blind, good) == "bad_deal", "a blind deal names no cards"
    assert RULES.apply(blind, {**good, "hands": None}).held == ()


def test_physical_play_is_unchanged_a_put_there_names_no_card() -> None:
    state = RULES.apply(RULES.initial_state(3), {"type": "setup", "seat": CHANCE, "coins": [1, 2, 5]})
    assert RULES.legal_actions(state, 0)[:2] == [{"type": "draw", "seat": 0}, {"type": "put", "seat": 0}]
    state = act(state, "draw", 0)
    assert RULES.to_act(state) == frozenset({1}), "a blind draw needs no chance"
    assert RULES.view(state, 0)["hand"] == [] and RULES.view(state, 0)["hand_complete"] is False
    state = act(state, "put", 1, card="anything")  # the engine cannot check it: ignored
    assert RULES.view(state)["players"][1]["hand_size"] == HAND - 1


def test_special_cards_are_refused_with_known_hands() -> None:
    specials = {"peek": {"name": "Peek", "timing": "turn_start"}}
    RULES.initial_state(3, {"specials": specials})
    with pytest.raises(ValueError, match="specials"):
        RULES.initial_state(3, {**KNOWN, "specials": specials})
    with pytest.raises(ValueError, match="known_hands"):
        RULES.initial_state(3, {"known_hands": 1})


def test_the_table_sets_known_hands_from_its_components() -> None:
    assert BINDING.table_options({}, (), Components.DIGITAL) == KNOWN
    assert BINDING.table_options({"rank_guilty": True}, (), Components.DIGITAL) == {**KNOWN, "rank_guilty": True}
    assert BINDING.table_options(KNOWN, (), Components.DIGITAL) == KNOWN, "the same again (a record's options)"
    with pytest.raises(ValueError, match="known_hands"):
        BINDING.table_options({"known_hands": False}, (), Components.DIGITAL)
    with pytest.raises(ValueError, match="known_hands"):
        BINDING.table_options(KNOWN, (), Components.PHYSICAL)
    assert "known_hands" in BINDING.mode_options


@pytest.mark.parametrize("seats", [2, 7])
def test_known_hand_playouts_replay_identically(seats: int) -> None:
    for seed in range(3):
        actions = check_playout(RULES, seats, seed, KNOWN)
        assert actions == check_playout(RULES, seats, seed, KNOWN, try_every_legal=False), "the seed decides"
        assert any(a["type"] == "draw_card" for a in actions) and actions[0].get("hands")
