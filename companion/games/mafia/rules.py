"""The Mafia engine (docs/RULES.md, Mafia): the deal, the night's secret choices and dawn, the day's open vote, the
end of the game, each seat's legal actions, the views (each viewer sees only what it may know) and the reveal
after the game, and the Rules subclass (`RULES`)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Hashable, Iterable, Iterator, Mapping

from companion.games.contract import CHANCE, Outcome, Refusal
from companion.games.log import Log
from companion.games.mafia.state import (ALLOWED, CODES, DETECTIVE, LOG_CODES, MAFIA, NIGHT_ACTION, ROLES,
                                         PUBLIC_CODES, TOWN, Phase, Reason, State, mafia_count, note, role_mix,
                                         secret, side)
from companion.games.reveal import RevealLine
from companion.games.rules import LogEntry, Rules
from companion.games.schema import ActionSpec, Field, list_of, one_of, seat

# --- the night, dawn, the day's vote and the end ----------------------------------------------------------

def living(s: State) -> frozenset[int]:
    """The seats still in the game."""
    return frozenset(i for i in range(s.seats) if s.alive[i])


def night_falls(s: State, log: Log[LogEntry], round_: int) -> State:
    """Night `round_`: every living seat is to make its choice."""
    return replace(s, phase=Phase.NIGHT, round=round_, pending=living(s), picks=(),
                   votes=(None,) * s.seats, log=log.append(note("night", round=round_)))


def check_target(s: State, seat: int, target: int) -> None:
    """The public checks of any choice, the same for every role: a living seat other than one's own."""
    if not s.alive[target]:
        raise Refusal("target_dead", f"seat {target} is out of the game")
    if target == seat:
        raise Refusal("target_self", "choose another seat")


def apply_night(s: State, kind: str, seat: int, target: int) -> State:
    """One seat's night choice: the mafia's pick (seen by the living mafia), the detective's check (answered to
    the detective at once) or a town seat's suspicion (its own note); the last choice brings the dawn."""
    check_target(s, seat, target)
    role = s.roles[seat]
    if NIGHT_ACTION[role] != kind:
        raise Refusal("not_your_role", f"{kind} is not the night choice of this seat's role")
    picks = s.picks
    if role == MAFIA:
        if s.roles[target] == MAFIA:
            raise Refusal("target_mafia", "the mafia cannot pick one of their own")
        picks = picks + ((seat, target),)
        entry = secret(living_mafia(s), "mafia_pick", seat=seat, target=target)
    elif role == DETECTIVE:
        entry = secret(frozenset((seat,)), "checked", seat=seat, target=target, side=side(s.roles[target]))
    else:
        entry = secret(frozenset((seat,)), "suspected", seat=seat, target=target)
    s = replace(s, picks=picks, pending=s.pending - {seat}, log=s.log.append(entry),
                checks=s.checks + ((seat, target),) if role == DETECTIVE else s.checks)
    return s if s.pending else dawn(s)


def living_mafia(s: State) -> frozenset[int]:
    """The mafia seats still in the game."""
    return frozenset(i for i in range(s.seats) if s.alive[i] and s.roles[i] == MAFIA)


def victim(s: State) -> int:
    """The seat most of tonight's mafia picks name; between picks named as often, the latest one (the last mafia
    to choose saw the others' picks and settles it). Some mafia is alive at night, so there is a pick."""
    counted = Counter(target for _, target in s.picks)
    most = max(counted.values())
    return next(target for _, target in reversed(s.picks) if counted[target] == most)


def dawn(s: State) -> State:
    """The night's victim leaves the game (its role shown), the game may end, else the day's vote opens."""
    target = victim(s)
    s = replace(s, alive=s.alive[:target] + (False,) + s.alive[target + 1:], victim=target, picks=())
    log = s.log.append(note("killed", target=target, role=s.roles[target]))
    over = ended(s, log)
    if over is not None:
        return over
    return replace(s, phase=Phase.DAY, pending=living(s), votes=(None,) * s.seats, log=log)


def apply_vote(s: State, seat: int, target: int | None) -> State:
    """An open vote for a seat, or an abstention (None); the last vote settles the day."""
    if target is not None:
        check_target(s, seat, target)
    s = replace(s, votes=s.votes[:seat] + (target,) + s.votes[seat + 1:], pending=s.pending - {seat})
    return s if s.pending else dusk(s)


def dusk(s: State) -> State:
    """A seat with the votes of more than half of the living seats leaves the game (its role shown), else
    nobody; the game may end, else the next night falls."""
    counted = Counter(v for i, v in enumerate(s.votes) if s.alive[i] and v is not None)
    voters = len(living(s))
    target, count = counted.most_common(1)[0] if counted else (None, 0)
    if target is None or 2 * count <= voters:
        log = s.log.append(note("spared"))
    else:
        s = replace(s, alive=s.alive[:target] + (False,) + s.alive[target + 1:])
        log = s.log.append(note("eliminated", target=target, role=s.roles[target], count=count))
    over = ended(s, log)
    return over if over is not None else night_falls(s, log, s.round + 1)


