"""Turn and round flow: counted hands and wallet, specials, the chip pool, the winner, option playouts."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games import CHANCE, Refusal
from companion.games.boss_wallet import RULES
from tests.games.boss_wallet.drive import act, flip_to_round_end, scan, settle
from tests.games.harness import check_playout

SPECIALS = {"peek": {"name": "Peek", "timing": "turn_start", "replaces_action": False},
            "swap": {"name": "Swap", "timing": "turn_start", "replaces_action": True},
            "alibi": {"name": "Alibi", "timing": "round_end", "replaces_action": False},
            "bribe": {"name": "Bribe", "timing": "round_end", "replaces_action": False},
            "tip": {"name": "Tip", "timing": "turn_start", "replaces_action": False}}


def codes_of(state: object, action: dict) -> str:
    """The refusal code of an action."""
    with pytest.raises(Refusal) as err:
        RULES.apply(state, action)
    return err.value.code


def exact_deck() -> dict[str, dict]:
    """Exactly ten play cards (two seats x five): the wallet starts empty."""
    cards = {f"r{i}": {"type": "bill", "value": 10, "currency": "red"} for i in range(6)}
    cards.update({"js": {"type": "id", "person": "john_smith"}, "po": {"type": "id", "person": "police"},
                  "cc": {"type": "credit"}, "j": {"type": "jewel", "value": 5}})
    return cards


def test_empty_hand_and_empty_wallet_are_refused_and_not_listed() -> None:
    state = act(RULES.initial_state(2, {"cards": exact_deck()}), "setup", CHANCE, coins=[1, 2])
    assert RULES.view(state)["wallet"] == 0
    assert codes_of(state, {"type": "draw", "seat": 0}) == "wallet_empty"
    assert {"type": "draw", "seat": 0} not in RULES.legal_actions(state, 0)
    for _ in range(5):
        state = act(state, "put", 0)
        state = act(state, "draw", 1) if RULES.phase(state) == "turns" else state
    # seat 0 put 5 cards, seat 1 drew them; the hourglass moved once per orbit
    assert RULES.view(state)["players"][0]["hand_size"] == 0
    assert RULES.view(state)["hourglasses"] == 5
    assert codes_of(state, {"type": "put", "seat": 0}) == "empty_hand"
    assert [a["type"] for a in RULES.legal_actions(state, 0)] == ["flip"]


def test_credit_card_is_not_offered_when_the_wallet_is_empty() -> None:
    state = act(RULES.initial_state(2, {"cards": exact_deck()}), "setup", CHANCE, coins=[1, 2])
    state = flip_to_round_end(state)
    state = scan(state, {0: ["js", "cc", "r0", "r1", "j"], 1: ["po", "r2", "r3", "r4", "r5"]})
    assert RULES.phase(state) == "award"
    assert [p["verdict"] for p in RULES.view(state)["players"]] == ["innocent", "innocent"]


def test_specials_limit_per_seat_and_round() -> None:
    state = act(RULES.initial_state(3, {"specials": SPECIALS}), "setup", CHANCE, coins=[1, 2, 5])
    state = act(state, "special", 0, card="peek")
    state = act(state, "special", 0, card="tip")
    assert codes_of(state, {"type": "special", "seat": 0, "card": "swap"}) == "too_many_specials"
    assert [a["type"] for a in RULES.legal_actions(state, 0)].count("special") == 0
    state = act(state, "draw", 0)
    state = act(state, "special", 1, card="swap")
    assert RULES.view(state)["turn"] == 2
    # a new round forgets the used specials
    state = flip_to_round_end(state)
    assert RULES.phase(state) == "round_end_specials"
    assert RULES.view(state)["asked"] == [1, 2]  # seat 0 already played its two cards


def test_award_must_come_from_the_pool() -> None:
    state = act(RULES.initial_state(2, {"chips": {"1": 30, "2": 7, "3": 0}}), "setup", CHANCE, coins=[1, 2])
    state = flip_to_round_end(state)
    state = scan(state, {0: ["john_smith1", "red250a", "red100b", "green50a", "jewel80"],
                         1: ["police1", "blue100b", "blue50a", "jewel30", "yellow10a"]})
    assert RULES.phase(state) == "award"
    assert codes_of(state, {"type": "award", "seat": CHANCE, "target": 0, "chips": [3]}) == "chip_not_in_pool"
    for seed in range(20):
        sampled = RULES.sample_chance(state, random.Random(seed))
        assert sampled["target"] == 0 and sampled["chips"] in ([1], [2])


def test_shared_win_on_equal_value_and_count() -> None:
    state = RULES.initial_state(2)
    hands = {0: ["john_smith1", "red250a", "red100b", "green50a", "jewel80"],
             1: ["police1", "blue100b", "blue50a", "jewel30", "yellow10a"]}
    for coins, award in (([1, 2], [2]), ([1, 2], [1]), ([1, 2], [3])):
        state = act(state, "setup", CHANCE, coins=coins)
        state = scan(flip_to_round_end(state), hands)
        state = settle(state, [award])
    # seat 0 drew 2, 1, 3 -> [1, 1, 2, 3] = 7 in 4 chips; seat 1 kept [1]
    assert RULES.outcome(state).winners == frozenset({0})
    # now a tie: equal value and count share the win
    more_chips = replace(state, chips=((1, 2), (3,)))  # value 3 each: more chips wins
    assert RULES.outcome(more_chips).winners == frozenset({0})
    tie = replace(state, chips=((1, 2), (1, 2)))
    assert RULES.outcome(tie).winners == frozenset({0, 1})
    assert RULES.outcome(tie).reason == "chips"
    assert RULES.to_act(state) == frozenset()


OPTION_SETS = [
    {"specials": SPECIALS},
    {"balanced_deck": True, "rank_guilty": True, "credit_card_limit": 1},
    {"chips": {"1": 30, "2": 5, "3": 2}, "specials": SPECIALS, "balanced_deck": True},
]


@pytest.mark.parametrize("seats", range(2, 8))
def test_playouts_with_options(seats: int) -> None:
    """The harness over house rules and specials (the registry playouts cover the defaults)."""
    for seed in range(3):
        options = OPTION_SETS[(seats + seed) % len(OPTION_SETS)]
        check_playout(RULES, seats, 1000 + seed, options, try_every_legal=seed == 0)


def test_every_code_raised_is_documented() -> None:
    source = "\n".join(p.read_text() for p in Path(RULES_DIR).glob("*.py"))
    raised = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', source))
    assert raised - {"not_your_turn"} <= set(RULES.own_codes)
    assert set(RULES.own_codes) <= raised
    assert set(RULES.phases) == {"setup", "turns", "round_end_specials", "scan", "credit", "credit_draw",
                                 "investigate", "return_chips", "award", "game_over"}


RULES_DIR = Path(__file__).resolve().parents[3] / "companion" / "games" / "boss_wallet"


@pytest.mark.soak
@pytest.mark.parametrize("seats", range(2, 8))
def test_soak_playouts_with_options(seats: int) -> None:
    """`make soak`: many more seeds over every option set."""
    for seed in range(300):
        check_playout(RULES, seats, 5000 + seed, OPTION_SETS[seed % len(OPTION_SETS)], try_every_legal=seed % 10 == 0)
