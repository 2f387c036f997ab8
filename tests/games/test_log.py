"""Log[T]: an immutable append-only sequence whose versions never see each other's items."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError, dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import game_names, get_rules
from companion.games.log import Log
from companion.games.playout import choose_action

# A program: each step appends (or extends) to one earlier version, picked by index.
steps = st.lists(st.tuples(st.integers(min_value=0), st.lists(st.integers(), min_size=1, max_size=3)), max_size=40)


@given(steps)
@settings(max_examples=200, deadline=None)
def test_branching_never_leaks_items_between_versions(program: list[tuple[int, list[int]]]) -> None:
    """Every version keeps exactly the items of its own history, whatever order branches are made in."""
    versions: list[Log[int]] = [Log()]
    expected: list[tuple[int, ...]] = [()]
    for pick, items in program:
        base = pick % len(versions)
        made = versions[base].append(items[0]) if len(items) == 1 else versions[base].extend(items)
        versions.append(made)
        expected.append(expected[base] + tuple(items))
        for log, want in zip(versions, expected):
            assert tuple(log) == want
            assert len(log) == len(want)
            assert log == want and log == Log(want)
            assert hash(log) == hash(want)


@given(st.lists(st.integers(), max_size=30), st.integers(-35, 35), st.integers(-35, 35), st.integers(0, 35))
def test_reads_like_a_tuple(items: list[int], start: int, stop: int, k: int) -> None:
    """Indexing, slicing, reversal and tail agree with the tuple of the same items."""
    log: Log[int] = Log()
    for item in items:
        log = log.append(item)
    want = tuple(items)
    assert log[start:stop] == want[start:stop]
    assert log[start:stop:2] == want[start:stop:2]
    assert tuple(reversed(log)) == tuple(reversed(want))
    assert log.tail(k) == (want[-k:] if k else ())
    if -len(want) <= start < len(want):
        assert log[start] == want[start]
    else:
        with pytest.raises(IndexError):
            log[start]


def test_linear_appends_share_one_list() -> None:
    """The common case copies nothing: each append extends the same storage in place."""
    log: Log[int] = Log()
    first = log.append(0)
    last = first
    for i in range(1, 1000):
        last = last.append(i)
    assert last._items is first._items
    assert len(first) == 1 and first[-1] == 0


def test_an_empty_log_never_holds_a_games_items() -> None:
    """A shared empty default (a dataclass default) stays empty and starts fresh storage for each game."""
    empty: Log[int] = Log()
    a = empty.append(1)
    b = empty.append(2)
    assert tuple(empty) == () and empty._items == []
    assert tuple(a) == (1,) and tuple(b) == (2,)


def test_iteration_stops_at_the_versions_length_while_newer_versions_grow() -> None:
    """An old version iterated while a newer one appends still yields only its own items."""
    old = Log([1, 2, 3])
    seen = []
    newer = old
    for item in old:
        newer = newer.append(item * 10)
        seen.append(item)
    assert seen == [1, 2, 3]
    assert tuple(newer) == (1, 2, 3, 10, 20, 30)


def test_frozen_dataclass_field_copy_and_pickle() -> None:
    """A Log works as a frozen dataclass field: equal by content, hashable, deep copies share it, pickles."""

    @dataclass(frozen=True)
    class Holder:
        log: Log[str] = field(default_factory=Log)

    a = Holder(Log(["x"]).append("y"))
    b = Holder(Log(["x", "y"]))
    assert a == b and hash(a) == hash(b)
    assert Holder() == Holder(Log())
    with pytest.raises(FrozenInstanceError):
        a.log = Log()  # type: ignore[misc]
    assert copy.deepcopy(a.log) is a.log
    assert pickle.loads(pickle.dumps(a.log)) == a.log


def test_plus_means_extend_and_other_types_are_refused() -> None:
    """`log + items` extends by a tuple, list or Log; anything else is a TypeError; lists are never equal."""
    log = Log([1])
    assert log + (2, 3) == (1, 2, 3)
    assert log + [2] == (1, 2) and log + Log([5]) == (1, 5)
    assert log.extend(()) is log
    with pytest.raises(TypeError):
        log + 3  # type: ignore[operator]
    with pytest.raises(TypeError):
        log["0"]  # type: ignore[index]
    assert log != [1]


@pytest.mark.parametrize("game", game_names())
def test_every_engine_extends_its_log_in_place(game: str) -> None:
    """In a linear game each action's log shares the previous one's storage: no engine copies its log."""
    rules = get_rules(game)
    rng = random.Random(3)
    state = rules.initial_state(rules.min_seats)
    steps = 0
    while rules.to_act(state) and steps < 3000:
        after = rules.apply(state, choose_action(rules, state, rng))
        assert isinstance(after.log, Log)
        if len(state.log):
            assert after.log._items is state.log._items, f"{game} copied its log"
        state, steps = after, steps + 1
    assert len(state.log) > 10
