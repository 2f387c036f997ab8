"""The legal actions of a seat that is to act."""

from __future__ import annotations

from typing import Any

from companion.games.secret_hitler import election, legislation, powers
from companion.games.secret_hitler.codes import Phase
from companion.games.secret_hitler.state import JA, NEIN, State


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action `apply` accepts from `seat` now (the caller checked that it is to act)."""
    phase = state.phase
    if phase is Phase.VOTE:
        return [{"type": "vote", "seat": seat, "vote": JA}, {"type": "vote", "seat": seat, "vote": NEIN}]
    if phase is Phase.NOMINATE:
        return [{"type": "nominate", "seat": seat, "target": t} for t in election.nominees(state)]
    if phase is Phase.DISCARD or phase is Phase.ENACT:
        kind = "discard" if phase is Phase.DISCARD else "enact"
        out = [{"type": kind, "seat": seat, "policy": p} for p in sorted(set(state.hand))]
        if kind == "enact" and legislation.veto_possible(state):
            out.append({"type": "veto", "seat": seat})
        return out
    if phase is Phase.VETO_REPLY:
        return [{"type": "veto_reply", "seat": seat, "agree": a} for a in (True, False)]
    if phase is Phase.INVESTIGATE:
        return [{"type": "investigate", "seat": seat, "target": t} for t in powers.investigable(state)]
    if phase is Phase.PEEK_REVIEW:
        return [{"type": "peek_done", "seat": seat}]
    kind = phase.value  # special_election or execute: any other living seat
    return [
        {"type": kind, "seat": seat, "target": t}
        for t in range(state.seats) if state.alive[t] and t != state.president
    ]
