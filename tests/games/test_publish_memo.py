"""The publish memo (`companion.games.memo.Memo`) changes nothing: over random playouts of every game, with
one memo carried from step to step as a table carries it (through undos, where the log gets shorter and then
grows on another branch, and new games after old ones), the memoized views, table info and LED scene equal
what a build without a memo says."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from companion.games import game_names, get_rules
from companion.games.binding import Effect, LevelLights, Light, get_binding
from companion.games.log import Log
from companion.games.memo import Memo
from companion.games.playout import choose_action
from companion.games.rules import Rules
from tests.games.harness import mode_options

STEPS = 500
"""Steps walked per game and seed (undos and new games included)."""
SEEDS = range(3)
COLOURS = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15), (16, 17, 18), (19, 20, 21),
           (22, 23, 24), (25, 26, 27), (28, 29, 30))


def walk(game: str, seed: int, steps: int = STEPS) -> Iterator[Any]:
    """Engine states in the order a table meets them: random play, an undo now and then (back to an earlier
    state, then on along another branch), a new game when one ends and now and then in the middle, at a
    seat count drawn anew, with the options of a components mode the engine tells apart drawn anew too."""
    rules = get_rules(game)
    rng = random.Random(seed)
    modes = mode_options(game)
    seats = rng.randint(rules.min_seats, rules.max_seats)
    history = [rules.initial_state(seats, modes[seed % len(modes)])]
    for _ in range(steps):
        state = history[-1]
        yield state
        roll = rng.random()
        if not rules.to_act(state) or roll < 0.01:
            seats = rng.randint(rules.min_seats, rules.max_seats)
            history = [rules.initial_state(seats, modes[0] if len(modes) == 1 else rng.choice(modes))]
        elif roll < 0.08 and len(history) > 2:
            del history[rng.randint(1, len(history) - 1):]  # an undo: back to an earlier state
        else:
            history.append(rules.apply(state, choose_action(rules, state, rng)))


@pytest.mark.parametrize("game", game_names())
def test_memoized_views_equal_the_views_built_without_a_memo(game: str) -> None:
    rules = get_rules(game)
    for seed in SEEDS:
        memo = Memo()
        for step, state in enumerate(walk(game, seed)):
            public, parts = rules.views(state, memo)
            fresh_public, fresh_parts = rules.views(state)
            assert public == fresh_public, f"{game} seed {seed} step {step}: public view"
            assert parts == fresh_parts, f"{game} seed {seed} step {step}: seat parts"
            assert rules.views(state, memo) == (fresh_public, fresh_parts), "a second publish of the same state"
        assert len(memo) > 0 or type(rules)._views is Rules._views, "the game's views go through the memo"


@pytest.mark.parametrize("game", game_names())
def test_memoized_info_and_scene_equal_a_fresh_build(game: str) -> None:
    rules, binding = get_rules(game), get_binding(game)
    for seed in SEEDS:
        memo = Memo()
        for step, state in enumerate(walk(game, seed)):
            seats = rules.seat_count(state)
            public = rules.view(state, None)
            colours = COLOURS[: rng_colours(step)]
            assert binding.cached_info(public, seats, memo) == binding.info(public, seats), f"step {step}"
            assert binding.cached_scene(public, seats, colours, memo) == binding.scene(public, seats, colours), \
                f"{game} seed {seed} step {step}: scene"


def rng_colours(step: int) -> int:
    """How many configured seat colours the table has at this step (none, some, all in turn)."""
    return (0, 4, 10)[step // 50 % 3]


@pytest.mark.parametrize("game", game_names())
def test_scene_and_info_read_only_their_declared_fields(game: str) -> None:
    binding = get_binding(game)
    rules = get_rules(game)
    for state in walk(game, 7, 300):
        seats = rules.seat_count(state)
        public = rules.view(state, None)
        if binding.scene_fields is not None:
            only = {k: v for k, v in public.items() if k in binding.scene_fields}
            assert binding.scene(only, seats, COLOURS) == binding.scene(public, seats, COLOURS)
        if binding.info_fields is not None:
            only = {k: v for k, v in public.items() if k in binding.info_fields}
            assert binding.public_info(only, seats) == binding.public_info(public, seats)


def test_memo_gives_the_stored_value_only_for_an_equal_key() -> None:
    memo = Memo()
    built: list[int] = []

    def build(n: int) -> int:
        built.append(n)
        return n * 10

    assert memo.get("a", (1, [2]), lambda: build(1)) == 10
    assert memo.get("a", (1, [2]), lambda: build(2)) == 10  # an equal key, not the same object: a hit
    assert memo.get("a", (1, [3]), lambda: build(3)) == 30
    assert memo.get("b", (1, [3]), lambda: build(4)) == 40  # slots are apart
    assert memo.get("a", (1, [2]), lambda: build(5)) == 50  # only the last key of a slot is kept
    assert built == [1, 3, 4, 5]
    memo.put("c", "k", "v")
    assert memo.last("c") == ("k", "v") and memo.last("d") is None
    assert len(memo) == 3
    memo.clear()
    assert len(memo) == 0 and memo.last("a") is None


def test_a_memo_is_no_part_of_a_sessions_value() -> None:
    from dataclasses import replace

    from companion.table.session import Components, Session

    rules = get_rules("secret_hitler")
    session = Session(1, rules, get_binding("secret_hitler"), 5, {}, Components.DIGITAL, (), Log(),
                      rules.initial_state(5))
    session.memo.put("x", 1, 2)
    later = replace(session, state=rules.initial_state(6))
    assert later.memo is session.memo, "a table's next state carries its memo"
    other = Session(1, rules, get_binding("secret_hitler"), 5, {}, Components.DIGITAL, (), Log(),
                    session.state)
    assert other.memo is not session.memo and len(other.memo) == 0, "a new game starts with an empty memo"
    assert other == session, "equality ignores the memo"
    assert "memo" not in repr(session).lower()


def test_log_starts_with() -> None:
    base = Log([1, 2, 3])
    longer = base.append(4).append(5)
    assert longer.starts_with(base) and longer.starts_with(longer) and base.starts_with(Log())
    assert not base.starts_with(longer)
    branch = base.append(9)  # the shared list already holds 4 after 3: the branch copies (an undo, then on)
    assert branch.starts_with(base) and not branch.starts_with(Log(longer[:4]))
    assert not branch.starts_with(longer) and not longer.starts_with(branch)
    assert Log([1, 2, 3, 4]).starts_with(base), "equal items in other storage"
    assert not Log([1, 2, 7, 4]).starts_with(base)


def test_level_lights_are_the_lights_of_each_fill() -> None:
    track = LevelLights((1, 2, 3), 5, Effect.BLINK)
    for n in range(-2, 9):
        assert track[n] == Light((1, 2, 3), Effect.BLINK, (n, 5))
    assert track[3] is track[3], "a fill in range is built once"


def test_rendered_log_renders_only_new_entries_and_starts_over_on_another_branch() -> None:
    memo = Memo()
    seen: list[tuple[int, ...]] = []

    def render(entries: Any) -> list[int]:
        seen.append(tuple(entries))
        return [e * 10 for e in entries]

    log = Log([1, 2, 3])
    assert memo.rendered_log("s", log, 1, render) == [20, 30]
    grown = log.append(4).append(5)
    assert memo.rendered_log("s", grown, 1, render) == [20, 30, 40, 50]
    assert seen == [(2, 3), (4, 5)], "only the new entries are rendered"
    assert memo.rendered_log("s", grown, 1, render) == [20, 30, 40, 50] and len(seen) == 2
    undone = Log([1, 2, 3, 9])  # an undo, then another action: not grown from the last log
    assert memo.rendered_log("s", undone, 1, render) == [20, 30, 90]
    assert memo.rendered_log("s", undone, 3, render) == [90], "a new start renders from it"
    assert memo.rendered_log("s", Log([7]), 0, render) == [70], "a new game's log"
