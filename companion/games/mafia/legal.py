"""The legal actions of a seat that is to act."""

from __future__ import annotations

from typing import Any

from companion.games.mafia.codes import Phase
from companion.games.mafia.state import MAFIA, NIGHT_ACTION, State


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action `apply` accepts from `seat` now (the caller checked that it is to act): at night its role's
    choice of another living seat (the mafia: a seat outside the mafia), by day a vote for another living seat
    or an abstention."""
    others = [t for t in range(state.seats) if state.alive[t] and t != seat]
    if state.phase is Phase.DAY:
        return [{"type": "vote", "seat": seat, "target": t} for t in others] + [{"type": "abstain", "seat": seat}]
    role = state.roles[seat]
    if role == MAFIA:
        others = [t for t in others if state.roles[t] != MAFIA]
    return [{"type": NIGHT_ACTION[role], "seat": seat, "target": t} for t in others]
