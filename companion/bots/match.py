"""One game played by players in every seat: chance sampled with its odds, each decision seeded from one rng."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from companion.bots.base import Player
from companion.bots.seat import Seated, draw_seed
from companion.games.contract import CHANCE, Outcome
from companion.games.playout import PlayoutTooLong
from companion.games.rules import Rules


@dataclass(frozen=True)
class Move:
    """One decision a player made: at which action index, by which seat, from which seed, and why."""

    index: int
    seat: int
    seed: int
    reason: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Match:
    """A finished game: its actions, final state and outcome, and (when recorded) every player's decision."""

    seats: int
    actions: tuple[dict[str, Any], ...]
    state: Any
    outcome: Outcome | None
    moves: tuple[Move, ...]


def play_match(rules: Rules, players: Sequence[Player], rng: random.Random,
               options: Mapping[str, Any] | None = None, max_steps: int = 20_000, record: bool = False,
               clock: Callable[[], float] | None = None, costs: dict[str, list[float]] | None = None) -> Match:
    """Play one game with `players[i]` in seat i. Among seats acting at once, `rng` picks who acts next (as a
    random playout does); each decision gets its own seed drawn from `rng`, so the game is a function of
    `rng`'s seed. With a `clock` (the caller's: this room reads none), each decision's cost — the seat's view,
    legal actions, memory and choice, as a table pays it — is appended to `costs[player.kind]`."""
    seats = len(players)
    state = rules.initial_state(seats, options)
    table = [Seated.sit(player, seat) for seat, player in enumerate(players)]
    actions: list[dict[str, Any]] = []
    moves: list[Move] = []
    chance = frozenset({CHANCE})
    while acting := rules.to_act(state):
        if len(actions) >= max_steps:
            raise PlayoutTooLong(f"{rules.name} with {seats} seats did not end in {max_steps} actions")
        if acting == chance:
            action = rules.sample_chance(state, rng)
        else:
            seat = rng.choice(sorted(acting)) if len(acting) > 1 else next(iter(acting))
            seed = draw_seed(rng)
            if clock is not None and costs is not None:
                started = clock()
                decision, table[seat] = table[seat].decide(rules, state, seed)
                costs.setdefault(players[seat].kind, []).append(clock() - started)
            else:
                decision, table[seat] = table[seat].decide(rules, state, seed)
            action = decision.action
            if record:
                moves.append(Move(len(actions), seat, seed, decision.reason, decision.params))
        state = rules.apply(state, action)
        actions.append(dict(action))
    return Match(seats, tuple(actions), state, rules.outcome(state), tuple(moves))
