"""Secret Hitler's action vocabulary (docs/RULES.md, Secret Hitler) with each type's handler, and the action
types of each phase."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from companion.games.schema import ActionSpec, Field, boolean, integer, list_of, one_of, seat
from companion.games.secret_hitler import chance, election, legislation, powers
from companion.games.secret_hitler.codes import Phase
from companion.games.secret_hitler.state import JA, NEIN, ROLES, F, L

_POLICY = Field(one_of(L, F))
_POLICIES = Field(list_of(one_of(L, F)))
_TARGET = Field(seat())

# Checks are wrapped in Field here so parse_action need not wrap them on every call.
ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "deal": ActionSpec({"roles": Field(list_of(one_of(*ROLES))), "first_president": Field(integer())}, chance=True,
                       handler=lambda s, a: chance.apply_deal(s, a["roles"], a["first_president"])),
    "nominate": ActionSpec({"target": _TARGET}, handler=election.apply_nominate),
    "vote": ActionSpec({"vote": Field(one_of(JA, NEIN))},
                       handler=election.apply_vote),
    "draw": ActionSpec({"policies": _POLICIES}, chance=True,
                       handler=chance.apply_draw),
    "discard": ActionSpec({"policy": _POLICY}, handler=legislation.apply_discard),
    "enact": ActionSpec({"policy": _POLICY}, handler=legislation.apply_enact),
    "veto": ActionSpec({}, handler=lambda s, a: legislation.apply_veto(s)),
    "veto_reply": ActionSpec({"agree": Field(boolean())},
                             handler=lambda s, a: legislation.apply_veto_reply(s, a["agree"])),
    "investigate": ActionSpec({"target": _TARGET}, handler=lambda s, a: powers.apply_investigate(s, a["target"])),
    "special_election": ActionSpec({"target": _TARGET},
                                   handler=lambda s, a: powers.apply_special_election(s, a["target"])),
    "peek": ActionSpec({"policies": _POLICIES}, chance=True,
                       handler=lambda s, a: chance.apply_peek(s, tuple(a["policies"]))),
    "peek_done": ActionSpec({}, handler=lambda s, a: powers.apply_peek_done(s)),
    "execute": ActionSpec({"target": _TARGET}, handler=lambda s, a: powers.apply_execute(s, a["target"])),
})

ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.DEAL: frozenset({"deal"}),
    Phase.NOMINATE: frozenset({"nominate"}),
    Phase.VOTE: frozenset({"vote"}),
    Phase.DRAW: frozenset({"draw"}),
    Phase.CHAOS: frozenset({"draw"}),
    Phase.DISCARD: frozenset({"discard"}),
    Phase.ENACT: frozenset({"enact", "veto"}),
    Phase.VETO_REPLY: frozenset({"veto_reply"}),
    Phase.INVESTIGATE: frozenset({"investigate"}),
    Phase.SPECIAL_ELECTION: frozenset({"special_election"}),
    Phase.PEEK: frozenset({"peek"}),
    Phase.PEEK_REVIEW: frozenset({"peek_done"}),
    Phase.EXECUTE: frozenset({"execute"}),
    Phase.GAME_OVER: frozenset(),
})
