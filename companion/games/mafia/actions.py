"""Mafia's action vocabulary (docs/RULES.md, Mafia) and the action types of each phase."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from companion.games.mafia.codes import Phase
from companion.games.mafia.state import ROLES
from companion.games.schema import ActionSpec, Field, list_of, one_of, seat

_TARGET = Field(seat())

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "deal": ActionSpec({"roles": Field(list_of(one_of(*ROLES)))}, chance=True),
    "kill": ActionSpec({"target": _TARGET}),
    "check": ActionSpec({"target": _TARGET}),
    "suspect": ActionSpec({"target": _TARGET}),
    "vote": ActionSpec({"target": _TARGET}),
    "abstain": ActionSpec({}),
})

ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.DEAL: frozenset({"deal"}),
    # Every role's night action is allowed to every seat: a refusal of another role's action must not be the
    # public `wrong_phase` (it would name the seat's role); the role is checked after the public checks.
    Phase.NIGHT: frozenset({"kill", "check", "suspect"}),
    Phase.DAY: frozenset({"vote", "abstain"}),
    Phase.GAME_OVER: frozenset(),
})
