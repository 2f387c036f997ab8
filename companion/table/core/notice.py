"""The venue's announcement in the core: it arrives from the venue publisher, shows on the table's public
snapshot (the TV draws it) and stays until the host dismisses it; an announcement dismissed once is not shown
again when the venue's retained copy arrives anew (a reconnect)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.table.core import commands as c
from companion.table.core.outputs import publish
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState


def _announce(state: TableState, cmd: c.Announce, ctx: Context) -> Step:
    new = cmd.announcement
    if new is not None and new.get("id") == state.dismissed:
        return Step(state, reply={})
    if new == state.announcement:
        return Step(state, reply={})
    state, effects = publish(replace(state, announcement=None if new is None else dict(new)), ctx)
    return Step(state, effects=tuple(effects), reply={})


def _dismiss(state: TableState, cmd: c.DismissAnnouncement, ctx: Context) -> Step:
    if state.announcement is None:
        return Step(state, reply={"dismissed": None})
    shown = state.announcement.get("id")
    state, effects = publish(replace(state, announcement=None, dismissed=shown), ctx)
    return Step(state, effects=tuple(effects), reply={"dismissed": shown})


HANDLERS: dict[type, Any] = {c.Announce: _announce, c.DismissAnnouncement: _dismiss}
"""Command type -> handler; read-only."""
