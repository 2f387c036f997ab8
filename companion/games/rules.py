"""The base every engine builds on: seat and option checks, the dispatch of actions to their handlers in the
fixed order of refusals, the publish views (cached for the table), log redaction."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Hashable, Iterable, Mapping, Sequence, TypeVar

from companion.games.contract import BINDING_CODES, CHANCE, COMMON_CODES, Described, Outcome, Refusal, described
from companion.games.memo import Memo
from companion.games.publishing import Reuse, Views, fresh_views, private_part, reused_views
from companion.games.reveal import RevealLine
from companion.games.schema import ActionSpec, Handler, check_options, is_int, parse_action

S = TypeVar("S")


@dataclass(frozen=True)
class LogEntry:
    """One log line: a code with params; `to` is None for public, else the seats that may read it."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether this viewer (None = public) may read the entry."""
        return self.to is None or (seat is not None and seat in self.to)


def log_view(log: Sequence[LogEntry], seat: int | None, reveal_all: bool = False) -> list[dict[str, Any]]:
    """The log as a viewer may see it: `{code, params}` entries, private ones dropped."""
    return [
        {"code": e.code, "params": dict(e.params)}
        for e in log
        if reveal_all or e.visible_to(seat)
    ]


class Rules(ABC, Generic[S]):
    """One game's rules; stateless: every method is a pure function of its arguments."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    actions: ClassVar[Mapping[str, ActionSpec]]
    """The action vocabulary: type -> fields and handler (docs/RULES.md is the contract)."""
    phase_actions: ClassVar[Mapping[Any, frozenset[str]]]
    """Phase -> the action types it takes (anything else is refused `wrong_phase`)."""
    _by_phase: ClassVar[Mapping[str, frozenset[str]]]
    """`phase_actions` by phase id, derived when a subclass is made."""
    _has_precheck: ClassVar[bool] = False
    """Whether the game gives `_prechecked` (derived)."""
    _handlers: ClassVar[dict[str, Handler]]
    """Action type -> handler, from `actions` (derived: a plain dict is the fastest lookup)."""
    phase_type: ClassVar[type[Described]]
    """The game's Phase enum: every `phase` value, each with a one-line English description."""
    phases: ClassVar[Mapping[str, str]]
    """Every `phase` value with its description: derived from `phase_type` when a subclass is made."""
    reason_type: ClassVar[type[StrEnum]]
    """The game's outcome Reason enum: every `Outcome.reason` it can give."""
    own_codes: ClassVar[Mapping[str, str]]
    """The game's own Refusal codes with English text."""
    log_codes: ClassVar[Mapping[str, tuple[str, ...]]]
    """Every log entry code the engine can write, with the names of its params."""
    own_binding_codes: ClassVar[Mapping[str, str]] = {}
    """Refusal codes only the game's table binding raises (besides BINDING_CODES and engine codes), with text."""
    own_public_codes: ClassVar[frozenset[str]] = frozenset()
    """The game's own codes (of `own_codes`) that the engine raises from the public view and the action alone,
    never from a hidden fact (a term limit, a dead target): the table may show them to everyone. Every other
    code of the game goes only to the acting seat and the host, since it may say what a hand holds."""
    public_binding_codes: ClassVar[frozenset[str]] = frozenset()
    """The binding's codes (of `binding_codes`) it raises from the public view and the card's face alone: none
    unless the game says so, since a tapped card's kind and value are hidden facts until shown."""
    option_defaults: ClassVar[Mapping[str, Any]] = {}
    """Every option the game takes, with its default."""
    reuse: ClassVar[Reuse[Any]] = Reuse()
    """Optional, for speed only: how a publish's views are built from the last one's (`publishing.Reuse`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "phase_type" in cls.__dict__:
            cls.phases = described(cls.phase_type)
        if "phase_actions" in cls.__dict__:
            cls._by_phase = {getattr(phase, "value", phase): kinds for phase, kinds in cls.phase_actions.items()}
        if "actions" in cls.__dict__:
            missing = sorted(kind for kind, spec in cls.actions.items() if spec.handler is None)
            if missing:
                raise TypeError(f"{cls.__name__}: no handler for action type(s) {', '.join(missing)}")
            cls._handlers = {kind: spec.handler for kind, spec in cls.actions.items()}  # type: ignore[misc]
        cls._has_precheck = cls._prechecked is not Rules._prechecked

    @property
    def codes(self) -> dict[str, str]:
        """Every Refusal code this engine can raise, with its English text."""
        return {**COMMON_CODES, **self.own_codes}

    @property
    def public_codes(self) -> frozenset[str]:
        """Every engine code the table may show to everyone: the contract's (checked first, from the action's
        shape, `to_act` and the phase, all public) and the game's own public ones (`own_public_codes`)."""
        return frozenset(COMMON_CODES) | self.own_public_codes

    @property
    def binding_codes(self) -> dict[str, str]:
        """Every refusal code the game's table binding may raise, with English text."""
        return {**BINDING_CODES, **self.own_binding_codes}

    @property
    def outcome_reasons(self) -> tuple[str, ...]:
        """Every reason an outcome of this game can give."""
        return tuple(reason.value for reason in self.reason_type)

    # --- the contract -----------------------------------------------------------------------

    def initial_state(self, seats: int, options: Mapping[str, Any] | None = None) -> S:
        """The state before the first (chance) action; bad seats or options raise ValueError."""
        if not is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{self.name} takes {self.min_seats}..{self.max_seats} seats, got {seats!r}")
        opts = {**self.option_defaults, **check_options(options, self.option_defaults)}
        return self._initial(seats, self._check_options(opts, seats))

    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now; {CHANCE} when chance must be supplied; empty when over."""
        return self._to_act(state)

    def legal_actions(self, state: S, seat: int) -> list[dict[str, Any]]:
        """The JSON actions that `apply` accepts from this seat now ([] for chance or a waiting seat)."""
        if seat == CHANCE or seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def choices_key(self, state: S, seat: int) -> Hashable | None:
        """A cheap value that equals (`==`) the one given for another state only when this (acting) seat's
        `legal_actions` are the same in both, so a table keeps the seat's prompt without asking; None: no
        such key (the seat is asked every publish)."""
        return None

    def sample_chance(self, state: S, rng: random.Random) -> dict[str, Any]:
        """A chance action drawn with the right odds."""
        if self.to_act(state) != frozenset({CHANCE}):
            raise Refusal("not_your_turn", "chance is not to act now", public=True)
        return self._sample_chance(state, rng)

    def apply(self, state: S, action: Any) -> S:
        """The state after `action`: the kit's checks in the contract's order (`malformed`, `game_over`,
        `not_your_turn`, `wrong_phase`), then the action type's handler; never mutates `state`. A refusal
        says whether its code is public (`public_codes`)."""
        try:
            if self._has_precheck and self._prechecked(state, action):
                return self._handlers[action["type"]](state, action)  # type: ignore[no-any-return]
            parsed = parse_action(action, self.actions, self.seat_count(state))
            acting = self.to_act(state)
            if not acting:
                raise Refusal("game_over", COMMON_CODES["game_over"])
            if parsed["seat"] not in acting:
                raise Refusal("not_your_turn", COMMON_CODES["not_your_turn"])
            if parsed["type"] not in self.allowed(state, parsed["seat"]):
                raise Refusal("wrong_phase", f"{parsed['type']} is not possible in phase {self.phase(state)}")
            return self._handlers[parsed["type"]](state, parsed)  # type: ignore[no-any-return]
        except Refusal as refusal:
            refusal.public = refusal.code in self.public_codes
            raise

    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """JSON-able view; None = public; a seat's view adds only what it may know."""
        if seat is not None and (not is_int(seat) or not 0 <= seat < self.seat_count(state)):
            raise ValueError(f"no seat {seat!r} in a {self.seat_count(state)}-seat game")
        return self._view(state, seat)

    def seat_part(self, state: S, seat: int, public: Mapping[str, Any]) -> dict[str, Any]:
        """What `seat`'s view adds to `public` (this state's public view), without the log: always equal to
        `private_part(view(state, seat), public)`, built from `public` where the game knows how."""
        if not is_int(seat) or not 0 <= seat < self.seat_count(state):
            raise ValueError(f"no seat {seat!r} in a {self.seat_count(state)}-seat game")
        return private_part(self._seat_own(state, seat, public), public)

    def views(self, state: S, memo: Memo | None = None) -> Views:
        """One publish's views: the public view, built once, and every seat's `seat_part` of it. With the
        table's `memo` (the Session's: per game) the kit reuses the last publish for the same state and hands
        it to the game's `reuse` (companion/games/publishing.py): the same result, its values shared from one
        publish to the next (never mutated)."""
        return fresh_views(self, state) if memo is None else reused_views(self, state, memo)

    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs, else who won and why."""
        return self._outcome(state)

    def reveal(self, state: S, ended: bool = False) -> list[dict[str, Any]]:
        """What really happened, as `{code, params}` lines for the reveal: only once the game is over (by its
        rules, or `ended` by the host), since the lines open every secret; [] before."""
        if not ended and self._outcome(state) is None:
            return []
        return [line.to_json() for line in self._reveal(state)]

    def winning_sides(self, state: S) -> list[str]:
        """The team or role ids the winners played (history counts wins by them); [] before the end or where
        seats win on their own."""
        outcome = self._outcome(state)
        return [] if outcome is None else self._winning_sides(state, outcome)

    def _reveal(self, state: S) -> Iterable[RevealLine]:
        return ()

    def _winning_sides(self, state: S, outcome: Outcome) -> list[str]:
        return []

    # --- what each engine provides ----------------------------------------------------------

    def seat_count(self, state: S) -> int:
        """How many seats the game has (by convention the state's `seats`)."""
        return state.seats  # type: ignore[attr-defined]

    def phase(self, state: S) -> str:
        """The current phase id (by convention the state's `phase`, a str or a str-valued enum)."""
        phase = state.phase  # type: ignore[attr-defined]
        return getattr(phase, "_value_", phase)  # an enum member's value without the `value` property

    def allowed(self, state: S, seat: int) -> frozenset[str]:
        """Action types this (acting) seat may use in the current phase (`phase_actions`); others are
        `wrong_phase`."""
        return self._by_phase[self.phase(state)]

    def _prechecked(self, state: S, action: Any) -> bool:
        """Optional, for speed only: True when `action` is a plain dict that certainly passes every check of
        `apply` up to the handler's (well-formed, from a seat to act, in the right phase), so `apply` hands
        it to its type's handler as it is; False sends it through the checks. Never True for an action the
        checks would refuse or parse otherwise (tested against the checks over random walks)."""
        return False

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """Validate option values (keys are already known); raise ValueError naming the option."""
        return options

    @abstractmethod
    def _initial(self, seats: int, options: dict[str, Any]) -> S: ...

    @abstractmethod
    def _to_act(self, state: S) -> frozenset[int]: ...

    @abstractmethod
    def _legal(self, state: S, seat: int) -> list[dict[str, Any]]: ...

    @abstractmethod
    def _sample_chance(self, state: S, rng: random.Random) -> dict[str, Any]: ...

    @abstractmethod
    def _view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _outcome(self, state: S) -> Outcome | None: ...

    def _seat_own(self, state: S, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        """The fields where `seat`'s view differs from `public` (others and `log` may be present; they are
        dropped): by default the whole seat view; a game overrides it to build only the seat's own fields."""
        return self._view(state, seat)
