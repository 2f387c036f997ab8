"""One game at the table, as an immutable value: setup, journaled actions, engine state, partial input."""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.binding import Binding, Card, get_binding
from companion.games.contract import CHANCE, Components, Refusal
from companion.games.log import Log
from companion.games.memo import Memo
from companion.games.registry import GAMES, get_rules
from companion.games.rules import Rules
from companion.table.records import GameRecord
from companion.table.core.values import evolve
from companion.games.json_value import Json

MAX_AUTO_CHANCE = 100


@dataclass(frozen=True)
class Session:
    """A game in play; replaced (never mutated) by the loop thread."""

    game_id: int
    rules: Rules
    binding: Binding
    seats: int
    options: dict[str, Json]
    components: Components
    tokens: tuple[str, ...]
    actions: Log[dict[str, Json]]
    """Every journaled action in order (an O(1) append: a long game never copies its history)."""
    state: Any
    pending: Any = None
    ended: str | None = None
    reserved_chance: tuple[dict[str, Json], ...] = ()
    """Digital chance outcomes taken back by an undo, reused first so an undo never reshuffles the deck."""
    undone: int = 0
    """How many actions undos took back in this game (the journal keeps them, marked undone)."""
    redo: tuple[dict[str, Any], ...] = ()
    """The actions undos took back that a redo re-applies, the last undo's first; emptied by any new action."""
    redone: int = 0
    """How many actions redos re-applied in this game."""
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    """This game's publish cache (a cache of pure functions by exact key: carried by `replace`, no state)."""

    @property
    def game(self) -> str:
        """The game id."""
        return self.rules.name

    @property
    def revision(self) -> int:
        """A number that grows with every change of the game, an undo and a redo included (live actions plus
        twice the undone and the redone ones: an undo takes at least one action back and writes none), so a page
        can tell a newer state from an older one even when an undo made the game shorter."""
        return len(self.actions) + 2 * self.undone + 2 * self.redone

    def with_actions(self, state: Any, actions: list[dict[str, Json]], pending: Any) -> "Session":
        """The session after accepted actions."""
        return evolve(self, state=state, actions=self.actions.extend(actions), pending=pending)

    def next_redo(self) -> tuple[dict[str, Any], ...]:
        """What a redo re-applies now: the player action the last undo took back and the chance actions after
        it, as journaled (empty when there is nothing to redo)."""
        if not self.redo:
            return ()
        rest = next((i for i, a in enumerate(self.redo[1:], 1) if a.get("seat", -1) != CHANCE), len(self.redo))
        return self.redo[:rest]


def token(source: random.Random, nbytes: int) -> str:
    """A URL-safe token of `nbytes` random bytes from `source` (as `secrets.token_urlsafe`, which reads the same
    operating-system randomness a `random.SystemRandom` does)."""
    return base64.urlsafe_b64encode(source.randbytes(nbytes)).rstrip(b"=").decode("ascii")


def new_tokens(seats: int, source: random.Random) -> tuple[str, ...]:
    """One unguessable seat token per seat."""
    return tuple(token(source, 16) for _ in range(seats))


def check_setup(game: Any, seats: Any, options: Any, table_seats: int) -> tuple[Rules, Any]:
    """Validate a new-game request; returns (rules, initial state) or raises Refusal('bad_setup')."""
    try:
        rules = get_rules(game)
    except ValueError as exc:
        raise Refusal("bad_setup", str(exc)) from None
    if options is not None and not isinstance(options, dict):
        raise Refusal("bad_setup", "options must be a JSON object")
    if isinstance(seats, int) and not isinstance(seats, bool) and seats > table_seats:
        raise Refusal("bad_setup", f"this table has {table_seats} seats, not {seats}")
    try:
        return rules, rules.initial_state(seats, options or {})
    except ValueError as exc:
        raise Refusal("bad_setup", str(exc)) from None


def table_options(game: Any, options: Any, cards: list[Card], components: Components) -> Any:
    """The host's options completed by the game's binding from the enrolled cards (Refusal bad_setup)."""
    if not isinstance(game, str) or game not in GAMES or (options is not None and not isinstance(options, dict)):
        return options  # check_setup names the problem
    try:
        return get_binding(game).table_options(options or {}, [c for c in cards if c.game == game], components)
    except ValueError as exc:
        raise Refusal("bad_setup", str(exc)) from None


def from_record(record: GameRecord) -> Session:
    """Rebuild a journaled game by replaying its actions (raises ValueError if the record no longer replays)."""
    rules = get_rules(record.game)
    state = rules.initial_state(record.seats, record.options)
    for action in record.actions:
        state = rules.apply(state, action)
    # the chance an undo took back is drawn again first after a restart too (a redo re-applies it anyway)
    reserved = tuple(a for a in record.redo if a.get("seat", -1) == CHANCE)
    return Session(record.id, rules, get_binding(record.game), record.seats, record.options,
                   Components(record.components), record.tokens, Log(record.actions), state,
                   reserved_chance=reserved, undone=record.undone, redo=record.redo, redone=record.redone)


def rebuild(session: Session, keep: int) -> Session:
    """The session replayed from its setup through its first `keep` actions, open again (an undo)."""
    rules = session.rules
    state = rules.initial_state(session.seats, session.options)
    for action in session.actions[:keep]:
        state = rules.apply(state, action)
    return replace(session, actions=Log(session.actions[:keep]), state=state, pending=None, ended=None,
                   undone=session.undone + len(session.actions) - keep)


def auto_chance(session: Session, state: Any,
                rng: random.Random) -> tuple[Any, list[dict[str, Json]], tuple[dict[str, Json], ...]]:
    """Supply every chance action due that the table does not read from components: an outcome reserved by
    an undo if it still applies, else a fresh sample. Returns (state, chance actions, reserve left)."""
    sampled: list[dict[str, Json]] = []
    rules = session.rules
    reserved = list(session.reserved_chance)
    physical = session.binding.chance_is_physical
    while rules.to_act(state) == frozenset({CHANCE}) and not physical(state, session.components):
        if len(sampled) >= MAX_AUTO_CHANCE:
            raise Refusal("chance_loop", "the engine asked for chance too many times in a row")
        action = None
        while reserved and action is None:
            candidate = reserved.pop(0)
            try:
                state = rules.apply(state, candidate)
                action = candidate
            except Refusal:  # no longer possible here: forget it
                continue
        if action is None:
            action = rules.sample_chance(state, rng)
            state = rules.apply(state, action)
        sampled.append(action)
    return state, sampled, tuple(reserved)
