"""The loop's grouping policy: which queued inputs are stepped one after another and committed together (one
fsync for a burst of ballots or votes), and what of a group's output the last of it makes redundant."""

from __future__ import annotations

import queue
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from companion.table.core.commands import Command, Submit
from companion.table.core.effects import AppendActions, EndGameRow, PublishState, Row, SetScene, StartGame
from companion.table.core.inputs import Input
from companion.table.core.step import Step

GROUP_MAX = 16
"""Queued inputs taken together at most: the appends of those stepped one after another share one commit."""


@dataclass
class Call:
    """A typed command from another thread (web, CLI, bench) with a future for its answer."""

    command: Command
    future: Future = field(default_factory=Future)


def call_of(item: Any) -> Call | None:
    """The call an inbox item is (a submitted action waits on it), or None for a hardware input."""
    return item if isinstance(item, Call) else None


def input_of(item: Any) -> Input:
    """What the core steps for an inbox item: a call's command, else the hardware input itself."""
    return item.command if isinstance(item, Call) else item


def takes_alone(item: Any) -> bool:
    """Whether an inbox item is handled on its own, after the group before it is committed: every command but a
    submitted action (its step may read the journal, which must hold what came before it)."""
    return isinstance(item, Call) and not isinstance(item.command, Submit)


def joins_group(done: Step) -> bool:
    """Whether a step may be committed with the other queued inputs' steps: it only appends actions."""
    return all(isinstance(row, AppendActions) for row in done.rows)


def queued(inbox: queue.SimpleQueue[Any], limit: int = GROUP_MAX) -> list[Any]:
    """The next input (waiting for it) and every other one already queued, up to `limit`, in order (None, the
    stop signal, ends the list)."""
    items = [inbox.get()]
    while len(items) < limit and items[-1] is not None:
        try:
            items.append(inbox.get_nowait())
        except queue.Empty:
            break
    return items


def superseded(dones: list[Step]) -> frozenset[int]:
    """The ids of every state publish and LED scene but the last of each among these steps: each is the whole
    public state or the whole strip, so the last one shows all that the group's earlier ones would have."""
    states = [id(e) for done in dones for e in done.effects if isinstance(e, PublishState)]
    scenes = [id(e) for done in dones for e in done.effects if isinstance(e, SetScene)]
    return frozenset(states[:-1] + scenes[:-1])


def ends_a_game(rows: tuple[Row, ...]) -> bool:
    """Whether committing these rows finished or ended a game (also one replaced by a new game)."""
    return any(isinstance(row, EndGameRow) or (isinstance(row, AppendActions) and row.end is not None)
               or (isinstance(row, StartGame) and row.replacing is not None) for row in rows)
