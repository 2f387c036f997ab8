"""Hidden facts never reach the public view: hands before the verdicts, bought IDs, chip values."""

from __future__ import annotations

import json
from typing import Any

from companion.games import CHANCE
from companion.games.boss_wallet import RULES
from tests.games.boss_wallet.drive import flip_to_round_end, scan, settle
from tests.games.harness import assert_same_public_views

PRIVATE_LOG = {"buy_id_cards", "hand_cards", "credit_cards", "return_chip_value", "award_chips"}


def extra_ids(state: Any) -> set[str]:
    """The extra ID cards of a game's deck and the representative payment for one: a seat's choices name
    them, so its view can draw them in words."""
    return {*state.cfg.extra_ids, *(state.cfg.payment or ())}


def record(seats: int, options: Any, steps: list[dict]) -> tuple[Any, list[dict]]:
    """Apply scripted actions; return the state and the actions."""
    state = RULES.initial_state(seats, options)
    for action in steps:
        state = RULES.apply(state, action)
    return state, steps


def round_one(buy: tuple[list[str], str], hands: dict[int, list[str]]) -> list[dict]:
    """3 seats, sample deck: seat 0 buys an extra ID, everyone flips, then the hands are scanned."""
    actions: list[dict] = [{"type": "setup", "seat": CHANCE, "coins": [1, 2, 5]},
                           {"type": "buy_id", "seat": 0, "paid": buy[0], "id_card": buy[1]}]
    state, _ = record(3, None, actions)
    state = flip_to_round_end(state, actions)
    scan(state, hands, actions)
    return actions


HANDS_A = {0: ["extra_police", "red10a", "badge1", "green10a"], 1: ["john_smith1", "red250a", "red200b", "green50a",
                                                                     "jewel80"]}
HANDS_B = {0: ["extra_model", "jewel30", "blue20a", "blue50a"], 1: ["millionaire1", "yellow250a", "yellow200b",
                                                                    "yellow100a", "jewel120"]}


def test_hidden_hands_and_bought_ids_do_not_change_the_public_view() -> None:
    a = round_one((["red250a", "red100b"], "extra_police"), HANDS_A)
    b = round_one((["blue250a", "green250a"], "extra_model"), HANDS_B)
    assert len(a) == len(b)
    assert_same_public_views(RULES, 3, None, a, b)
    state_a, _ = record(3, None, a)
    state_b, _ = record(3, None, b)
    # the hidden facts are real: the seats' own views differ
    assert RULES.view(state_a, 0)["hand"] != RULES.view(state_b, 0)["hand"]
    public = RULES.view(state_a)
    assert all("hand" not in p and "verdict" not in p for p in public["players"])
    assert [p["scanned"] for p in public["players"]] == [True, True, False]
    assert not {e["code"] for e in public["log"]} & PRIVATE_LOG
    assert public["card_info"] == {}
    # a seat sees its own scanned hand and private log lines, never another seat's
    seat1 = RULES.view(state_a, 1)
    assert seat1["hand"] == HANDS_A[1] and seat1["hand_complete"]
    assert set(seat1["card_info"]) == set(HANDS_A[1]) | extra_ids(state_a)
    assert seat1["card_info"]["red250a"] == {"type": "bill", "value": 250, "currency": "red"}
    assert all("hand" not in p for p in seat1["players"])
    assert [e["params"]["target"] for e in seat1["log"] if e["code"] == "hand_cards"] == [1]
    assert "buy_id_cards" not in {e["code"] for e in seat1["log"]}
    seat0 = RULES.view(state_a, 0)
    assert [e["params"]["id_card"] for e in seat0["log"] if e["code"] == "buy_id_cards"] == ["extra_police"]


