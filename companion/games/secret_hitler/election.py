"""Nomination and the secret, simultaneous vote."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.contract import Refusal
from companion.games.secret_hitler.flow import game_over, hitler_chancellor, move_tracker, term_limited
from companion.games.secret_hitler.codes import Reason
from companion.games.secret_hitler.state import HITLER_ZONE, JA, NEIN, Phase, State, evolve, note, with_vote


def check_nominee(s: State, target: int) -> None:
    """Any other living seat that is not term-limited."""
    if target == s.president:
        raise Refusal("nominate_self", "the president cannot nominate themself")
    if not s.alive[target]:
        raise Refusal("target_dead", f"seat {target} is dead")
    if target in term_limited(s):
        raise Refusal("term_limited", f"seat {target} is term-limited")


def nominees(s: State) -> list[int]:
    """Seats the president may nominate now."""
    barred = term_limited(s)
    return [t for t in range(s.seats) if s.alive[t] and t != s.president and t not in barred]


def apply_nominate(s: State, a: Mapping[str, Any]) -> State:
    """A chancellor candidate is named; a fresh vote opens."""
    target = a["target"]
    check_nominee(s, target)
    entry = note("nominated", president=s.president, chancellor=target)
    voters = frozenset(i for i in range(s.seats) if s.alive[i])
    return evolve(
        s, phase=Phase.VOTE, chancellor=target, votes=(None,) * s.seats, pending=voters, revealed=False,
        log=s.log.append(entry),
    )


def apply_vote(s: State, a: Mapping[str, Any]) -> State:
    """A vote is held hidden; the last one reveals all and settles the election."""
    seat, vote = a["seat"], a["vote"]
    votes = s.votes[:seat] + (vote,) + s.votes[seat + 1:]
    pending = s.pending - {seat}
    if pending:
        return with_vote(s, votes, pending)
    ja = votes.count(JA)
    nein = votes.count(NEIN)
    passed = ja > nein
    tracker = s.tracker if passed else s.tracker + 1
    entry = note("votes", votes=votes, passed=passed, election_tracker=tracker)
    s = evolve(s, votes=votes, pending=pending, revealed=True)
    log = s.log.append(entry)
    if not passed:
        return move_tracker(s, log)
    s = evolve(s, last_president=s.president, last_chancellor=s.chancellor)
    if s.fascist >= HITLER_ZONE and hitler_chancellor(s):
        return game_over(s, log, False, Reason.HITLER_ELECTED)
    return evolve(s, phase=Phase.DRAW, log=log)
