"""Where a refused input is told. Everyone sees which zone was not accepted (its red flash and a `rejected`
event) and hears the code only when the refusal says it is public (`Refusal.public`): a table code such as
`two_tags_on_reader`, the contract's codes the engine checks first from the action's shape, `to_act` and the
phase, and the codes the game declares public (`Rules.public_codes`, `Rules.public_binding_codes`; the kit
marks them as it raises them). The host's stream hears every
code with the seat it concerns, and the acting seat's own channel (its terminal's error, its page's state)
keeps the seat's last refusal, so a chancellor's wrong tile is explained to the chancellor alone."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.binding import seat_of
from companion.games.contract import CHANCE, Refusal
from companion.table.core.effects import Effect, Flash, Publish, PublicEvent
from companion.table.core.state import TableState
from companion.table.core.values import evolve
from companion.table.session import Session

TABLE_PUBLIC_CODES = frozenset({"no_game", "table_paused", "two_tags_on_reader"})
"""The table's own refusals that everyone may read: whether a game runs, whether the table is paused and whether
two cards lie on one reader are shown on the table page, or seen on the table, anyway."""


def is_public(refusal: Refusal) -> bool:
    """Whether a refusal's code is a function of the public view (and the input's public face) alone."""
    return refusal.public


def acting_seat(zone: str, session: Session | None) -> int | None:
    """The seat a refused input came from: a seat zone's seat; at a shared reader, the one seat to act (if one
    alone is); else None (only the host hears the code)."""
    seat = seat_of(zone)
    if seat is not None or session is None:
        return seat
    acting = session.rules.to_act(session.state)
    if len(acting) == 1 and CHANCE not in acting:
        return next(iter(acting))
    return None


def refused(state: TableState, zone: str, refusal: Refusal, *,
            note: bool = True) -> tuple[TableState, tuple[Effect, ...]]:
    """The state (counted, and the acting seat's note when `note`) and the effects of one refused input."""
    session = state.session
    code, message = refusal.code, refusal.message
    counters = state.counters.add(rejected=1)
    seat = acting_seat(zone, session)
    public: Mapping[str, Any] = {"zone": zone, "code": code} if is_public(refusal) else {"zone": zone}
    host = {"zone": zone, "code": code, "seat": seat, "message": message}
    if note and seat is not None:
        notes = {**state.notes, seat: {"n": counters.rejected, "code": code, "message": message, "zone": zone}}
        state = evolve(state, counters=counters, notes=notes)
    else:
        state = evolve(state, counters=counters)
    return state, (Flash(zone), Publish(PublicEvent.REJECTED, public, host))
