"""Public and per-seat views: projections that show each viewer only what it may know."""

from __future__ import annotations

from typing import Iterable, Mapping

from companion.games.log import Log
from companion.games.memo import Memo
from companion.games.rules import private_part
from companion.games.secret_hitler.flow import term_limited
from companion.games.secret_hitler.powers import party
from companion.games.secret_hitler.state import (
    FASCIST, HITLER, LIBERAL, VETO_AT, Entry, Phase, State, hitler_knows_fascists,
)
from companion.games.json_value import Json, JsonObject

LOG_SLOT = "secret_hitler.log"
"""The memo slot of the public log window (key: the log it was rendered from)."""
PARTS_SLOT = "secret_hitler.parts"
"""The memo slot of every seat's part (key: the state fields `seat_own` reads)."""

LOG_WINDOW = 10
"""How many of the latest readable entries a view's `log` carries (the journal keeps the whole game): views
go to every seat on every change, so they stay small."""


def render_log(log: Iterable[Entry], seat: int | None, reveal_all: bool) -> list[dict[str, Json]]:
    """The latest LOG_WINDOW entries this viewer may read, oldest first, as `{code, params}` (tuples become
    lists); private entries (LogEntry.to) only for their seats."""
    out = []
    for e in reversed(log):  # type: ignore[call-overload]
        if e.to is None or reveal_all or seat in e.to:
            params = dict(e.params)
            for key in e.lists:
                params[key] = list(params[key])
            out.append({"code": e.code, "params": params})
            if len(out) == LOG_WINDOW:
                break
    out.reverse()
    return out


def public_log(log: Log[Entry], memo: Memo) -> list[dict[str, Json]]:
    """`render_log(log, None, False)`, extending the window the last publish rendered when `log` grew from
    that publish's log (only the new entries are rendered)."""
    last = memo.last(LOG_SLOT)
    if last is not None and log.starts_with(last[0]):
        window = last[1] + render_log(log[len(last[0]):], None, False)
        window = window[-LOG_WINDOW:]
    else:
        window = render_log(log, None, False)
    memo.put(LOG_SLOT, log, window)
    return list(window)


def investigated_list(s: State) -> list[bool]:
    """Per seat: whether it has been investigated (public: investigations are announced)."""
    out = [False] * s.seats
    for _, target in s.investigated:
        out[target] = True
    return out


def public_view(s: State, seat: int | None, memo: Memo | None = None) -> dict[str, Json]:
    """The fields everyone may see; `seat` only selects which private log entries stay (`memo`: the table's,
    for the public log)."""
    over = s.phase is Phase.GAME_OVER
    view: dict[str, Json] = {
        "phase": s.phase.value,
        "seats": s.seats,
        "president": s.president,
        "chancellor": s.chancellor,
        "liberal_policies": s.liberal,
        "fascist_policies": s.fascist,
        "election_tracker": s.tracker,
        "alive": list(s.alive),
        "draw_pile": s.draw_l + s.draw_f,
        "discard_pile": s.disc_l + s.disc_f,
        "voted": [v is not None for v in s.votes],
        "votes": list(s.votes) if s.revealed else [None] * s.seats,
        "term_limited": term_limited(s),
        "veto_unlocked": s.fascist >= VETO_AT,
        "investigated": investigated_list(s),
        "log": public_log(s.log, memo) if memo is not None and seat is None and not over
        else render_log(s.log, seat, over),
    }
    if over:
        view["roles"] = list(s.roles)
    return view


def known_roles(s: State, seat: int) -> list[str | None]:
    """The role `seat` knows for every seat: its own; fascists see fascists and Hitler; Hitler sees the
    fascists only with 5-6 seats; everything once the game is over."""
    if not s.roles:
        return [None] * s.seats
    if s.phase is Phase.GAME_OVER:
        return list(s.roles)
    mine = s.roles[seat]
    if mine == FASCIST:
        out: list[str | None] = [None if r == LIBERAL else r for r in s.roles]
    elif mine == HITLER and hitler_knows_fascists(s.seats):
        out = [r if r == FASCIST else None for r in s.roles]
    else:
        out = [None] * s.seats
    out[seat] = mine
    return out


def hand_holder(s: State) -> int | None:
    """The seat holding the legislative tiles now, if any."""
    if s.phase is Phase.DISCARD:
        return s.president
    if s.phase is Phase.ENACT or s.phase is Phase.VETO_REPLY:
        return s.chancellor
    return None


def holds_hand(s: State, seat: int) -> bool:
    """Whether `seat` holds the legislative tiles now."""
    holder = hand_holder(s)
    return holder is not None and holder == seat


def seat_own(s: State, seat: int) -> dict[str, Json]:
    """What only this seat sees: its role, knowledge, hand, peek and investigation results."""
    role = s.roles[seat] if s.roles else None
    learned: list[str | None] = [None] * s.seats
    for investigator, target in s.investigated:
        if investigator == seat:
            learned[target] = party(s.roles[target])
    return {
        "role": role,
        "party": party(role) if role else None,
        "known": known_roles(s, seat),
        "hand": list(s.hand) if holds_hand(s, seat) else [],
        "peek": list(s.peeked) if s.peeker == seat and s.peeked else [],
        "investigations": learned,
    }


def seat_view(s: State, seat: int) -> dict[str, Json]:
    """The public view (with this seat's private log lines) plus what only this seat sees."""
    view = public_view(s, seat)
    view.update(seat_own(s, seat))
    return view


def seat_parts(s: State, public: JsonObject, memo: Memo) -> tuple[dict[str, Json], ...]:
    """Every seat's part of the view (`private_part` of its seat view), reused while what `seat_own` reads
    is the same: the roles, whether the game is over, the investigations, who holds the hand and the peek and
    what they hold (no public field shares a name with a seat's own)."""
    holder = hand_holder(s)
    key = (s.seats, s.roles, s.phase is Phase.GAME_OVER, s.investigated, holder, s.hand if holder is not None
           else None, s.peeker, s.peeked)
    return memo.get(PARTS_SLOT, key, lambda: tuple(private_part(seat_own(s, seat), public)
                                                   for seat in range(s.seats)))
