"""Chance actions are validated, malformed input is `malformed`, and every code and phase is documented."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.games import CHANCE, Refusal
from companion.games.gangsters_dilemma import actions as actions_module
from companion.games.gangsters_dilemma.board import CHARACTERS
from companion.games.playout import random_playout
from tests.games.gangsters_dilemma.helpers import HARD, RULES, play, setup_action

PACKAGE = Path(actions_module.__file__).resolve().parent
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "gangsters_dilemma"


def refused(state: object, action: dict) -> str:
    """The code an action is refused with."""
    with pytest.raises(Refusal) as err:
        RULES.apply(state, action)
    return err.value.code


NO_CHARS = {"demands": HARD, "characters": []}


@pytest.mark.parametrize(
    "setup",
    [
        setup_action(0, ["hitman", None, None], ["h1", "h2", "h3"]),  # characters off: all must be null
        setup_action(0, [None, None, None], ["h1", "h2", "h2"]),
        setup_action(0, [None, None, None], ["h1", "h2", "nope"]),
        setup_action(0, [None, None, None], ["h1", "h2", "h3"], ["h4"]),  # no elite dealt
    ],
)
def test_impossible_setups_are_refused(setup: dict) -> None:
    assert refused(RULES.initial_state(3, NO_CHARS), setup) == "bad_setup"


def test_setup_with_characters_must_deal_distinct_known_ones() -> None:
    state = RULES.initial_state(3)
    assert refused(state, setup_action(0, ["hitman", "hitman", "lady"], ["sample-01", "sample-02", "sample-03"])) == "bad_setup"
    assert refused(state, setup_action(0, ["hitman", None, "lady"], ["sample-01", "sample-02", "sample-03"])) == "bad_setup"
    limited = RULES.initial_state(3, {"characters": ["hitman", "lady", "flapper"]})
    assert refused(limited, setup_action(0, ["hitman", "lady", "lookout"], ["sample-01", "sample-02", "sample-03"])) == "bad_setup"


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "setup", "seat": CHANCE, "police": 3, "characters": [None] * 3, "demands": ["h1", "h2", "h3"]},
        {"type": "setup", "seat": CHANCE, "police": True, "characters": [None] * 3, "demands": ["h1", "h2", "h3"]},
        {"type": "setup", "seat": CHANCE, "police": 0, "characters": [None] * 2, "demands": ["h1", "h2", "h3"]},
        {"type": "setup", "seat": CHANCE, "police": 0, "characters": [None] * 3, "demands": ["h1", "h2"]},
        {"type": "setup", "seat": 0, "police": 0, "characters": [None] * 3, "demands": ["h1", "h2", "h3"]},
        {"type": "setup", "seat": CHANCE, "police": 0, "characters": [None] * 3},
    ],
)
def test_malformed_setup(bad: dict) -> None:
    assert refused(RULES.initial_state(3, NO_CHARS), bad) == "malformed"


@pytest.fixture
def planning() -> object:
    """A 3-seat game in round 1, police seat 0."""
    return play(3, NO_CHARS, [setup_action(0, [None] * 3, ["h1", "h2", "h3"])])


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "patrol", "seat": 0, "locations": [1]},
        {"type": "patrol", "seat": 0, "locations": [1, True]},
        {"type": "patrol", "seat": 0, "locations": "1,2"},
        {"type": "choose", "seat": 1, "location": True},
        {"type": "choose", "seat": 1, "location": "1"},
        {"type": "choose", "seat": 1},
        {"type": "respond", "seat": 1, "response": "confess"},
        {"type": "respond", "seat": 1, "response": "bribe", "pay": "gold"},
        {"type": "trade", "seat": 1, "trade": "buy_crate"},
        {"type": "fulfil", "seat": 1, "demand": 7},
        {"type": "fulfil", "seat": 1, "demand": "h1", "substitute": "gold"},
        {"type": "swap", "seat": 1, "target": 9, "give": "art", "take": "crate"},
        {"type": "reveal_demand", "seat": 0, "demand": "h4"},
        {"type": "reveal_patrol", "seat": CHANCE, "location": None},
    ],
)
def test_malformed_actions(planning: object, bad: dict) -> None:
    assert refused(planning, bad) == "malformed"


def test_refusal_order(planning: object) -> None:
    assert refused(planning, {"type": "reveal_demand", "seat": CHANCE, "demand": "h4"}) == "not_your_turn"
    assert refused(planning, {"type": "trade", "seat": 1, "trade": "none"}) == "wrong_phase"
    assert refused(planning, {"type": "choose", "seat": 1, "location": 9}) == "no_such_location"


def test_extra_fields_are_ignored(planning: object) -> None:
    after = RULES.apply(planning, {"type": "choose", "seat": 1, "location": 2, "note": "hi"})
    assert RULES.view(after, 1)["choice"] == 2


def test_apply_does_not_change_its_input(planning: object) -> None:
    before = RULES.view(planning, 1)
    RULES.apply(planning, {"type": "choose", "seat": 1, "location": 2})
    assert RULES.view(planning, 1) == before


def test_sample_chance_always_applies() -> None:
    for seats in range(3, 8):
        for seed in range(20):
            state = RULES.initial_state(seats)
            action = RULES.sample_chance(state, random.Random(seed))
            assert len(set(action["characters"])) == seats and set(action["characters"]) <= set(CHARACTERS)
            after = RULES.apply(state, action)
            assert len(action["elite_demands"]) == (3 if "elite" in action["characters"] else 0)
            assert RULES.view(after)["deck"] == 18 - 3 - len(action["elite_demands"])


def test_without_characters_setup_deals_nulls() -> None:
    state = RULES.initial_state(4, {"characters": []})
    action = RULES.sample_chance(state, random.Random(3))
    assert action["characters"] == [None] * 4 and action["elite_demands"] == []
    assert [p["character"] for p in RULES.view(RULES.apply(state, action))["players"]] == [None] * 4


def test_every_code_is_documented_and_exercised() -> None:
    """Each own code is raised by the engine and shown refused by some scenario or test."""
    source = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    raised = set(re.findall(r'_refuse\("([a-z_]+)"', source))
    assert raised == set(RULES.own_codes)
    tests = "".join(p.read_text(encoding="utf-8") for p in SCENARIOS.glob("*.jsonl"))
    tests += "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    exercised = set(re.findall(r'"code": "([a-z_]+)"', tests)) | set(re.findall(r'== "([a-z_]+)"', tests))
    assert set(RULES.own_codes) - exercised == set()


def test_every_phase_is_documented_and_reached() -> None:
    seen: set[str] = set()
    rng = random.Random(5)
    for seats in (3, 5, 7):
        for _ in range(8):
            playout = random_playout(RULES, seats, rng)
            state = RULES.initial_state(seats)
            seen.add(RULES.phase(state))
            for action in playout.actions:
                state = RULES.apply(state, action)
                seen.add(RULES.phase(state))
    assert seen == set(RULES.phases)
