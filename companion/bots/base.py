"""The bot protocol: a player deciding from its seat's view and legal actions only, with the rng it is given."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from companion.errors import CompanionError

M = TypeVar("M")

Action = Mapping[str, Any]
"""A JSON action as the engine lists it in `legal_actions`."""


class UnknownBot(CompanionError, LookupError):
    """No player of that name for that game (`unknown_bot`); nothing was seated."""

    code = "unknown_bot"


class BadChoice(CompanionError, ValueError):
    """A bot answered with something that is not one of the legal actions it was given (a bug in the bot)."""

    code = "bot_bad_choice"


@dataclass(frozen=True)
class Decision:
    """What a player chose: one of the legal actions it was given, and why (a reason code with its params,
    "" for a player that gives none); the reason is journaled with the action's source, never in the action."""

    action: Action
    reason: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)


class Player(ABC, Generic[M]):
    """A seat's player for one game. `observe` folds each of the seat's views into its memory (a pure
    function: a table that replays its journal rebuilds the same memory); `decide` picks from the legal
    actions. It is given nothing else: no state, no other seat's view, no clock, no global random."""

    game: ClassVar[str]
    """The registry's game id."""
    kind: ClassVar[str] = "bot"
    """`bot`, or the name of a baseline (`random`, `trust`)."""
    remembers: ClassVar[bool] = False
    """Whether `observe` keeps anything (else it is never called)."""
    reads_view: ClassVar[bool] = True
    """Whether `decide` reads the view (the random player does not, and is then spared building it)."""
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
    """Every reason code `decide` gives, with the names of its params (the page words each one)."""

    def start(self, seat: int) -> M | None:
        """The memory of a player sitting down at `seat`, before its first view."""
        return None

    def observe(self, memory: M | None, view: Mapping[str, Any]) -> M | None:
        """The memory after seeing `view` (one of the seat's views, in the order the game showed them)."""
        return memory

    @abstractmethod
    def decide(self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random,
               memory: M | None = None) -> Decision:
        """One of `legal_actions` (the very object), with its reason."""

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """One of `legal_actions`, from this view alone (memory built from it, as a player that sat down now;
        the seat is the one the legal actions name)."""
        memory = self.observe(self.start(legal_actions[0]["seat"]), view) if self.remembers else None
        return self.decide(view, legal_actions, rng, memory).action


class RandomPlayer(Player[None]):
    """The baseline: a uniformly random legal action (what `companion simulate` plays without bots)."""

    kind = "random"
    reads_view = False

    def __init__(self, game: str) -> None:
        self.game = game  # type: ignore[misc]

    def decide(self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random,
               memory: None = None) -> Decision:
        """Any legal action, each as likely."""
        return Decision(rng.choice(legal_actions))


def checked(decision: Decision, legal_actions: Sequence[Action]) -> Decision:
    """The decision if its action is one of `legal_actions`, else BadChoice (the table never applies a bot's
    invention)."""
    action = decision.action
    if any(action is legal for legal in legal_actions) or action in legal_actions:
        return decision
    raise BadChoice(message=f"the bot chose {dict(action)!r}, which is not one of its legal actions")
