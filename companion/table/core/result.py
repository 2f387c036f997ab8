"""The record of one step: new state, rows to commit, effects to run after, the reply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.table.core.effects import Effect, Row
from companion.table.core.state import TableState


@dataclass(frozen=True)
class Step:
    """What one input did: the new state, the rows to commit first, the effects to run after, the reply.

    `fault_zone` and `terminal_reply` say how a failed commit is shown (see `journal_fault`)."""

    state: TableState
    rows: tuple[Row, ...] = ()
    effects: tuple[Effect, ...] = ()
    reply: Any = None
    fault_zone: str | None = None
    terminal_reply: tuple[str, str | None, int] | None = None
    """(terminal, ballot, seq) of a terminal choice: it hears the outcome, refusal or ack."""
