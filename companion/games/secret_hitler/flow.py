"""Shared steps of the game flow: the rotation, term limits, failed elections, enacting, reshuffles, the end."""

from __future__ import annotations

from companion.games.contract import Outcome
from companion.games.log import Log
from companion.games.secret_hitler.codes import Reason
from companion.games.secret_hitler.state import (
    CHAOS_AT, F, FASCIST_WIN, HITLER, L, LIBERAL, LIBERAL_WIN, POWER_PHASE, POWERS, Entry, Phase, State, evolve, note,
)


def living_after(alive: tuple[bool, ...], seat: int) -> int:
    """The next living seat clockwise after `seat`."""
    n = len(alive)
    nxt = (seat + 1) % n
    while not alive[nxt]:
        nxt = (nxt + 1) % n
    return nxt


def term_limited(s: State) -> list[int]:
    """Living seats barred from the chancellorship now: the last elected government (only its chancellor
    with five or fewer living seats)."""
    barred = set()
    if s.last_chancellor is not None and s.alive[s.last_chancellor]:
        barred.add(s.last_chancellor)
    if s.last_president is not None and s.alive[s.last_president] and sum(s.alive) > 5:
        barred.add(s.last_president)
    return sorted(barred)


def new_round(s: State, log: Log[Entry]) -> State:
    """The presidency passes to the next living seat after the rotation seat; a nomination is awaited."""
    nxt = living_after(s.alive, s.rotation)
    return evolve(
        s, phase=Phase.NOMINATE, president=nxt, rotation=nxt, chancellor=None, hand=(), veto_refused=False, log=log,
    )


def game_over(s: State, log: Log[Entry], liberals_win: bool, reason: Reason) -> State:
    """The finished game: the whole winning party wins, dead or alive."""
    if liberals_win:
        winners = frozenset(i for i, r in enumerate(s.roles) if r == LIBERAL)
    else:
        winners = frozenset(i for i, r in enumerate(s.roles) if r != LIBERAL)
    entry = note("game_over", reason=reason.value, winners=tuple(sorted(winners)))
    return evolve(s, phase=Phase.GAME_OVER, hand=(), log=log.append(entry), result=Outcome(winners, reason))


def reshuffle_check(s: State, log: Log[Entry]) -> tuple[State, Log[Entry]]:
    """With fewer than 3 tiles left, draw and discard piles are shuffled together; a peek is forgotten."""
    if s.draw_l + s.draw_f >= 3:
        return s, log
    s = evolve(
        s, draw_l=s.draw_l + s.disc_l, draw_f=s.draw_f + s.disc_f, disc_l=0, disc_f=0, peeked=(), peeker=None,
    )
    entry = note("reshuffled", draw_pile=s.draw_l + s.draw_f, discard_pile=0)
    return s, log.append(entry)


def move_tracker(s: State, log: Log[Entry]) -> State:
    """The election tracker moves +1 (the caller's log entry says so): at 3 chaos awaits the top tile, else
    the presidency moves on."""
    tracker = s.tracker + 1
    if tracker >= CHAOS_AT:
        return evolve(s, phase=Phase.CHAOS, tracker=tracker, chancellor=None, hand=(), log=log)
    return new_round(evolve(s, tracker=tracker), log)


def enact(s: State, policy: str, log: Log[Entry], chaos: bool) -> State:
    """Put a policy on its track; win check, reshuffle check, then the power (never after chaos) or the
    next round."""
    liberal = s.liberal + (policy == L)
    fascist = s.fascist + (policy == F)
    log = log.append(note("chaos" if chaos else "enacted", policy=policy))
    s = evolve(s, liberal=liberal, fascist=fascist, tracker=0, hand=())
    if chaos:
        s = evolve(s, last_president=None, last_chancellor=None)
    if liberal >= LIBERAL_WIN:
        return game_over(s, log, True, Reason.LIBERAL_POLICIES)
    if fascist >= FASCIST_WIN:
        return game_over(s, log, False, Reason.FASCIST_POLICIES)
    s, log = reshuffle_check(s, log)
    if policy == F and not chaos:
        power = POWERS[s.seats][fascist]
        if power is not None:
            return evolve(s, phase=POWER_PHASE[power], log=log)
    return new_round(s, log)


def hitler_chancellor(s: State) -> bool:
    """Whether the chancellor just elected is Hitler."""
    return s.chancellor is not None and s.roles[s.chancellor] == HITLER
