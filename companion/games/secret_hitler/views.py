"""Public and per-seat views: projections that show each viewer only what it may know."""

from __future__ import annotations

from typing import Any, Iterable

from companion.games.log import Log
from companion.games.publishing import Published, Reuse, Views, private_part
from companion.games.rules import Rules
from companion.games.secret_hitler.flow import term_limited
from companion.games.secret_hitler.powers import party
from companion.games.secret_hitler.state import (
    FASCIST, HITLER, LIBERAL, VETO_AT, Entry, Phase, State, hitler_knows_fascists,
)
from companion.games.json_value import Json

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


def public_log(log: Log[Entry], last: tuple[Log[Entry], list[dict[str, Any]]] | None) -> list[dict[str, Any]]:
    """`render_log(log, None, False)`, extending `last` (the log the last publish rendered and its window)
    when `log` grew from it (only the new entries are rendered)."""
    if last is not None and log.starts_with(last[0]):
        return (last[1] + render_log(log[len(last[0]):], None, False))[-LOG_WINDOW:]
    return render_log(log, None, False)


def public_since(s: State, last: tuple[Log[Entry], list[dict[str, Any]]] | None) -> tuple[dict[str, Any], Any]:
    """The public view with its log window extended from the last publish's (`last`), and what the next
    publish extends (None once the game is over: its view shows the whole log)."""
    if s.phase is Phase.GAME_OVER:
        return public_view(s, None), None
    window = public_log(s.log, last)
    return public_view(s, None, window), (s.log, window)


def investigated_list(s: State) -> list[bool]:
    """Per seat: whether it has been investigated (public: investigations are announced)."""
    out = [False] * s.seats
    for _, target in s.investigated:
        out[target] = True
    return out


def public_view(s: State, seat: int | None, window: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The fields everyone may see; `seat` only selects which private log entries stay (`window`: the public
    log's, already rendered)."""
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
        "log": list(window) if window is not None else render_log(s.log, seat, over),
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


def parts_key(s: State) -> tuple[Any, ...]:
    """What `seat_own` reads: the roles, whether the game is over, the investigations, who holds the hand and
    the peek and what they hold."""
    holder = hand_holder(s)
    return (s.seats, s.roles, s.phase is Phase.GAME_OVER, s.investigated, holder,
            s.hand if holder is not None else None, s.peeker, s.peeked)


class SecretHitlerReuse(Reuse[State]):
    """A publish's public log window extended from the last one's, and every seat's part the last one's while
    what `seat_own` reads is the same (`parts_key`; no public field shares a name with a seat's own)."""

    def views_since(self, rules: Rules[State], state: State, last: Published[State] | None) -> tuple[Views, Any]:
        """The views, and the log window, parts key and parts the next publish reuses."""
        carried = None if last is None else last.carried
        public, window = public_since(state, None if carried is None else carried[0])
        key = parts_key(state)
        if carried is not None and carried[1] == key:
            parts = carried[2]
        else:
            parts = tuple([private_part(seat_own(state, seat), public) for seat in range(state.seats)])
        return (public, parts), (window, key, parts)


REUSE = SecretHitlerReuse()
"""How the table's publish reuses the last one's views."""
