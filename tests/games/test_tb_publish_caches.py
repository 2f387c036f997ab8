"""Thief of Baghdad's publish caches change nothing: over random walks (undos, new games, other seat counts)
the views rebuilt from the last publish's pieces, the scene redrawn from the last one and the legal actions
handed out from fixed ones say, byte for byte (JSON in order), what fresh builds say; the fixed actions are
handed out again as the same read-only objects (a change raises; their copies are plain); every fixed
action's option words are what the generic option builder gives it for any seat names."""

from __future__ import annotations

import copy
import json
import pickle
import random
from itertools import product
from typing import Any

import pytest

from companion.games import get_rules
from companion.games.binding import get_binding
from companion.games.fixed_actions import Fixed
from companion.games.memo import Memo
from companion.games.registry import get_game
from companion.games.schema import FieldKind
from companion.games.thief_of_baghdad import legal
from companion.games.thief_of_baghdad.board import COLORS, DANCER_INDEX, GUARD_SPACES, PALACES, THIEF_MOVES_PER_TURN
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.payments import (
    INFILTRATE_OPTIONS, MOVE_GUARD_OPTIONS, MOVE_NEUTRAL_OPTIONS, affordable,
)
from companion.games.thief_of_baghdad.state import State
from companion.games.thief_of_baghdad.views import OWNERS, owners, view
from companion.games.thief_of_baghdad.legal import worded
from companion.table.core.outputs import OPTIONS_SLOT, reused_options
from companion.table.prompts import option, options_of
from tests.games.test_publish_memo import COLOURS, rng_colours, walk

RULES = get_rules("thief_of_baghdad")
BINDING = get_binding("thief_of_baghdad")
SEAT_FIELDS = get_game("thief_of_baghdad").fields.of_kind(FieldKind.SEAT)
NAMES = ([], ["Ann", "Bo", "", "Dee"], ["민지", "Bo", "서연", "Dee", "E", "F", "G", "H", "I", "J"])


def dumped(value: Any) -> str:
    """JSON in order: lists and tuples, key order and value types as the wire sees them."""
    return json.dumps(value, default=repr)


