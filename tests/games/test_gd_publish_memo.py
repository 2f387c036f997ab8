"""Gangster's Dilemma's publish caches change nothing: over random walks (undos, new games, every seat count)
with one memo carried as a table carries it, the views, seat parts, table info and LED scene built from the
memo's own views equal fresh builds, no value handed out is changed later, and what did not change is the
very object the last publish gave (which is what keeps a publish cheap)."""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.games.binding import get_binding
from companion.games.gangsters_dilemma.state import Work
from companion.games.log import Log
from companion.games.memo import Memo
from companion.games.playout import choose_action
from companion.games.registry import get_rules
from tests.games.test_publish_memo import walk

GAME = "gangsters_dilemma"
SEEDS = range(8)
STEPS = 400
COLOURS = ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def test_memo_built_views_info_and_scene_equal_fresh_builds() -> None:
    rules, binding = get_rules(GAME), get_binding(GAME)
    for seed in SEEDS:
        memo = Memo()
        handed: list[tuple[Any, Any]] = []
        for step, state in enumerate(walk(GAME, seed, STEPS)):
            seats = rules.seat_count(state)
            public, parts = rules.views(state, memo)
            fresh_public, fresh_parts = rules.views(state)
            where = f"seed {seed} step {step} phase {state.phase}"
            assert public == fresh_public, f"{where}: public view"
            assert parts == fresh_parts, f"{where}: seat parts"
            # table info and scene from the memo's view, whose fields are shared with the last publish's
            info = binding.cached_info(public, seats, memo)
            scene = binding.cached_scene(public, seats, COLOURS, memo)
            assert info == binding.info(fresh_public, seats), f"{where}: table info"
            assert scene == binding.scene(fresh_public, seats, COLOURS), f"{where}: scene"
            assert rules.views(state, memo) == (fresh_public, fresh_parts), f"{where}: the same state again"
            assert binding.cached_info(public, seats, memo) is info, f"{where}: info for the same view"
            assert binding.cached_scene(public, seats, COLOURS, memo) is scene, f"{where}: scene for the same view"
            published = (public, parts, info, scene)
            if step % 7 == 0:
                handed.append((published, copy.deepcopy(published)))
        for published, snapshot in handed:
            assert published == snapshot, f"seed {seed}: a value the memo handed out was changed later"


def test_a_seat_part_and_view_field_whose_inputs_did_not_change_are_the_last_ones() -> None:
    rules = get_rules(GAME)
    rng = random.Random(5)
    state = rules.apply(rules.initial_state(7), choose_action(rules, rules.initial_state(7), rng))
    memo = Memo()
    public, parts = rules.views(state, memo)
    assert state.phase == "plan"
    mover = min(s for s in state.acting if s != state.police)
    location = next(a for a in rules.legal_actions(state, mover) if a["type"] == "choose")["location"]
    after = rules.apply(state, {"type": "choose", "seat": mover, "location": location})
    public2, parts2 = rules.views(after, memo)
    assert after.players is state.players and after.money is state.money, "unchanged tuples keep their identity"
    for seat in range(7):
        if seat != mover:
            assert parts2[seat] is parts[seat], f"seat {seat}: nothing of its own changed"
    assert parts2[mover] != parts[mover] and parts2[mover]["choice"] == location
    for field in ("locations", "players", "demands", "demand_cards", "patrols", "log"):
        assert public2[field] is public[field], f"{field}: a private choice changes no public field"
    assert public2["chosen"] != public["chosen"] and public2["to_act"] != public["to_act"]
    assert rules.views(after, memo)[1] is parts2, "the same state again: the very parts"


def test_a_state_keeps_unchanged_tuples_and_a_changed_one_is_new() -> None:
    rules = get_rules(GAME)
    state = rules.initial_state(5)
    work = Work(state)
    same = work.freeze()
    assert same.players is state.players and same.money is state.money and same == state
    work = Work(state)
    work.gain(0, money=1)
    changed = work.freeze()
    assert changed.players is not state.players and changed.players[0].money == state.players[0].money + 1
    assert changed.players[1:] == state.players[1:] and changed.money is state.money


def test_rendered_log_keeps_its_list_when_new_entries_render_to_nothing() -> None:
    memo = Memo()
    log = Log([1, 2])
    first = memo.rendered_log("s", log, 0, lambda new: [e for e in new if e > 0])
    grown = log.append(-1)  # another viewer's entry: nothing to show
    assert memo.rendered_log("s", grown, 0, lambda new: [e for e in new if e > 0]) is first
    more = grown.append(3)
    assert memo.rendered_log("s", more, 0, lambda new: [e for e in new if e > 0]) == [1, 2, 3]
    assert first == [1, 2], "the list handed out before is not extended in place"