def test_officer_investigates_without_seeing_other_hands() -> None:
    actions = round_one((["red250a", "red100b"], "extra_police"), HANDS_A)
    state, _ = record(3, None, actions)
    state = scan(state, {2: ["model1", "jewel30", "blue10a", "blue20a", "green20a"]})
    assert RULES.phase(state) == "investigate" and RULES.to_act(state) == frozenset({0})
    for viewer in (None, 0, 1, 2):
        view = RULES.view(state, viewer)
        assert all("hand" not in p and "wealth_cents" not in p for p in view["players"])
        assert view["officers"] == [0]
    assert RULES.view(state, 0)["hand"] == HANDS_A[0]
    assert RULES.view(state)["card_info"] == {}
    after = RULES.apply(state, {"type": "investigate", "seat": 0, "target": 1})
    assert RULES.view(after)["card_info"]["badge1"] == {"type": "badge"}
    assert [p["hand"] for p in RULES.view(after)["players"]] == [HANDS_A[0], HANDS_A[1],
                                                                ["model1", "jewel30", "blue10a", "blue20a", "green20a"]]


def chip_game(first_award: list[int], returned: int, last_award: list[int]) -> list[dict]:
    """2 seats, three rounds: seat 0 wins round 1, is guilty in round 2, seat 1 wins round 3."""
    actions: list[dict] = []
    state = RULES.initial_state(2)
    rounds = [
        ([1, 2], {0: ["john_smith1", "red250a", "red100b", "green50a", "jewel80"],
                  1: ["police1", "blue100b", "blue50a", "jewel30", "yellow10a"]}, [first_award], {}),
        ([2, 1], {0: ["model1", "red10a", "green10a", "blue10a", "yellow10a"],
                  1: ["millionaire1", "red250a", "red200b", "green50a", "green20a"]}, [[2]], {0: returned}),
        ([5, 7], {0: ["john_smith1", "red10a", "green10a", "jewel30", "jewel80"],
                  1: ["millionaire1", "red250a", "red200b", "green50a", "green20a"]}, [last_award], {}),
    ]
    for coins, hands, awards, returns in rounds:
        setup = {"type": "setup", "seat": CHANCE, "coins": coins}
        state = RULES.apply(state, setup)
        actions.append(setup)
        state = flip_to_round_end(state, actions)
        state = scan(state, hands, actions)
        state = settle(state, awards, returns, actions)
    assert RULES.outcome(state) is not None
    return actions


def test_chip_values_stay_private_until_the_game_ends() -> None:
    a = chip_game([3], 1, [1])
    b = chip_game([1], 1, [3])
    # everything but the final award (after which the game is over and everything may show)
    assert_same_public_views(RULES, 2, None, a[:-1], b[:-1])
    state_a, _ = record(2, None, a[:-1])
    state_b, _ = record(2, None, b[:-1])
    assert RULES.view(state_a, 0)["chip_values"] == [3]
    assert RULES.view(state_b, 0)["chip_values"] == [1]
    assert RULES.view(state_a)["players"][0] == RULES.view(state_b)["players"][0]
    assert "chip_values" not in RULES.view(state_a)["players"][0]
    assert not {e["code"] for e in RULES.view(state_a)["log"]} & PRIVATE_LOG
    final_a, _ = record(2, None, a)
    final_b, _ = record(2, None, b)
    # once over, everything may show: seat 0 holds [3] vs [1]; seat 1 [1, 1, 2] (4) vs [1, 2, 3] (6)
    assert RULES.view(final_a)["players"][0]["chip_values"] == [3]
    assert RULES.view(final_a)["players"][1]["chip_values"] == [1, 1, 2]
    assert RULES.view(final_b)["players"][1]["chip_values"] == [1, 2, 3]
    assert RULES.outcome(final_a).winners == RULES.outcome(final_b).winners == frozenset({1})


def test_returned_chip_value_is_private() -> None:
    a = chip_game([3], 3, [1])
    b = chip_game([3], 1, [1])
    assert_same_public_views(RULES, 2, None, a[:-1], b[:-1])
    state_a, _ = record(2, None, a[:-1])
    state_b, _ = record(2, None, b[:-1])
    assert RULES.view(state_a, 0)["chip_values"] == [1]
    assert RULES.view(state_b, 0)["chip_values"] == [3]
    assert RULES.view(state_a)["chip_pool"] == RULES.view(state_b)["chip_pool"]


ROUND_ONE = {0: ["john_smith1", "red250a", "red100b", "green50a", "jewel80"],
             1: ["police1", "blue100b", "blue50a", "jewel30", "yellow10a"]}