def reference_legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal actions as built one by one before the fixed actions (the reference for their order)."""
    at = [state.guards_at(p) for p in range(PALACES)]
    free = [sum(g) < GUARD_SPACES for g in at]
    if state.phase is Phase.PLACE:
        return [{"type": "place_guard", "seat": seat, "palace": COLORS[p]} for p in range(PALACES) if free[p]]
    if state.phase is not Phase.TURN:
        return []
    out: list[dict[str, Any]] = []
    hand = state.hand(seat)
    thief_move = state.thief_moves < THIEF_MOVES_PER_TURN
    if thief_move and state.supply[seat]:
        for p, guards in enumerate(at):
            foreign = sum(guards) - guards[seat]
            if guards[seat] and foreign:
                for cards in affordable(INFILTRATE_OPTIONS[p][foreign], hand):
                    out.append({"type": "infiltrate", "seat": seat, "palace": COLORS[p], "cards": list(cards)})
    for o in range(PALACES):
        if at[o][seat]:
            carry = (False, True) if thief_move and state.thief(o, seat) else (False,)
            for d in range(PALACES):
                if d != o and free[d]:
                    for cards in affordable(MOVE_GUARD_OPTIONS[o][d], hand):
                        out += [{"type": "move_guard", "seat": seat, "from": COLORS[o], "to": COLORS[d],
                                 "cards": list(cards), "with_thief": t} for t in carry]
    for o in range(PALACES):
        if at[o][state.seats]:
            for d in range(PALACES):
                if d != o and free[d]:
                    out += [{"type": "move_neutral", "seat": seat, "from": COLORS[o], "to": COLORS[d],
                             "cards": list(cards)} for cards in affordable(MOVE_NEUTRAL_OPTIONS[o][d], hand)]
    out.append({"type": "end_turn", "seat": seat, "take_dancer": False})
    if not state.acted and state.dancers:
        out.append({"type": "end_turn", "seat": seat, "take_dancer": True})
    return out


def test_memoized_views_and_scene_equal_fresh_builds_byte_for_byte() -> None:
    for seed in range(4):
        memo = Memo()
        for step, state in enumerate(walk("thief_of_baghdad", seed, 700)):
            for _ in range(1 + (step % 5 == 0)):  # now and then the same state published twice
                public, parts = RULES.views(state, memo)
                fresh, fresh_parts = RULES.views(state)
                assert dumped(public) == dumped(fresh), f"seed {seed} step {step}: public view"
                assert dumped(parts) == dumped(fresh_parts), f"seed {seed} step {step}: seat parts"
                seats, colours = state.seats, COLOURS[: rng_colours(step)]
                # the scene from the memo's shared view objects, as the table draws it
                assert BINDING.cached_scene(public, seats, colours, memo) == BINDING.scene(fresh, seats, colours), \
                    f"seed {seed} step {step}: scene"


def test_unchanged_pieces_are_the_last_publish_objects() -> None:
    memo = Memo()
    shared = 0
    last: tuple[Any, ...] | None = None
    for state in walk("thief_of_baghdad", 9, 400):
        public, parts = RULES.views(state, memo)
        if last is not None and last[0] is not state and last[0].seats == state.seats:
            was, was_public, was_parts = last
            if state.guards is was.guards and state.thieves is was.thieves and state.chests is was.chests:
                assert public["palaces"] is was_public["palaces"]
                shared += 1
            if state.hands is was.hands:
                assert parts is was_parts
        last = (state, public, parts)
    assert shared > 20


def test_legal_actions_are_the_reference_ones_in_order_and_the_same_objects_again() -> None:
    checked = 0
    for seed in range(3):
        for state in walk("thief_of_baghdad", seed, 800):
            for seat in RULES.to_act(state):
                if seat < 0:
                    continue
                got = RULES.legal_actions(state, seat)
                assert dumped(got) == dumped(reference_legal(state, seat))
                assert dumped(options_of(got, NAMES[2], SEAT_FIELDS)) == dumped([option(i, dict(a), NAMES[2], SEAT_FIELDS)
                                                                    for i, a in enumerate(got)])
                # a slice of the options, numbered by their place (as a reused list's middle is built)
                assert options_of(got, NAMES[1], SEAT_FIELDS, 1, len(got) - 1) == options_of(got, NAMES[1], SEAT_FIELDS)[1:-1]
                again = RULES.legal_actions(state, seat)
                assert again is not got, "a new list each call (the table may extend it)"
                assert all(type(a) is Fixed and a is b for a, b in zip(again, got))
                for action in got:  # shared fixed actions: no change gets through
                    with pytest.raises(TypeError):
                        action["seat"] = 99
                    if "cards" in action:
                        with pytest.raises(TypeError):
                            action["cards"].append("dancer")
                assert dumped(RULES.legal_actions(state, seat)) == dumped(reference_legal(state, seat))
                checked += 1
    assert checked > 500


def test_reused_options_of_worded_actions_equal_options_built_anew() -> None:
    memo = Memo()
    reused = 0
    for state in walk("thief_of_baghdad", 5, 600):
        for seat in RULES.to_act(state):
            if seat < 0:
                continue
            legal = RULES.legal_actions(state, seat)
            was = memo.last((OPTIONS_SLOT, seat, legal[0]["type"]))
            options = reused_options(memo, seat, legal, NAMES[1], SEAT_FIELDS)
            assert dumped(options) == dumped(options_of(legal, NAMES[1], SEAT_FIELDS))
            reused += was is not None and bool(options) and options[0] is was[1][0]
            assert reused_options(memo, seat, legal, NAMES[1], SEAT_FIELDS) is options, "the same actions again: the same list"
    assert reused > 20


def test_fixed_actions_are_read_only_and_their_copies_are_plain() -> None:
    paid = next(a for row in legal.CHOICES[1].carry for _, by_held in row for actions in by_held.values()
                for a in actions if a["with_thief"])
    want = json.loads(json.dumps(paid))
    for change in (lambda a: a.update(seat=5), lambda a: a.pop("seat"), lambda a: a.setdefault("x", 1),
                   lambda a: a.clear(), lambda a: a.popitem(), lambda a: a.__delitem__("seat"),
                   lambda a: a.__ior__({"seat": 5}), lambda a: a["cards"].extend(["red"]),
                   lambda a: a["cards"].__setitem__(0, "red"), lambda a: a["cards"].__delitem__(0),
                   lambda a: a["cards"].__iadd__(["red"]), lambda a: a["cards"].__imul__(2),
                   lambda a: a["cards"].insert(0, "red"), lambda a: a["cards"].pop(),
                   lambda a: a["cards"].remove(a["cards"][0]), lambda a: a["cards"].clear(),
                   lambda a: a["cards"].sort(), lambda a: a["cards"].reverse()):
        with pytest.raises(TypeError):
            change(paid)
    assert json.loads(json.dumps(paid)) == want, "the fixed one is unchanged"
    for made in (copy.copy(paid), copy.deepcopy(paid), pickle.loads(pickle.dumps(paid))):
        assert made == want and type(made) is dict and type(made["cards"]) is list
        made["cards"].append("dancer")
        made["seat"] = 3
    assert json.loads(json.dumps(paid)) == want


def test_every_fixed_action_carries_the_generic_option_words() -> None:
    fixed = [a for seat in legal.CHOICES for a in (*seat.place, *seat.end_turn)]
    for seat in legal.CHOICES:
        for groups in (seat.infiltrate, seat.move_guard, seat.carry, seat.move_neutral):
            fixed += [a for row in groups for _, by_held in row for actions in by_held.values() for a in actions]
    assert len(fixed) > 1000 and all(type(a) is Fixed for a in fixed)
    for action, names in product(fixed, NAMES):
        assert option(3, action, names, SEAT_FIELDS) == {**options_of([action], names, SEAT_FIELDS)[0], "value": 3}
        assert options_of([action], names, SEAT_FIELDS) == [option(0, dict(action), names, SEAT_FIELDS)]


def test_worded_refuses_words_that_depend_on_the_seat_names() -> None:
    try:
        worded({"type": "nominate", "seat": 0, "target": 2})
    except ValueError as err:
        assert "target=2" in str(err)
    else:
        raise AssertionError("a seat target was worded")


def test_the_hand_mask_pays_what_affordable_pays() -> None:
    rng = random.Random(4)
    tables = [*(o for row in INFILTRATE_OPTIONS for o in row), *(o for row in MOVE_NEUTRAL_OPTIONS for o in row),
              *(o for row in MOVE_GUARD_OPTIONS for o in row)]
    for _ in range(600):
        hand = bytes(rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(DANCER_INDEX + 1))
        held = legal.held_mask(hand)
        for options in tables:
            groups = [(legal.need_mask(needs), (names,)) for needs, names in options]
            read, by_held = legal.payable(groups)  # type: ignore[arg-type]
            assert list(by_held[held & read]) == affordable(options, hand)


def test_the_guard_table_lists_guards_as_views_do() -> None:
    assert len(OWNERS) > 100
    for counts, listed in OWNERS.items():
        assert list(listed) == owners(counts)
    state = RULES.initial_state(3)
    assert view(state, None)["palaces"][0]["guards"] == ["neutral"]
