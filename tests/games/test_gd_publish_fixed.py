"""Gangster's Dilemma's fixed legal actions and incremental scene change nothing: over random walks the legal
actions are the plain definition's in order (read-only objects handed out again as they are, whose copies are
plain and changeable), every fixed action carries the words the table's prompt options would give it, and
the scene repainted from the last one equals the scene drawn whole."""

from __future__ import annotations

import copy
import json
from itertools import combinations
from typing import Any

import pytest

from companion.games.binding import get_binding
from companion.games.contract import CHANCE
from companion.games.gangsters_dilemma import fixed
from companion.games.gangsters_dilemma.legal import (
    bribe_pays, can_peek, fulfil_choices, open_locations, steal_targets, swap_choices, trade_choices, visitors,
)
from companion.games.gangsters_dilemma.options import build_config, OPTION_DEFAULTS
from companion.games.gangsters_dilemma.state import State
from companion.games.memo import Memo
from companion.games.registry import get_game, get_rules
from companion.games.schema import FieldKind
from companion.table.prompts import option, option_at
from tests.games.test_publish_memo import walk

GAME = "gangsters_dilemma"
RULES = get_rules(GAME)
SEAT_FIELDS = get_game("gangsters_dilemma").fields.of_kind(FieldKind.SEAT)
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Flo", "Gus"]


def reference_legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal actions as plain dicts, written out as the rules say them."""
    phase = state.phase
    if phase == "plan":
        if seat == state.police:
            return [{"type": "patrol", "seat": seat, "locations": [a, b]}
                    for a, b in combinations(open_locations(state), 2)]
        out = [{"type": "choose", "seat": seat, "location": loc} for loc in open_locations(state)]
        if can_peek(state, seat):
            out.append({"type": "peek", "seat": seat})
        return out
    if phase == "abilities":
        if state.players[seat].character == "hitman":
            out = [{"type": "swap", "seat": seat, "target": t, "give": g, "take": k}
                   for t, g, k in swap_choices(state, seat)]
        else:
            out = [{"type": "steal", "seat": seat, "target": t} for t in steal_targets(state, seat)]
        return out + [{"type": "skip", "seat": seat}]
    if phase == "respond":
        bribes = [{"type": "respond", "seat": seat, "response": "bribe", "pay": pay}
                  for pay in bribe_pays(state.players[seat])]
        if len(visitors(state, state.current)) == 1:
            return bribes + [{"type": "pass", "seat": seat}]
        return [{"type": "respond", "seat": seat, "response": r} for r in ("inform", "silence")] + bribes
    if phase == "trade":
        trades = trade_choices(state, state.current, state.players[seat])
        return [{"type": "trade", "seat": seat, "trade": t} for t in trades + ["none"]]
    if phase == "fulfil":
        out = []
        for ident, sub, pay in fulfil_choices(state, seat):
            action: dict[str, Any] = {"type": "fulfil", "seat": seat, "demand": ident}
            if sub is not None:
                action["substitute"], action["pay"] = sub, pay
            out.append(action)
        return out + [{"type": "pass", "seat": seat}]
    return []


def every_fixed() -> list[fixed.Fixed]:
    """Every fixed action of every table."""
    out: list[fixed.Fixed] = []
    for seat in range(fixed.MAX_SEATS):
        out += fixed.CHOOSE[seat][fixed.MAX_LOCATIONS] + fixed.PATROLS[seat][fixed.MAX_LOCATIONS]
        out += [fixed.PEEK[seat], fixed.SKIP[seat], fixed.PASS[seat], *fixed.STEAL[seat], *fixed.INFORM_SILENCE[seat]]
        out += [a for by_pair in fixed.SWAP[seat] for a in by_pair.values()]
        out += [*fixed.BRIBE[seat].values(), *fixed.TRADE[seat].values()]
    return out


def test_legal_actions_are_the_plain_definitions_in_order_and_the_same_objects_again() -> None:
    checked, closed, phases = 0, 0, set()
    for seed in range(4):
        for state in walk(GAME, seed, 600):
            for seat in RULES.to_act(state):
                if seat == CHANCE:
                    continue
                got = RULES.legal_actions(state, seat)
                want = reference_legal(state, seat)
                assert json.dumps(got) == json.dumps(want) and got == want, f"seed {seed} seat {seat} {state.phase}"
                again = RULES.legal_actions(state, seat)
                assert again is not got, "a new list each call (the table may extend it)"
                assert all(a is b for a, b in zip(again, got) if isinstance(a, fixed.Fixed))
                checked += 1
                closed += bool(state.closed) and state.phase == "plan"
                phases.add(state.phase)
    assert checked > 1000 and closed > 20
    assert {"plan", "abilities", "respond", "trade", "fulfil"} <= phases


def test_fixed_actions_are_read_only_and_their_copies_are_plain() -> None:
    patrol = fixed.PATROLS[2][6][0]
    with pytest.raises(TypeError):
        patrol["seat"] = 5
    with pytest.raises(TypeError):
        patrol.update(seat=5)
    with pytest.raises(TypeError):
        patrol["locations"].append(3)
    with pytest.raises(TypeError):
        patrol["locations"][0] = 4
    for made in (copy.copy(patrol), copy.deepcopy(patrol), dict(patrol)):
        assert made == {"type": "patrol", "seat": 2, "locations": [1, 2]}
    deep = copy.deepcopy(patrol)
    deep["locations"].append(3)
    deep["seat"] = 5
    assert type(deep) is dict and type(deep["locations"]) is list
    assert patrol == {"type": "patrol", "seat": 2, "locations": [1, 2]}, "the fixed one is unchanged"


def test_every_fixed_action_carries_the_words_the_table_gives_it() -> None:
    actions = every_fixed()
    assert len(actions) > 500
    for action in actions:
        plain = json.loads(json.dumps(action))
        want = option(3, plain, NAMES, SEAT_FIELDS)
        assert option_at(3, action, NAMES, SEAT_FIELDS) == want, action
        assert json.dumps(option_at(3, action, NAMES, SEAT_FIELDS)) == json.dumps(want)
        assert (action.option_words is None) == ("target" in action)


def test_config_shows_each_card_as_the_card_says() -> None:
    cfg = build_config(dict(OPTION_DEFAULTS), 5)
    assert cfg.shown == {c.id: c.as_json(cfg.sample) for c in cfg.cards}
    custom = build_config({**OPTION_DEFAULTS, "demands": [
        {"id": f"d{i}", "vp": 3 + i, "needs": {"crate": 1, "art": i % 2}} for i in range(6)]}, 4)
    assert custom.shown == {c.id: c.as_json(False) for c in custom.cards} and not custom.sample


def test_scene_repainted_from_the_last_one_equals_the_scene_drawn_whole() -> None:
    binding = get_binding(GAME)
    repainted = 0
    for seed in range(6):
        memo = Memo()
        last = None
        for step, state in enumerate(walk(GAME, seed, 500)):
            seats = RULES.seat_count(state)
            public, _ = RULES.views(state, memo)
            scene = binding.cached_scene(public, seats, (), memo)
            assert json.dumps({k: repr(v) for k, v in scene.items()}) == json.dumps(
                {k: repr(v) for k, v in binding.scene(public, seats).items()}), f"seed {seed} step {step}"
            if last is not None and last is not scene:
                repainted += 1
            last = scene
    assert repainted > 1000
    odd = {"phase": "plan", "to_act": [0], "police": 1}
    assert binding.cached_scene(odd, 3, (), Memo()) == binding.scene(odd, 3), "a view of another shape is drawn whole"
