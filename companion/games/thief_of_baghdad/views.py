"""Public and seat views: a projection that never shows the pile's make-up or another seat's hand."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from companion.games.log import Log
from companion.games.memo import Memo
from companion.games.thief_of_baghdad.board import CARD_NAMES, COLORS, NEUTRAL, PALACES, WIN_CHESTS
from companion.games.thief_of_baghdad.state import HAND_WIDTH, Event, State

VIEWS_SLOT = "thief_of_baghdad.views"
"""Memo slot of the last publish's pieces of the views (`Built`; key: the state they were built from)."""


NO_ROWS: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Built:
    """The pieces of one publish's views, each a pure function of the state fields named, and the log index
    of each public log entry shown (shared from publish to publish: never mutated)."""

    palaces: list[dict[str, Any]]
    """Read: seats, guards, thieves, chests."""
    players: list[dict[str, Any]]
    """Read: seats, supply, unplaced, won, hands."""
    parts: tuple[dict[str, Any], ...]
    """Read: seats, hands."""
    log: list[dict[str, Any]]
    """Read: log, log_from."""
    shown: tuple[int, ...]
    """The log index of each entry of `log`."""


def _jsonable(value: Any) -> Any:
    """Tuples (as stored in log params) become lists."""
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _entry(e: Event) -> dict[str, Any]:
    """One log entry as a view shows it."""
    return {"code": e.code, "params": {k: _jsonable(v) for k, v in e.params}}


def log_entries(entries: tuple[Event, ...], seat: int | None) -> list[dict[str, Any]]:
    """Log entries as this viewer may read them: private entries only for their seat."""
    return [_entry(e) for e in entries if e.to is None or (seat is not None and seat in e.to)]


def hand_cards(counts: bytes) -> list[str]:
    """A hand as a list of card names, in colour order, dancers last."""
    return [name for name, n in zip(CARD_NAMES, counts) for _ in range(n)]


def _palace(state: State, palace: int) -> dict[str, Any]:
    n = state.seats
    guards = state.guards_at(palace)
    return {
        "color": COLORS[palace],
        "guards": [owner for owner in range(n) for _ in range(guards[owner])] + [NEUTRAL] * guards[n],
        "thieves": list(state.thieves[palace * n:(palace + 1) * n]),
        "chests": list(state.chest_values(palace)),
    }


def _player(state: State, seat: int) -> dict[str, Any]:
    """A seat's public entry: its supply, guards to place, chests won and hand size."""
    return {"supply": state.supply[seat], "guards_unplaced": state.unplaced[seat], "chests": state.won[seat],
            "hand_size": sum(state.hand(seat))}


def _public(state: State, palaces: list[dict[str, Any]], players: list[dict[str, Any]],
            log: list[dict[str, Any]]) -> dict[str, Any]:
    """The public view around its built pieces."""
    return {
        "phase": state.phase.value,
        "turn": state.turn,
        "palaces": palaces,
        "players": players,
        "thief_moves": state.thief_moves,
        "acted": state.acted,
        "deck": sum(state.pile),
        "discard": sum(state.discard),
        "dancers": state.dancers,
        "draw_pending": state.pending_draw,
        "chests_to_win": WIN_CHESTS[state.seats],
        "winner": state.winner,
        # The previous and the current turn only; the whole game is the journal of actions.
        "log": log,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of one seat (its hand added) or the public (seat None)."""
    out = _public(state, [_palace(state, p) for p in range(PALACES)],
                  [_player(state, s) for s in range(state.seats)], log_entries(state.log[state.log_from:], seat))
    if seat is not None:
        out.update(seat_own(state, seat))
    return out


def seat_own(state: State, seat: int) -> dict[str, Any]:
    """What this seat adds to the public view: its seat number and its hand."""
    return {"seat": seat, "hand": hand_cards(state.hand(seat))}


def views(state: State, memo: Memo) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The public view and every seat's part of it (its seat number and hand: no public field has those
    names), each piece reused from the last publish while the state fields it reads are the same."""
    last = memo.last(VIEWS_SLOT)
    if last is None or last[0].seats != state.seats:
        built = _built(state)
    elif last[0] is state:
        built = last[1]
    else:
        built = _rebuilt(state, last[0], last[1])
    memo.put(VIEWS_SLOT, state, built)
    return _public(state, built.palaces, built.players, built.log), built.parts


def _built(state: State) -> Built:
    """Every piece built anew."""
    log, shown = _public_entries(state.log, state.log_from)
    return Built([_palace(state, p) for p in range(PALACES)], [_player(state, s) for s in range(state.seats)],
                 tuple(seat_own(state, s) for s in range(state.seats)), log, shown)


def _rebuilt(state: State, was: State, old: Built) -> Built:
    """The pieces for `state` from those built for `was` (the same seat count): an unchanged field is the
    same bytes object from one state to the next, and of a changed one only the palaces or seats whose
    slice differs are built again."""
    n = state.seats
    moved = _rows(state.guards, was.guards, n + 1) | _rows(state.thieves, was.thieves, n) \
        | _rows(state.chests, was.chests, 1)
    palaces = [_palace(state, p) if p in moved else old.palaces[p] for p in range(PALACES)] if moved \
        else old.palaces
    held = _rows(state.hands, was.hands, HAND_WIDTH)
    counted = held | _rows(state.supply, was.supply, 1) | _rows(state.unplaced, was.unplaced, 1) \
        | _rows(state.won, was.won, 1)
    players = [_player(state, s) if s in counted else old.players[s] for s in range(n)] if counted \
        else old.players
    parts = tuple(seat_own(state, s) if s in held else old.parts[s] for s in range(n)) if held else old.parts
    log, start = state.log, state.log_from
    if log is was.log and start == was.log_from:
        entries, shown = old.log, old.shown
    elif start >= was.log_from and log.starts_with(was.log):
        # the log grew from the last one and shows from the same entry or a later one: the entries still
        # shown are the end of the last rendering, then the new ones
        keep = bisect_left(old.shown, start)
        new, at = _public_entries(log, max(start, len(was.log)))
        entries, shown = old.log[keep:] + new, old.shown[keep:] + at
    else:
        entries, shown = _public_entries(log, start)
    return Built(palaces, players, parts, entries, shown)


def _rows(new: bytes, old: bytes, width: int) -> frozenset[int]:
    """The rows of `width` bytes where two fields of the same length differ (none at a glance when they
    are the same object, as an unchanged field of the next state is)."""
    if new is old:
        return NO_ROWS
    return frozenset(r for r in range(len(new) // width) if new[r * width:r * width + width]
                     != old[r * width:r * width + width])


def _public_entries(log: Log[Event], start: int) -> tuple[list[dict[str, Any]], tuple[int, ...]]:
    """The public entries of `log` from index `start` as views show them, and their indices."""
    entries: list[dict[str, Any]] = []
    shown: list[int] = []
    for i, e in enumerate(log[start:], start):
        if e.to is None:
            entries.append(_entry(e))
            shown.append(i)
    return entries, tuple(shown)
