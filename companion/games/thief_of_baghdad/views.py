"""Public and seat views: a projection that never shows the pile's make-up or another seat's hand."""

from __future__ import annotations

from typing import Any

from companion.games.thief_of_baghdad.board import CARD_NAMES, COLORS, NEUTRAL, WIN_CHESTS
from companion.games.thief_of_baghdad.state import Event, State


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


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of one seat (its hand added) or the public (seat None)."""
    out: dict[str, Any] = {
        "phase": state.phase.value,
        "turn": state.turn,
        "palaces": [_palace(state, p) for p in range(len(COLORS))],
        "players": [
            {
                "supply": state.supply[s],
                "guards_unplaced": state.unplaced[s],
                "chests": state.won[s],
                "hand_size": sum(state.hand(s)),
            }
            for s in range(state.seats)
        ],
        "thief_moves": state.thief_moves,
        "acted": state.acted,
        "deck": sum(state.pile),
        "discard": sum(state.discard),
        "dancers": state.dancers,
        "draw_pending": state.pending_draw,
        "chests_to_win": WIN_CHESTS[state.seats],
        "winner": state.winner,
        # The previous and the current turn only; the whole game is the journal of actions.
        "log": log_entries(state.log[state.log_from:], seat),
    }
    if seat is not None:
        out.update(seat_own(state, seat))
    return out


def seat_own(state: State, seat: int) -> dict[str, Any]:
    """What this seat adds to the public view: its seat number and its hand."""
    return {"seat": seat, "hand": hand_cards(state.hand(seat))}
