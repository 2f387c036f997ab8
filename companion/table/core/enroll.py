"""Guided enrollment commands and taps in the core: the guide lives in the table state, card writes are rows,
the reader's confirmation is a coloured flash (its colour says what the tap did, never what the card is), and
the host's stream alone hears the `guide` and `card_enrolled` events (which tag is which card is a secret)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.table.core import commands as c
from companion.table.core import guide as g
from companion.table.core.effects import DeleteCard, Effect, Flash, HostEvent, PublishHost, Row, WriteCards
from companion.table.core.outputs import publish
from companion.table.core.result import Step
from companion.table.core.state import Context, TableState
from companion.table.refusal import Refusal


def _event(guide: g.Guide | None) -> PublishHost:
    """The host's note that the guide moved (its page then asks for the whole guide)."""
    if guide is None:
        return PublishHost(HostEvent.GUIDE, {"running": False})
    return PublishHost(HostEvent.GUIDE, {"running": True, "mode": str(guide.mode), "done": sum(1 for u in guide.filled if u),
                             "total": len(guide.slots)})


def ended_event() -> PublishHost:
    """The host's note that enrollment ended (a new game ends it)."""
    return _event(None)


def _reply(guide: g.Guide) -> dict[str, Any]:
    return {"guide": g.guide_json(guide)}


def guide_start(state: TableState, cmd: c.GuideStart, ctx: Context) -> Step:
    """Begin a guide (enrollment mode on); a bad game or seat count changes nothing."""
    try:
        guide = g.start(cmd.game, cmd.seats, cmd.mode, ctx.cards.all())
    except Refusal as exc:
        return Step(state, reply=exc)
    state, effects = publish(replace(state, enrolling=True, guide=guide), ctx)
    return Step(state, effects=tuple(effects) + (_event(guide),), reply=_reply(guide))


def _running(state: TableState) -> g.Guide:
    if state.guide is None:
        raise Refusal("no_guide", g.GUIDE_CODES["no_guide"])
    return state.guide


def guide_mode(state: TableState, cmd: c.GuideSetMode, ctx: Context) -> Step:
    """Switch mode (verify starts a fresh pass)."""
    try:
        guide = g.with_mode(_running(state), cmd.mode)
    except Refusal as exc:
        return Step(state, reply=exc)
    return Step(replace(state, guide=guide), effects=(_event(guide),), reply=_reply(guide))


def guide_skip(state: TableState, cmd: c.GuideSkip, ctx: Context) -> Step:
    """Leave the next component out."""
    try:
        guide = g.skip(_running(state))
    except Refusal as exc:
        return Step(state, reply=exc)
    return Step(replace(state, guide=guide), effects=(_event(guide),), reply=_reply(guide))


def guide_undo(state: TableState, cmd: c.GuideUndo, ctx: Context) -> Step:
    """Take back the last enrollment (its card is forgotten) or skip."""
    try:
        guide, uid = g.undo(_running(state))
    except Refusal as exc:
        return Step(state, reply=exc)
    rows: tuple[Row, ...] = () if uid is None else (DeleteCard(uid),)
    effects: tuple[Effect, ...] = (_event(guide),) if uid is None else (
        _event(guide), PublishHost(HostEvent.CARD_ENROLLED, {"uid": uid, "forgotten": True}))
    return Step(replace(state, guide=guide), rows, effects, _reply(guide))


def guide_stop(state: TableState, cmd: c.GuideStop, ctx: Context) -> Step:
    """End the guide and enrollment mode."""
    state, effects = publish(replace(state, enrolling=False, guide=None), ctx)
    return Step(state, effects=tuple(effects) + (_event(None),), reply={"guide": None})


def guide_tap(state: TableState, guide: g.Guide, uid: str, zone: str, ctx: Context) -> Step:
    """A tag placed while a guide runs: enroll it, name it or tick it off; the reader's zone flashes the result."""
    guide, card = g.tap(guide, uid, zone, ctx.cards.get(uid))
    result = guide.last.result if guide.last is not None else g.TapResult.DONE
    effects: list[Effect] = [Flash(zone, g.CONFIRM[result])]
    rows: tuple[Row, ...] = ()
    if card is not None:  # one event per tap: pages that follow enrollment refetch on either
        rows = (WriteCards((card,)),)
        effects.append(PublishHost(HostEvent.CARD_ENROLLED, {"uid": card.uid, "guide": True}))
    else:
        effects.append(_event(guide))
    return Step(replace(state, guide=guide), rows, tuple(effects), _reply(guide), fault_zone=zone)


HANDLERS: dict[type, Any] = {c.GuideStart: guide_start, c.GuideSetMode: guide_mode, c.GuideSkip: guide_skip,
            c.GuideUndo: guide_undo, c.GuideStop: guide_stop}
"""Guide command type -> handler; read-only."""
