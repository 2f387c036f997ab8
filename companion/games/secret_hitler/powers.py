"""Presidential powers: investigate, special election, peek (review) and execute."""

from __future__ import annotations

from companion.games.contract import Refusal
from companion.games.secret_hitler.flow import game_over, new_round
from companion.games.secret_hitler.codes import Reason
from companion.games.secret_hitler.state import FASCIST, HITLER, LIBERAL, Phase, State, evolve, note, secret


def party(role: str) -> str:
    """Party membership: Hitler's is fascist."""
    return LIBERAL if role == LIBERAL else FASCIST


def check_other_living(s: State, target: int) -> None:
    """Powers target another living seat."""
    if target == s.president:
        raise Refusal("target_self", "the president cannot target themself")
    if not s.alive[target]:
        raise Refusal("target_dead", f"seat {target} is dead")


def investigable(s: State) -> list[int]:
    """Seats the president may investigate: other, living, never investigated."""
    done = {t for _, t in s.investigated}
    return [t for t in range(s.seats) if s.alive[t] and t != s.president and t not in done]


def apply_investigate(s: State, target: int) -> State:
    """The president learns the target's party; everyone learns who was investigated."""
    check_other_living(s, target)
    if any(t == target for _, t in s.investigated):
        raise Refusal("already_investigated", f"seat {target} has already been investigated")
    president = s.president
    entries = (
        note("investigated", president=president, target=target),
        secret(president, "party", target=target, party=party(s.roles[target])),
    )
    s = evolve(s, investigated=s.investigated + ((president, target),))
    return new_round(s, s.log.extend(entries))


def apply_special_election(s: State, target: int) -> State:
    """The target is the next presidential candidate; the rotation later resumes after the caller."""
    check_other_living(s, target)
    entry = note("special_election", president=s.president, target=target)
    return evolve(
        s, phase=Phase.NOMINATE, president=target, chancellor=None, veto_refused=False, log=s.log.append(entry)
    )


def apply_peek_done(s: State) -> State:
    """The president has seen the top three tiles."""
    return new_round(s, s.log)


def apply_execute(s: State, target: int) -> State:
    """The target dies; Hitler's death wins for the liberals, any other death keeps the role secret."""
    check_other_living(s, target)
    alive = s.alive[:target] + (False,) + s.alive[target + 1:]
    s = evolve(s, alive=alive)
    log = s.log.append(note("executed", president=s.president, target=target))
    if s.roles[target] == HITLER:
        return game_over(s, log, True, Reason.HITLER_EXECUTED)
    return new_round(s, log)
