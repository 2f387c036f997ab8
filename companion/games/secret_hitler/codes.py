"""Secret Hitler's vocabulary: phases, outcome reasons, powers, refusal codes and log codes."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Mapping

from companion.games.contract import Described


class Phase(Described):
    """Every `phase` value of the engine."""

    DEAL = "deal", "Chance deals the roles and names the first presidential candidate."
    NOMINATE = "nominate", "The presidential candidate nominates a chancellor."
    VOTE = "vote", "Every living seat votes ja or nein in secret; all votes are revealed with the last one."
    DRAW = "draw", "Chance draws the three policy tiles of the legislative session."
    DISCARD = "discard", "The president discards one of the three tiles in secret."
    ENACT = "enact", "The chancellor enacts one of the two tiles (or proposes a veto once it is unlocked)."
    VETO_REPLY = "veto_reply", "The president agrees to or refuses the chancellor's veto."
    CHAOS = "chaos", "Three failed elections: chance draws the top tile, which is enacted."
    INVESTIGATE = "investigate", "The president investigates one other living seat's party."
    SPECIAL_ELECTION = "special_election", "The president picks the next presidential candidate."
    PEEK = "peek", "Chance reveals the top three tiles (in order) to the president."
    PEEK_REVIEW = "peek_review", "The president looks at the top three tiles and confirms."
    EXECUTE = "execute", "The president executes one other living seat."
    GAME_OVER = "game_over", "The game is over."


class Reason(StrEnum):
    """Why a game ended (docs/RULES.md, Secret Hitler, "Outcome reasons")."""

    LIBERAL_POLICIES = "liberal_policies"
    FASCIST_POLICIES = "fascist_policies"
    HITLER_EXECUTED = "hitler_executed"
    HITLER_ELECTED = "hitler_elected"


CODES: Mapping[str, str] = MappingProxyType({
    "wrong_role_count": "The deal must give exactly one role to every seat.",
    "wrong_role_mix": "The deal does not match the role mix for this number of seats.",
    "first_president_out_of_range": "The first president must be one of the seats.",
    "wrong_draw_count": "A legislative session draws 3 tiles; chaos draws 1.",
    "impossible_draw": "The draw pile does not hold those tiles.",
    "draw_not_peeked": "The top tiles were peeked: the draw must be those tiles.",
    "wrong_peek_count": "A peek shows exactly 3 tiles.",
    "impossible_peek": "The draw pile does not hold those tiles on top.",
    "nominate_self": "The president cannot nominate themself.",
    "target_self": "The president cannot use a power on themself.",
    "target_dead": "That seat is dead.",
    "term_limited": "That seat is term-limited: it was in the last elected government.",
    "already_investigated": "That seat has already been investigated; nobody is investigated twice.",
    "policy_not_in_hand": "That tile is not in the hand.",
    "veto_locked": "The veto is unlocked only once five fascist policies are enacted.",
    "veto_already_refused": "The president refused the veto; the chancellor must enact a policy.",
})
"""The game's own Refusal codes with English text."""

PUBLIC_CODES: frozenset[str] = frozenset({
    "nominate_self", "target_self", "target_dead", "term_limited", "already_investigated", "veto_locked",
    "veto_already_refused", "wrong_draw_count", "wrong_peek_count",
})
"""The codes raised from public facts alone (who is dead, term-limited or investigated, the fascist track, how
many tiles a draw takes), checked before anything hidden: the table shows these to everyone. The others (a
tile not in the hand, a draw the pile cannot give, a deal) would say what is hidden."""

LOG_CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "dealt": ('first_president',),
    "nominated": ('president', 'chancellor'),
    "votes": ('votes', 'passed', 'election_tracker'),
    "president_discard": ('drew', 'policy'),
    "chancellor_discard": ('received', 'policy'),
    "enacted": ('policy',),
    "chaos": ('policy',),
    "veto_proposed": ('chancellor',),
    "veto_refused": ('president',),
    "veto_agreed": ('president', 'election_tracker'),
    "reshuffled": ('draw_pile', 'discard_pile'),
    "investigated": ('president', 'target'),
    "party": ('target', 'party'),
    "special_election": ('president', 'target'),
    "peeked": ('president',),
    "peek": ('policies',),
    "executed": ('president', 'target'),
    "game_over": ('reason', 'winners'),
})
"""Every log entry code the engine writes, with its params (`president_discard`, `chancellor_discard`, `party`
and `peek` are private to one seat)."""
