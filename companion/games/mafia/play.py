"""The actions: the night's secret choices and dawn, the day's open vote, and the end of the game."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.contract import IllegalAction, Outcome
from companion.games.log import Log
from companion.games.mafia.codes import Phase, Reason
from companion.games.mafia.state import DETECTIVE, MAFIA, NIGHT_ACTION, TOWN, State, note, secret, side
from companion.games.rules import LogEntry


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
        raise IllegalAction("target_dead", f"seat {target} is out of the game")
    if target == seat:
        raise IllegalAction("target_self", "choose another seat")


def apply_night(s: State, kind: str, seat: int, target: int) -> State:
    """One seat's night choice: the mafia's pick (seen by the living mafia), the detective's check (answered to
    the detective at once) or a town seat's suspicion (its own note); the last choice brings the dawn."""
    check_target(s, seat, target)
    role = s.roles[seat]
    if NIGHT_ACTION[role] != kind:
        raise IllegalAction("not_your_role", f"{kind} is not the night choice of this seat's role")
    picks = s.picks
    if role == MAFIA:
        if s.roles[target] == MAFIA:
            raise IllegalAction("target_mafia", "the mafia cannot pick one of their own")
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
