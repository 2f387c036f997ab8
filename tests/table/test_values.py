"""`evolve`, the loop's fast copy of its frozen values, against `dataclasses.replace`."""

from __future__ import annotations

import dataclasses

import pytest

from companion.table.core.state import Counters, TableState, TableStatus
from companion.table.core.values import evolve
from companion.table.terminals import TerminalBook


def test_evolve_makes_the_copy_replace_makes_and_leaves_the_original() -> None:
    state = TableState(TerminalBook.start({}, {}, 5), prompts={1: {"type": "idle"}})
    changes = {"status": TableStatus.RUNNING, "ballots": 4, "counters": Counters(inputs=2)}
    copy = evolve(state, **changes)
    assert copy == dataclasses.replace(state, **changes) and type(copy) is TableState
    assert state.status == TableStatus.STARTING and state.ballots == 0 and state.counters == Counters()
    assert copy.prompts is state.prompts, "unchanged fields are shared, as replace shares them"
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.ballots = 5  # type: ignore[misc]


def test_evolve_refuses_a_field_the_class_does_not_have() -> None:
    with pytest.raises(TypeError, match="no field bogus"):
        evolve(Counters(), bogus=1)


def test_counters_add_only_the_named_counts() -> None:
    assert Counters(inputs=1, errors=2).add(inputs=2, rejected=1) == Counters(inputs=3, errors=2, rejected=1)
