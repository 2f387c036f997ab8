"""The legislative session: the president's discard, the chancellor's enactment and the veto."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.contract import Refusal
from companion.games.secret_hitler.flow import enact, move_tracker, reshuffle_check
from companion.games.secret_hitler.state import VETO_AT, L, Phase, State, evolve, note, secret


def without(hand: tuple[str, ...], policy: str) -> tuple[str, ...]:
    """The hand minus one tile of `policy`; Refusal if the hand holds none."""
    if policy not in hand:
        raise Refusal("policy_not_in_hand", "that tile is not in the hand")
    i = hand.index(policy)
    return hand[:i] + hand[i + 1:]


def discard_to(s: State, policies: tuple[str, ...]) -> State:
    """Tiles go face down onto the discard pile."""
    n_l = policies.count(L)
    return evolve(s, disc_l=s.disc_l + n_l, disc_f=s.disc_f + len(policies) - n_l)


def apply_discard(s: State, a: Mapping[str, Any]) -> State:
    """The president discards one tile (hidden) and passes two to the chancellor."""
    policy = a["policy"]
    hand = without(s.hand, policy)
    entry = secret(s.president, "president_discard", drew=s.hand, policy=policy)
    return evolve(discard_to(s, (policy,)), phase=Phase.ENACT, hand=hand, log=s.log.append(entry))


def apply_enact(s: State, a: Mapping[str, Any]) -> State:
    """The chancellor enacts one tile; the other is discarded (hidden)."""
    policy = a["policy"]
    rest = without(s.hand, policy)
    entry = secret(s.chancellor, "chancellor_discard", received=s.hand, policy=rest[0])
    return enact(discard_to(s, rest), policy, s.log.append(entry), chaos=False)


def veto_possible(s: State) -> bool:
    """Whether the chancellor may propose a veto now."""
    return s.fascist >= VETO_AT and not s.veto_refused


def apply_veto(s: State) -> State:
    """The chancellor proposes to discard both tiles."""
    if s.fascist < VETO_AT:
        raise Refusal("veto_locked", "the veto unlocks with the fifth fascist policy")
    if s.veto_refused:
        raise Refusal("veto_already_refused", "the president refused the veto: the chancellor must enact")
    entry = note("veto_proposed", chancellor=s.chancellor)
    return evolve(s, phase=Phase.VETO_REPLY, log=s.log.append(entry))


def apply_veto_reply(s: State, agree: bool) -> State:
    """Agreed: both tiles are discarded, reshuffle check, tracker +1. Refused: the chancellor must enact."""
    if not agree:
        entry = note("veto_refused", president=s.president)
        return evolve(s, phase=Phase.ENACT, veto_refused=True, log=s.log.append(entry))
    entry = note("veto_agreed", president=s.president, election_tracker=s.tracker + 1)
    s = evolve(discard_to(s, s.hand), hand=())
    s, log = reshuffle_check(s, s.log.append(entry))
    return move_tracker(s, log)
