"""A player in a seat: the one path from a game's state to what the player is shown (its seat's view and
legal actions), used alike by `companion simulate`, the strength bench and the running table.

A player looks at its view when it is asked to decide, as a person does on their turn: its memory is the fold
of `observe` over the views of the states it decided at, in order. Those states are the ones just before its
own actions in the journal, so a table that replays its journal rebuilds the memory exactly (`rebuild`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from companion.bots.base import Decision, Player, checked
from companion.games.rules import Rules

NO_VIEW: Mapping[str, Any] = MappingProxyType({})
"""What a player that reads no view is given."""
SEED_BITS = 63
"""A decision's seed is drawn as this many random bits (a JSON int and an SQLite integer alike)."""


def draw_seed(rng: random.Random) -> int:
    """A fresh decision seed from the table's (or the simulation's) generator."""
    return rng.getrandbits(SEED_BITS)


@dataclass(frozen=True)
class Seated:
    """A player, its seat and its memory: a value (each decision returns the next one), so a table keeps it in
    its state."""

    player: Player
    seat: int
    memory: Any = None

    @classmethod
    def sit(cls, player: Player, seat: int) -> "Seated":
        """`player` sitting down at `seat`, before it has seen anything."""
        return cls(player, seat, player.start(seat))

    def seen(self, rules: Rules, state: Any) -> "Seated":
        """This seat after looking at `state` (its seat's view, nothing else)."""
        if not self.player.remembers:
            return self
        memory = self.player.observe(self.memory, rules.view(state, self.seat))
        return self if memory is self.memory else replace(self, memory=memory)

    def decide(self, rules: Rules, state: Any, seed: int) -> tuple[Decision, "Seated"]:
        """The player's decision at `state` from its view, its legal actions and `random.Random(seed)` only
        (the same seed and views give the same decision, so a replay reproduces it), and the seat after it."""
        view = rules.view(state, self.seat) if self.player.reads_view or self.player.remembers else NO_VIEW
        legal = rules.legal_actions(state, self.seat)
        after = self
        if self.player.remembers:
            memory = self.player.observe(self.memory, view)
            after = self if memory is self.memory else replace(self, memory=memory)
        decision = self.player.decide(view, legal, random.Random(seed), after.memory)
        return checked(decision, legal), after

    def rebuild(self, rules: Rules, seats: int, options: Mapping[str, Any] | None,
                actions: Iterable[Mapping[str, Any]]) -> "Seated":
        """This seat's memory after a game's journaled `actions` (a restart, an undo): it looked at the state
        before each of its own actions."""
        seated = Seated.sit(self.player, self.seat)
        if not self.player.remembers:
            return seated
        state = rules.initial_state(seats, options)
        for action in actions:
            if action.get("seat") == self.seat:
                seated = seated.seen(rules, state)
            state = rules.apply(state, action)
        return seated
