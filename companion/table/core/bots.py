"""Bots at the table, as values: which seats of the running game a bot plays, each bot's memory, its scheduled
decisions, and the journaled source of a bot's action (the core's steps with them: `bot_steps`).

A bot seat plays through the same path as a phone. When it is to act, the core asks the shell for a `BotTurn`
after a human-looking pause (`[bots] pause_min_ms`..`pause_max_ms`, drawn from the table's random); at that
turn it decides from the seat's view and legal actions (`companion.bots.Seated`) with a seed drawn from the
table's random, and plays the action through the binding and the engine like any seat's. The seed and the
reason are journaled with the action's source (`bot:{"seed", "reason", "params"}`), never in the action, so
`apply` and the journal's actions are unchanged and a replay decides the action again exactly: the bot's
memory is a pure function of the journal (the seat's views before each of its actions; `Seated.rebuild`).

Only a game with digital components takes a bot: a physical game's components must be held and tapped
(`bot_physical_game` names them). Handing a bot's seat back to a person is refused while the bot is deciding
(`bot_deciding`): the host waits for its move. A phone, terminal or button of a bot's seat is refused
(`seat_is_bot`) until the seat is handed back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping

from companion.bots import Seated

class Player(StrEnum):
    """Who may play a seat: the game's bot, or a person (phone, terminal, buttons, cards); the journal's
    `seat_players` rows say it in these words."""

    BOT = "bot"
    HUMAN = "human"


BOT = Player.BOT
HUMAN = Player.HUMAN
SOURCE_PREFIX = "bot:"
"""An action a bot chose is journaled with the source `bot:` + its JSON (seed, reason, params)."""
BOT_CODES: Mapping[str, str] = MappingProxyType({
    "bot_physical_game": "A bot cannot hold or tap physical components: start the game with digital components.",
    "bot_deciding": "The bot is deciding its move: hand the seat back once it has played.",
    "seat_is_bot": "A bot plays this seat now; the host can hand it back.",
    "unknown_bot": "There is no such player for a seat: a seat is played by the bot or by a person.",
    "not_a_bot": "No bot plays that seat.",
})
"""The refusals of this module, with their English text."""


@dataclass(frozen=True)
class BotTurn:
    """The shell brings this back after the pause: the seat's bot decides now (unless `ticket` is stale)."""

    seat: int
    ticket: int


@dataclass(frozen=True)
class BotTable:
    """The bots of one game: seat -> the seated bot with its memory, and the decisions scheduled."""

    game_id: int | None = None
    seats: Mapping[int, Seated] = field(default_factory=lambda: MappingProxyType({}))
    deciding: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Seat -> the ticket of its scheduled BotTurn."""
    tickets: int = 0

    def plays(self, seat: int) -> bool:
        """Whether a bot plays this seat."""
        return seat in self.seats

    def listed(self) -> list[int]:
        """The bot seats, in order."""
        return sorted(self.seats)


def bot_source(seed: int, reason: str, params: Mapping[str, Any]) -> str:
    """The journaled source of a bot's action."""
    return SOURCE_PREFIX + json.dumps({"seed": seed, "reason": reason, "params": dict(params)},
                                      separators=(",", ":"), sort_keys=True)


def parse_source(source: str) -> dict[str, Any] | None:
    """A bot action's seed, reason and params from its journaled source (None for any other source)."""
    if not isinstance(source, str) or not source.startswith(SOURCE_PREFIX):
        return None
    try:
        data = json.loads(source[len(SOURCE_PREFIX):])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
