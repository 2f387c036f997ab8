"""One game at the table, as an immutable value: setup, journaled actions, engine state, partial input."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, replace
from typing import Any

from companion.games.binding import Binding, get_binding
from companion.games.contract import CHANCE, IllegalAction
from companion.games.registry import get_rules
from companion.games.rules import Rules
from companion.table.journal import GameRecord

MAX_AUTO_CHANCE = 100


@dataclass(frozen=True)
class Session:
    """A game in play; replaced (never mutated) by the loop thread."""

    game_id: int
    rules: Rules
    binding: Binding
    seats: int
    options: dict[str, Any]
    mode: str
    tokens: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    state: Any
    pending: Any = None
    ended: str | None = None
    reserved_chance: tuple[dict[str, Any], ...] = ()
    """Digital chance outcomes taken back by an undo, reused first so an undo never reshuffles the deck."""

    @property
    def game(self) -> str:
        """The game id."""
        return self.rules.name

    def with_actions(self, state: Any, actions: list[dict[str, Any]], pending: Any) -> "Session":
        """The session after accepted actions."""
        return replace(self, state=state, actions=self.actions + tuple(actions), pending=pending)


def new_tokens(seats: int) -> tuple[str, ...]:
    """One unguessable seat token per seat."""
    return tuple(secrets.token_urlsafe(16) for _ in range(seats))


def check_setup(game: Any, seats: Any, options: Any, mode: Any, table_seats: int) -> tuple[Rules, Any]:
    """Validate a new-game request; returns (rules, initial state) or raises IllegalAction('bad_setup')."""
    try:
        rules = get_rules(game)
    except ValueError as exc:
        raise IllegalAction("bad_setup", str(exc)) from None
    if mode not in ("digital", "physical"):
        raise IllegalAction("bad_setup", f"components must be 'digital' or 'physical', not {mode!r}")
    if options is not None and not isinstance(options, dict):
        raise IllegalAction("bad_setup", "options must be a JSON object")
    if isinstance(seats, int) and not isinstance(seats, bool) and seats > table_seats:
        raise IllegalAction("bad_setup", f"this table has {table_seats} seats, not {seats}")
    try:
        return rules, rules.initial_state(seats, options or {})
    except ValueError as exc:
        raise IllegalAction("bad_setup", str(exc)) from None


def from_record(record: GameRecord) -> Session:
    """Rebuild a journaled game by replaying its actions (raises ValueError if the record no longer replays)."""
    rules = get_rules(record.game)
    state = rules.initial_state(record.seats, record.options)
    for action in record.actions:
        state = rules.apply(state, action)
    return Session(record.id, rules, get_binding(record.game), record.seats, record.options, record.mode,
                   record.tokens, record.actions, state)


def auto_chance(session: Session, state: Any,
                rng: random.Random) -> tuple[Any, list[dict[str, Any]], tuple[dict[str, Any], ...]]:
    """Supply every chance action due that the table does not read from components: an outcome reserved by
    an undo if it still applies, else a fresh sample. Returns (state, chance actions, reserve left)."""
    sampled: list[dict[str, Any]] = []
    rules = session.rules
    reserved = list(session.reserved_chance)
    while rules.to_act(state) == frozenset({CHANCE}) and not session.binding.chance_is_physical(state, session.mode):
        if len(sampled) >= MAX_AUTO_CHANCE:
            raise IllegalAction("chance_loop", "the engine asked for chance too many times in a row")
        action = None
        while reserved and action is None:
            candidate = reserved.pop(0)
            try:
                state = rules.apply(state, candidate)
                action = candidate
            except IllegalAction:  # no longer possible here: forget it
                continue
        if action is None:
            action = rules.sample_chance(state, rng)
            state = rules.apply(state, action)
        sampled.append(action)
    return state, sampled, tuple(reserved)
