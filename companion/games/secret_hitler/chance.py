"""Chance actions: the deal, tile draws and the peek; validated against what can really be in the box."""

from __future__ import annotations

import random
from typing import Any, Mapping

from companion.games.contract import CHANCE, Refusal
from companion.games.secret_hitler.flow import enact
from companion.games.secret_hitler.state import (
    FASCIST, HITLER, LIBERAL, ROLE_MIX, F, L, Phase, State, evolve, note, secret,
)


def check_deal(s: State, roles: tuple[str, ...], first: int) -> None:
    """One role per seat in the seat count's mix, and a first president that is a seat."""
    if len(roles) != s.seats:
        raise Refusal("wrong_role_count", f"expected {s.seats} roles (one per seat), got {len(roles)}")
    libs, fascists, hitlers = ROLE_MIX[s.seats]
    counts = (roles.count(LIBERAL), roles.count(FASCIST), roles.count(HITLER))
    if counts != (libs, fascists, hitlers):
        raise Refusal(
            "wrong_role_mix", f"{s.seats} seats take {libs} liberal, {fascists} fascist and {hitlers} hitler"
        )
    if not 0 <= first < s.seats:
        raise Refusal("first_president_out_of_range", f"first_president must be 0..{s.seats - 1}, got {first}")


def apply_deal(s: State, roles: tuple[str, ...], first: int) -> State:
    """Roles are dealt and the first presidential candidate named."""
    check_deal(s, roles, first)
    entry = note("dealt", first_president=first)
    return evolve(s, phase=Phase.NOMINATE, roles=roles, president=first, rotation=first, log=s.log.append(entry))


def sample_deal(s: State, rng: random.Random) -> dict[str, Any]:
    """A shuffled role mix and a random first president."""
    libs, fascists, hitlers = ROLE_MIX[s.seats]
    roles = [LIBERAL] * libs + [FASCIST] * fascists + [HITLER] * hitlers
    rng.shuffle(roles)
    return {"type": "deal", "seat": CHANCE, "roles": roles, "first_president": rng.randrange(s.seats)}


def unknown_counts(s: State) -> tuple[int, int]:
    """(L, F) in the draw pile below the peeked tiles."""
    peek_l = s.peeked.count(L)
    return s.draw_l - peek_l, s.draw_f - (len(s.peeked) - peek_l)


def check_draw(s: State, policies: tuple[str, ...], count: int) -> None:
    """The drawn multiset: `count` tiles, the peeked ones first, the rest from what the pile still holds."""
    if len(policies) != count:
        raise Refusal("wrong_draw_count", f"this draw takes {count} tile(s), got {len(policies)}")
    drawn_l = policies.count(L)
    top = s.peeked[:count]
    top_l = top.count(L)
    rest_l, rest_f = drawn_l - top_l, (count - drawn_l) - (len(top) - top_l)
    if rest_l < 0 or rest_f < 0:
        raise Refusal("draw_not_peeked", "the top of the pile was peeked: the draw must hold the peeked tiles")
    unknown_l, unknown_f = unknown_counts(s)
    if rest_l > unknown_l or rest_f > unknown_f:
        raise Refusal("impossible_draw", "the draw pile does not hold those tiles")


def take(s: State, policies: tuple[str, ...]) -> State:
    """The draw pile after `policies` leave it from the top."""
    drawn_l = policies.count(L)
    return evolve(
        s, draw_l=s.draw_l - drawn_l, draw_f=s.draw_f - (len(policies) - drawn_l), peeked=s.peeked[len(policies):],
        peeker=s.peeker if len(s.peeked) > len(policies) else None,
    )


def apply_draw(s: State, a: Mapping[str, Any]) -> State:
    """A session's 3 tiles go to the president's hand; chaos enacts the top tile."""
    policies = tuple(a["policies"])
    if s.phase is Phase.CHAOS:
        check_draw(s, policies, 1)
        return enact(take(s, policies), policies[0], s.log, chaos=True)
    check_draw(s, policies, 3)
    return evolve(take(s, policies), phase=Phase.DISCARD, hand=tuple(sorted(policies)))


def sample_tiles(s: State, count: int, rng: random.Random) -> list[str]:
    """`count` tiles from the top: peeked ones first, the rest at random from the unknown part."""
    out = list(s.peeked[:count])
    unknown_l, unknown_f = unknown_counts(s)
    for _ in range(count - len(out)):
        if rng.randrange(unknown_l + unknown_f) < unknown_l:
            out.append(L)
            unknown_l -= 1
        else:
            out.append(F)
            unknown_f -= 1
    return out


def sample_draw(s: State, rng: random.Random) -> dict[str, Any]:
    """The next draw with its true odds."""
    count = 1 if s.phase is Phase.CHAOS else 3
    return {"type": "draw", "seat": CHANCE, "policies": sample_tiles(s, count, rng)}


def apply_peek(s: State, policies: tuple[str, ...]) -> State:
    """The top three tiles are fixed (in order) and shown to the president."""
    if len(policies) != 3:
        raise Refusal("wrong_peek_count", f"a peek shows 3 tiles, got {len(policies)}")
    unknown_l, unknown_f = unknown_counts(s)
    peek_l = policies.count(L)
    # A peek happens once a game, after a session took every earlier peeked tile, so nothing is fixed yet.
    if s.peeked or peek_l > unknown_l or 3 - peek_l > unknown_f:
        raise Refusal("impossible_peek", "the draw pile does not hold those tiles")
    president = s.president
    entries = (note("peeked", president=president), secret(president, "peek", policies=policies))
    return evolve(s, phase=Phase.PEEK_REVIEW, peeked=policies, peeker=president, log=s.log.extend(entries))


def sample_peek(s: State, rng: random.Random) -> dict[str, Any]:
    """The top three tiles with their true odds."""
    return {"type": "peek", "seat": CHANCE, "policies": sample_tiles(s, 3, rng)}