def second_round(award: list[int], buy: tuple[list[str], str], hand: list[str]) -> list[dict]:
    """2 seats: round 1 judged and awarded, round 2 dealt, seat 1 buys an ID, flips, its hand is scanned."""
    actions: list[dict] = [{"type": "setup", "seat": CHANCE, "coins": [1, 2]}]
    state, _ = record(2, None, actions)
    state = flip_to_round_end(state, actions)
    state = scan(state, ROUND_ONE, actions)
    state = settle(state, [award], {}, actions)
    setup = {"type": "setup", "seat": CHANCE, "coins": [2, 1]}
    state = RULES.apply(state, setup)
    actions.append(setup)
    action = {"type": "buy_id", "seat": 1, "paid": buy[0], "id_card": buy[1]}
    state = RULES.apply(state, action)
    actions.append(action)
    state = flip_to_round_end(state, actions)
    scan(state, {1: hand}, actions)
    return actions


def test_last_round_shows_the_judged_round_never_the_running_one_nor_chip_values() -> None:
    a = second_round([3], (["red250a", "red200b"], "extra_police"), ["extra_police", "millionaire1", "green50a",
                                                                      "jewel30"])
    b = second_round([1], (["yellow250a", "blue100b"], "extra_model"), ["extra_model", "yellow200b", "yellow100b",
                                                                         "jewel120"])
    # round 2 runs with other hands, another bought ID and round 1's chip of another value: the same public views
    # up to (not including) the scan that shows round 2's verdicts
    assert_same_public_views(RULES, 2, None, a, b)
    state_a, _ = record(2, None, a)
    state_b, _ = record(2, None, b)
    assert RULES.view(state_a, 1)["hand"] != RULES.view(state_b, 1)["hand"]
    assert RULES.view(state_a, 0)["chip_values"] == [1, 3] and RULES.view(state_b, 0)["chip_values"] == [1, 1]
    public = RULES.view(state_a)
    assert public["round"] == 2 and public["phase"] == "scan"
    assert all("hand" not in p and "verdict" not in p for p in public["players"])
    last = public["last_round"]
    assert last["round"] == 1 and last["finished"] and last["start_seat"] == 0
    assert [p["hand"] for p in last["players"]] == [ROUND_ONE[0], ROUND_ONE[1]]
    assert [(p["seat"], p["coin"], p["verdict"]) for p in last["players"]] == [(0, 1, "innocent"), (1, 2, "innocent")]
    assert last["awards"] == [{"seat": 0, "chips": 1}] and last["returned"] == [] and last["investigations"] == []
    assert "3" not in json.dumps(last["awards"]) and "chip_values" not in json.dumps(last)
    # card info covers the shown round-1 hands only, never a round-2 card
    assert set(public["card_info"]) == set(ROUND_ONE[0]) | set(ROUND_ONE[1])


def test_last_round_is_kept_after_the_game_is_over() -> None:
    actions = chip_game([3], 1, [1])
    final, _ = record(2, None, actions)
    last = RULES.view(final)["last_round"]
    assert RULES.outcome(final) is not None and last["round"] == 3 and last["finished"]
    assert [p["verdict"] for p in last["players"]] == ["innocent", "innocent"]
    assert last["ranking"] == [1, 0] and last["awards"] == [{"seat": 1, "chips": 1}]
    # before round 2's verdicts, round 1's results (seat 0 richest, one chip) are on show; after, round 2's
    state = RULES.initial_state(2)
    rounds = []
    for action in actions:
        state = RULES.apply(state, action)
        last = RULES.view(state)["last_round"]
        rounds.append(None if last is None else last["round"])
    shown = [i for i, r in enumerate(rounds) if r is not None]
    assert rounds[:shown[0]] == [None] * shown[0] and rounds[-1] == 3
    assert rounds[shown[0]:] == sorted(rounds[shown[0]:])  # only ever moves on to a later round
    second_setup = [i for i, x in enumerate(actions) if x["type"] == "setup"][1]
    dealt, _ = record(2, None, actions[:second_setup + 1])
    assert rounds[second_setup] == 1
    assert all(p.keys().isdisjoint({"hand", "verdict"}) for p in RULES.view(dealt)["players"])
