"""Public and seat views: a projection that never shows the pile's make-up or another seat's hand."""

from __future__ import annotations

from typing import Any

from companion.games.thief_of_baghdad.board import CARD_NAMES, COLORS, NEUTRAL, WIN_CHESTS
from companion.games.memo import Memo
from companion.games.thief_of_baghdad.state import Event, State

LOG_SLOT = "thief_of_baghdad.log"
"""Memo slot of the public log of the previous and current turn (key: the log and where it starts)."""
PALACE_SLOT = "thief_of_baghdad.palace_view"
"""Memo slot (with the palace) of a palace's public entry (key: the seat count, its guards, thieves, chests)."""
PLAYERS_SLOT = "thief_of_baghdad.players"
"""Memo slot of the public players list (key: the seat count and the byte fields it reads)."""
PART_SLOT = "thief_of_baghdad.part"
"""Memo slot (with the seat) of a seat's part of the view (key: its hand)."""


def _jsonable(value: Any) -> Any:
    """Tuples (as stored in log params) become lists."""
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def log_entries(entries: tuple[Event, ...], seat: int | None) -> list[dict[str, Any]]:
    """Log entries as this viewer may read them: private entries only for their seat."""
    return [
        {"code": e.code, "params": {k: _jsonable(v) for k, v in e.params}}
        for e in entries
        if e.to is None or (seat is not None and seat in e.to)
    ]


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


def _players(state: State) -> list[dict[str, Any]]:
    """Every seat's public entry: its supply, guards to place, chests won and hand size."""
    return [{"supply": state.supply[s], "guards_unplaced": state.unplaced[s], "chests": state.won[s],
             "hand_size": sum(state.hand(s))} for s in range(state.seats)]


def _cached_palace(state: State, palace: int, memo: Memo) -> dict[str, Any]:
    """`_palace`, reused while the palace's guards, thieves and chests are the same."""
    n = state.seats
    key = (n, state.guards_at(palace), state.thieves[palace * n:(palace + 1) * n], state.chests[palace])
    return memo.get((PALACE_SLOT, palace), key, lambda: _palace(state, palace))


def public_log(state: State, memo: Memo) -> list[dict[str, Any]]:
    """`log_entries(state.log[state.log_from:], None)`, only the entries new since the last publish rendered."""
    return memo.rendered_log(LOG_SLOT, state.log, state.log_from, lambda new: log_entries(new, None))


def seat_parts(state: State, memo: Memo) -> tuple[dict[str, Any], ...]:
    """Every seat's part of the view (its seat number and hand: no public field has those names), each
    reused while its hand is the same."""
    return tuple(memo.get((PART_SLOT, seat), state.hand(seat), lambda: seat_own(state, seat))
                 for seat in range(state.seats))


def view(state: State, seat: int | None, memo: Memo | None = None) -> dict[str, Any]:
    """The view of one seat (its hand added) or the public (seat None; `memo`: the table's, for its
    palaces, players and log)."""
    cached = memo is not None and seat is None
    out: dict[str, Any] = {
        "phase": state.phase.value,
        "turn": state.turn,
        "palaces": [_cached_palace(state, p, memo) if memo is not None and cached else _palace(state, p)
                    for p in range(len(COLORS))],
        "players": memo.get(PLAYERS_SLOT, (state.seats, state.supply, state.unplaced, state.won, state.hands),
                            lambda: _players(state)) if memo is not None and cached else _players(state),
        "thief_moves": state.thief_moves,
        "acted": state.acted,
        "deck": sum(state.pile),
        "discard": sum(state.discard),
        "dancers": state.dancers,
        "draw_pending": state.pending_draw,
        "chests_to_win": WIN_CHESTS[state.seats],
        "winner": state.winner,
        # The previous and the current turn only; the whole game is the journal of actions.
        "log": public_log(state, memo) if memo is not None and cached
        else log_entries(state.log[state.log_from:], seat),
    }
    if seat is not None:
        out.update(seat_own(state, seat))
    return out


def seat_own(state: State, seat: int) -> dict[str, Any]:
    """What this seat adds to the public view: its seat number and its hand."""
    return {"seat": seat, "hand": hand_cards(state.hand(seat))}
