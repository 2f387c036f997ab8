"""Public and per-seat views (each viewer sees only what it may know), and the reveal after the game."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from companion.games.mafia.codes import Phase
from companion.games.mafia.state import MAFIA, DETECTIVE, State, mafia_count, side
from companion.games.reveal import RevealLine
from companion.games.rules import LogEntry

LOG_WINDOW = 10
"""How many of the latest readable entries a view's `log` carries (the journal keeps the whole game)."""


def render_log(log: Iterable[LogEntry], seat: int | None, reveal_all: bool) -> list[dict[str, Any]]:
    """The latest LOG_WINDOW entries this viewer may read, oldest first, as `{code, params}` (tuples as lists)."""
    out = []
    for e in reversed(log):  # type: ignore[call-overload]
        if reveal_all or e.to is None or seat in e.to:
            out.append({"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}})
            if len(out) == LOG_WINDOW:
                break
    out.reverse()
    return out


def shown_roles(s: State) -> list[str | None]:
    """Per seat, the role everyone knows: those of seats out of the game; every role once the game is over."""
    if not s.roles:
        return [None] * s.seats
    over = s.phase is Phase.GAME_OVER
    return [r if over or not s.alive[i] else None for i, r in enumerate(s.roles)]


def public_view(s: State, seat: int | None = None) -> dict[str, Any]:
    """The fields everyone may see; `seat` only selects which private log entries stay."""
    over = s.phase is Phase.GAME_OVER
    roles = shown_roles(s)
    day = s.phase is Phase.DAY
    return {
        "phase": s.phase.value,
        "seats": s.seats,
        "round": s.round,
        "alive": list(s.alive),
        "roles": roles,
        "acted": [s.alive[i] and i not in s.pending and (day or s.phase is Phase.NIGHT) for i in range(s.seats)],
        "votes": [s.votes[i] if day and i not in s.pending else None for i in range(s.seats)],
        "victim": s.victim,
        "mafia": mafia_count(s.seats),
        "mafia_left": mafia_count(s.seats) - sum(1 for i, r in enumerate(roles) if r == MAFIA and not s.alive[i]),
        "log": render_log(s.log, seat, over),
    }


def seat_own(s: State, seat: int) -> dict[str, Any]:
    """What only this seat sees: its role and side, the mafia's partners and tonight's picks (the seats picked,
    in order), the seats the detective found on each side."""
    if not s.roles:
        return {"role": None, "side": None, "known": [None] * s.seats, "mafia_picks": [], "found_mafia": [],
                "found_town": []}
    role = s.roles[seat]
    over = s.phase is Phase.GAME_OVER
    known: list[str | None] = list(s.roles) if over else [
        r if i == seat or not s.alive[i] or (role == MAFIA and r == MAFIA) else None for i, r in enumerate(s.roles)]
    found: dict[str, list[int]] = {MAFIA: [], "town": []}
    if role == DETECTIVE:
        for detective, target in s.checks:
            if detective == seat and target not in found[side(s.roles[target])]:
                found[side(s.roles[target])].append(target)
    picks: list[int] = []
    if role == MAFIA and s.phase is Phase.NIGHT:
        picks = list(dict.fromkeys(target for _, target in s.picks))
    return {"role": role, "side": side(role), "known": known, "mafia_picks": picks, "found_mafia": found[MAFIA],
            "found_town": found["town"]}


def seat_view(s: State, seat: int) -> dict[str, Any]:
    """The public view (with this seat's private log lines) plus what only this seat sees."""
    view = public_view(s, seat)
    view.update(seat_own(s, seat))
    return view


def reveal_lines(log: Iterable[LogEntry]) -> Iterator[RevealLine]:
    """Every night's secret choices in order: the mafia's picks, the detective's checks, the town's suspicions."""
    round_ = 0
    for e in log:
        p = e.params
        if e.code == "night":
            round_ = p["round"]
        elif e.code == "mafia_pick":
            yield RevealLine("pick", {"round": round_, "seat": p["seat"], "target": p["target"]})
        elif e.code == "checked":
            yield RevealLine("check", {"round": round_, "seat": p["seat"], "target": p["target"], "side": p["side"]})
        elif e.code == "suspected":
            yield RevealLine("suspect", {"round": round_, "seat": p["seat"], "target": p["target"]})
