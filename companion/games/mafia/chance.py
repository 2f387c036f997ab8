"""The one chance action: the deal of the roles, checked against the role mix."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.contract import CHANCE, IllegalAction
from companion.games.mafia.play import night_falls
from companion.games.mafia.state import DETECTIVE, MAFIA, TOWN, State, mafia_count, note, role_mix


def check_deal(s: State, roles: tuple[str, ...]) -> None:
    """One role per seat, in the seat count's mix."""
    if len(roles) != s.seats:
        raise IllegalAction("wrong_role_count", f"expected {s.seats} roles (one per seat), got {len(roles)}")
    mafia, detectives, town = role_mix(s.seats)
    if (roles.count(MAFIA), roles.count(DETECTIVE), roles.count(TOWN)) != (mafia, detectives, town):
        raise IllegalAction("wrong_role_mix", f"{s.seats} seats take {mafia} mafia, {detectives} detective and "
                                              f"{town} town")


def apply_deal(s: State, roles: tuple[str, ...]) -> State:
    """Roles are dealt; the first night falls."""
    check_deal(s, roles)
    log = s.log.append(note("dealt", mafia=mafia_count(s.seats)))
    return night_falls(replace(s, roles=roles), log, 1)


def sample_deal(s: State, rng: random.Random) -> dict[str, Any]:
    """A shuffled role mix."""
    mafia, detectives, town = role_mix(s.seats)
    roles = [MAFIA] * mafia + [DETECTIVE] * detectives + [TOWN] * town
    rng.shuffle(roles)
    return {"type": "deal", "seat": CHANCE, "roles": roles}
