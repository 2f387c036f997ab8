"""Secret Hitler's action vocabulary (docs/RULES.md, Secret Hitler) and the action types of each phase."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from companion.games.schema import ActionSpec, Field, boolean, integer, list_of, one_of, seat
from companion.games.secret_hitler.codes import Phase
from companion.games.secret_hitler.state import JA, NEIN, ROLES, F, L

_POLICY = Field(one_of(L, F))
_POLICIES = Field(list_of(one_of(L, F)))
_TARGET = Field(seat())

# Checks are wrapped in Field here so parse_action need not wrap them on every call.
ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "deal": ActionSpec({"roles": Field(list_of(one_of(*ROLES))), "first_president": Field(integer())}, chance=True),
    "nominate": ActionSpec({"target": _TARGET}),
    "vote": ActionSpec({"vote": Field(one_of(JA, NEIN))}),
    "draw": ActionSpec({"policies": _POLICIES}, chance=True),
    "discard": ActionSpec({"policy": _POLICY}),
    "enact": ActionSpec({"policy": _POLICY}),
    "veto": ActionSpec({}),
    "veto_reply": ActionSpec({"agree": Field(boolean())}),
    "investigate": ActionSpec({"target": _TARGET}),
    "special_election": ActionSpec({"target": _TARGET}),
    "peek": ActionSpec({"policies": _POLICIES}, chance=True),
    "peek_done": ActionSpec({}),
    "execute": ActionSpec({"target": _TARGET}),
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

ALLOWED_BY_ID: Mapping[str, frozenset[str]] = MappingProxyType({p.value: a for p, a in ALLOWED.items()})