def ended(s: State, log: Log[LogEntry]) -> State | None:
    """The game over when no mafia is left (the town wins) or the mafia equal the rest (the mafia win)."""
    mafia = len(living_mafia(s))
    rest = len(living(s)) - mafia
    if mafia and mafia < rest:
        return None
    reason, won = (Reason.MAFIA_GONE, TOWN) if not mafia else (Reason.MAFIA_EQUAL, MAFIA)
    winners = frozenset(i for i in range(s.seats) if side(s.roles[i]) == won)
    log = log.append(note("game_over", reason=reason.value, winners=tuple(sorted(winners))))
    return replace(s, phase=Phase.GAME_OVER, pending=frozenset(), log=log, result=Outcome(winners, reason))


# --- the deal (the one chance action) ---------------------------------------------------------------------

def check_deal(s: State, roles: tuple[str, ...]) -> None:
    """One role per seat, in the seat count's mix."""
    if len(roles) != s.seats:
        raise Refusal("wrong_role_count", f"expected {s.seats} roles (one per seat), got {len(roles)}")
    mafia, detectives, town = role_mix(s.seats)
    if (roles.count(MAFIA), roles.count(DETECTIVE), roles.count(TOWN)) != (mafia, detectives, town):
        raise Refusal("wrong_role_mix", f"{s.seats} seats take {mafia} mafia, {detectives} detective and "
                                              f"{town} town")


def apply_deal(s: State, roles: tuple[str, ...]) -> State:
    """Roles are dealt; the first night falls."""
    check_deal(s, roles)
    log = s.log.append(note("dealt", mafia=mafia_count(s.seats)))
    return night_falls(replace(s, roles=roles), log, 1)


def sample_deal(s: State, rng: random.Random) -> dict[str, Any]:
    """A shuffled role mix."""
    mafia, detectives, town = role_mix(s.seats)
    roles = [MAFIA] * mafia + [DETECTIVE] * detectives + [TOWN] * town
    rng.shuffle(roles)
    return {"type": "deal", "seat": CHANCE, "roles": roles}


# --- legal actions ----------------------------------------------------------------------------------------

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


# --- views and the reveal ---------------------------------------------------------------------------------

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


# --- the actions and the Rules subclass ------------------------------------------------------------------

_TARGET = Field(seat())

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "deal": ActionSpec({"roles": Field(list_of(one_of(*ROLES)))}, chance=True,
                       handler=lambda s, a: apply_deal(s, a["roles"])),
    "kill": ActionSpec({"target": _TARGET}, handler=lambda s, a: apply_night(s, "kill", a["seat"], a["target"])),
    "check": ActionSpec({"target": _TARGET}, handler=lambda s, a: apply_night(s, "check", a["seat"], a["target"])),
    "suspect": ActionSpec({"target": _TARGET},
                          handler=lambda s, a: apply_night(s, "suspect", a["seat"], a["target"])),
    "vote": ActionSpec({"target": _TARGET}, handler=lambda s, a: apply_vote(s, a["seat"], a["target"])),
    "abstain": ActionSpec({}, handler=lambda s, a: apply_vote(s, a["seat"], None)),
})
"""The action vocabulary of docs/RULES.md, Mafia, each type with its handler."""

_ONLY_CHANCE = frozenset({CHANCE})


class Mafia(Rules[State]):
    """Mafia (also called Werewolf), 5-12 seats, as ruled in docs/RULES.md, Mafia."""

    name = "mafia"
    title = "Mafia"
    min_seats = 5
    max_seats = 12
    actions = ACTIONS
    phase_actions = ALLOWED
    phase_type = Phase
    reason_type = Reason
    own_codes = CODES
    own_public_codes = PUBLIC_CODES
    log_codes = LOG_CODES
    option_defaults = MappingProxyType({})
    quick_playout_seeds = 8
    """The default suite plays 8 random seeds per seat count (eight counts, ~10 s in all), `make soak` all 100:
    the harness builds every seat's view at every step, ~0.5 s a game at 12 seats."""

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        return State(seats=seats, phase=Phase.DEAL, alive=(True,) * seats, votes=(None,) * seats)

    def _to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.DEAL:
            return _ONLY_CHANCE
        return state.pending

    def choices_key(self, state: State, seat: int) -> Hashable | None:
        """What a seat's legal actions are built from: the phase, who is in the game and (at night) the roles."""
        return state.phase, state.alive, state.roles

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        return sample_deal(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return public_view(state)
        view = public_view(state, seat)
        view.update(seat_own(state, seat))
        return view

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return seat_own(state, seat)

    def _outcome(self, state: State) -> Outcome | None:
        return state.result

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)

    def _winning_sides(self, state: State, outcome: Outcome) -> list[str]:
        return [MAFIA] if outcome.reason == Reason.MAFIA_EQUAL else [TOWN]


RULES = Mafia()
"""The engine instance the registry hands out."""
