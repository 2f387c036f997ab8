"""The Mafia bot. At night the mafia follow a partner's pick (so the mafia agree) or pick a town seat, the
detective checks a seat it knows nothing of, a town seat points at a seat; by day a seat votes out a seat it
knows is mafia, else joins the seat most voted for (a majority of the living is needed), keeping its vote from
a seat it knows is on its own side; the mafia steer their votes off their partners."""

from __future__ import annotations

import random
from collections import Counter
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player

View = Mapping[str, Any]
Legal = Sequence[Action]

REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "follow_partner": ("target",),
    "pick_town": ("target",),
    "check_unknown": ("target",),
    "point": ("target",),
    "vote_known_mafia": ("target",),
    "vote_with_most": ("target",),
    "vote_first": ("target",),
    "vote_nobody": (),
})
"""Reason code -> its params (read-only)."""


class MafiaBot(Player[None]):
    """Agree at night, follow the most votes by day, never against a known ally; no memory."""

    game = "mafia"
    reasons = REASONS

    def decide(self, view: View, legal_actions: Legal, rng: random.Random, memory: None = None) -> Decision:
        """This phase's choice."""
        kind = legal_actions[0]["type"]
        if kind in ("vote", "abstain"):
            return _vote(view, legal_actions, rng)
        by_target = {a["target"]: a for a in legal_actions}
        if kind == "kill":
            partners = Counter(t for t in view.get("mafia_picks") or () if t in by_target)
            if partners:
                target = partners.most_common(1)[0][0]
                return Decision(by_target[target], "follow_partner", {"target": target})
            pick = rng.choice(legal_actions)
            return Decision(pick, "pick_town", {"target": pick["target"]})
        if kind == "check":
            found = {*(view.get("found_mafia") or ()), *(view.get("found_town") or ())}
            unknown = [a for a in legal_actions if a["target"] not in found]
            pick = rng.choice(unknown or list(legal_actions))
            return Decision(pick, "check_unknown", {"target": pick["target"]})
        pick = rng.choice(legal_actions)
        return Decision(pick, "point", {"target": pick["target"]})


def _vote(view: View, legal: Legal, rng: random.Random) -> Decision:
    """Out with a known mafia; else with the most votes cast, or a first vote, never at a known ally."""
    seat = legal[0]["seat"]
    by_target = {a.get("target"): a for a in legal}
    own = view.get("side")
    known = view.get("known") or ()
    found_mafia, found_town = view.get("found_mafia") or (), view.get("found_town") or ()

    def side_of(target: int) -> str | None:
        role = known[target] if target < len(known) else None
        if role is not None:
            return "mafia" if role == "mafia" else "town"
        return "mafia" if target in found_mafia else "town" if target in found_town else None

    if own == "town":
        for target, action in by_target.items():
            if target is not None and side_of(target) == "mafia":
                return Decision(action, "vote_known_mafia", {"target": target})
    allies = {t for t in by_target if t is not None and side_of(t) == own}
    cast = Counter(v for i, v in enumerate(view.get("votes") or ()) if v is not None and i != seat)
    for target, _ in cast.most_common():
        if target in by_target and target not in allies:
            return Decision(by_target[target], "vote_with_most", {"target": target})
    choices = [a for t, a in by_target.items() if t is not None and t not in allies]
    if not choices:
        return Decision(by_target[None], "vote_nobody")
    pick = rng.choice(choices)
    return Decision(pick, "vote_first", {"target": pick["target"]})


class SidePlayer(Player[None]):
    """One player per side: every seat plays `players[side]` for the side its view says it was dealt (for
    lines such as "bot citizens against random mafia"); each decides from the seat's view alone."""

    game = "mafia"

    def __init__(self, players: Mapping[str, Player]) -> None:
        self.players = dict(players)
        self.kind = "/".join(p.kind for p in players.values())  # type: ignore[misc]

    def decide(self, view: View, legal_actions: Legal, rng: random.Random, memory: None = None) -> Decision:
        """The dealt side's player decides (the citizens' before the deal is known)."""
        player = self.players[MAFIA_SIDE if view.get("side") == MAFIA_SIDE else TOWN_SIDE]
        seat = legal_actions[0]["seat"]
        own = player.observe(player.start(seat), view) if player.remembers else None
        return player.decide(view, legal_actions, rng, own)


MAFIA_SIDE, TOWN_SIDE = "mafia", "town"
SIDES = (TOWN_SIDE, MAFIA_SIDE)
"""The sides a seat can be dealt into (the detective plays for the town)."""


def by_side(players: Mapping[str, Player]) -> Player:
    """One player for every seat, playing `players[side]` for the side it is dealt."""
    return SidePlayer(players)


BOT = MafiaBot()
"""The game's bot."""
