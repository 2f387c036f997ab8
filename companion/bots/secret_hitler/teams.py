"""Players by team: a seat plays as the liberal player or the fascist player, by the role it is dealt (for
lines such as "bot liberals against trust-score fascists")."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player

SIDES = ("liberal", "fascist")
"""The teams a seat can be dealt into (Hitler plays for the fascists)."""

Memory = tuple[str | None, Any, Any]
"""(the team this seat was dealt into, the liberal player's memory, the fascist player's memory)."""


class TeamPlayer(Player[Memory]):
    """The player of the seat's team; it sees what that player would (each keeps its own memory)."""

    game = "secret_hitler"
    remembers = True

    def __init__(self, liberal: Player, fascist: Player) -> None:
        self.players = {"liberal": liberal, "fascist": fascist}
        self.kind = f"{liberal.kind}/{fascist.kind}"  # type: ignore[misc]

    def start(self, seat: int) -> Memory:
        """Not dealt yet; both players sit down."""
        return None, self.players["liberal"].start(seat), self.players["fascist"].start(seat)

    def observe(self, memory: Memory | None, view: Mapping[str, Any]) -> Memory:
        """The dealt team's player observes; the other never sees the seat's views."""
        assert memory is not None
        team, liberal, fascist = memory
        if team is None and view.get("party"):
            team = view["party"]
        if team == "liberal" and self.players["liberal"].remembers:
            liberal = self.players["liberal"].observe(liberal, view)
        elif team == "fascist" and self.players["fascist"].remembers:
            fascist = self.players["fascist"].observe(fascist, view)
        return team, liberal, fascist

    def decide(self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random,
               memory: Memory | None = None) -> Decision:
        """The dealt team's player decides."""
        team, liberal, fascist = memory if memory is not None else self.observe(
            self.start(legal_actions[0]["seat"]), view)
        if team == "fascist":
            return self.players["fascist"].decide(view, legal_actions, rng, fascist)
        return self.players["liberal"].decide(view, legal_actions, rng, liberal)


def by_side(players: Mapping[str, Player]) -> Player:
    """One player for every seat, playing `players[team]` for the team it is dealt."""
    return TeamPlayer(players["liberal"], players["fascist"])
