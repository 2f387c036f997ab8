"""The table as a value: status, the game in play, enrollment, expected-vs-seen, prompts, terminals, counters."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from companion.config import TableConfig
from companion.games.binding import Card
from companion.table.core.guide import Guide
from companion.table.core.bots import BotTable
from companion.table.core.timers import Timers
from companion.table.core.values import evolve
from companion.table.records import GameRecord
from companion.table.session import Session
from companion.table.terminals import LinkSeq, TerminalBook


class TableStatus(enum.StrEnum):
    """What the table is doing (JSON keeps the string value)."""

    STARTING = "starting"
    IDLE = "idle"
    RUNNING = "running"
    OVER = "over"
    RESUME_CHECK = "resume_check"


@dataclass(frozen=True)
class Counters:
    """What the table has seen (shown in health)."""

    inputs: int = 0
    accepted: int = 0
    rejected: int = 0
    unknown_tags: int = 0
    duplicates: int = 0
    errors: int = 0
    reader_faults: int = 0

    def add(self, **deltas: int) -> "Counters":
        """These counters with some of them increased."""
        fields = self.__dict__
        return evolve(self, **{name: fields[name] + n for name, n in deltas.items()})

    def as_dict(self) -> dict[str, int]:
        """Every counter by name."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class TableState:
    """Everything the table decides; replaced (never mutated) by each step. Mappings here are never mutated."""

    terminals: TerminalBook
    status: TableStatus = TableStatus.STARTING
    session: Session | None = None
    enrolling: bool = False
    guide: Guide | None = None
    """Guided enrollment, while it runs (enrolling is then on)."""
    scan: tuple[dict[str, Any], ...] = ()
    """Expected vs seen: the zones that differ from what the game expects, with both lists."""
    prompts: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """The message last sent to each seat (its open prompt, or idle)."""
    ballots: int = 0
    links: Mapping[str, LinkSeq] = field(default_factory=dict)
    """Each terminal's current link (port and boot), its highest choice number and latest verdicts (a choice
    resent gets its verdict again, never counted twice)."""
    notes: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """Each seat's last refusal this game ({n, code, message, zone}): its own page shows it, the public never."""
    counters: Counters = Counters()
    announcement: Mapping[str, Any] | None = None
    """The venue's announcement the TV shows until the host dismisses it ({id, text, at}), or None."""
    dismissed: str | None = None
    """The id of the announcement the host dismissed last (the venue's retained copy is not shown again)."""
    bots: BotTable = BotTable()
    """The seats a bot plays in the game in play, with each bot's memory and scheduled decisions."""
    timers: Timers = Timers()
    """The host's advisory timers and the one running."""


class CardLookup(Protocol):
    """The card registry as the core reads it."""

    def get(self, uid: str) -> Card | None:
        """The card a UID is, or None."""

    def all(self) -> list[Card]:
        """Every enrolled card."""


class JournalView(Protocol):
    """The journal as the core reads it (writes are rows the shell commits)."""

    def game(self, game_id: int) -> GameRecord | None:
        """One game with its live actions."""

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent games, newest first."""

    def next_game_id(self) -> int:
        """The id the next new game gets."""

    def finished(self, limit: int = 500) -> list[dict[str, Any]]:
        """Every ended game, newest first."""

    def outcome_of(self, game_id: int) -> dict[str, Any] | None:
        """The journaled outcome of a game."""

    def shared_game(self, token: str) -> int | None:
        """The game a replay link opens."""

    def seat_players(self, game_id: int) -> dict[int, str]:
        """Who plays each seat of a game now, where the host changed it ("bot" or "human")."""

    def rows(self, game_id: int) -> list[dict[str, Any]]:
        """Every action row of a game with its source."""


@dataclass(frozen=True)
class Context:
    """What the core reads but does not own; given these, `step` is deterministic."""

    config: TableConfig
    cards: CardLookup
    journal: JournalView
    present: Callable[[], Mapping[str, str | None]]
    """What each reader holds now (for a rescan)."""
    rng: random.Random
    """Digital chance (shuffles, deals)."""
    now: float = 0.0
    """Wall-clock seconds (terminal last-seen times)."""
    boot: str = ""
    """The event bus' boot id, shown in the public snapshot."""
    reader_zones: Mapping[str, str] = field(default_factory=dict)
    card_key: bytes = b""
    """The table's secret for the ids games know cards by (`cards.card_id`): never a UID."""
    ballot_key: bytes = b""
    """The table's secret for ballot ids (random at each start): a ballot id cannot be guessed from another."""
    tokens: random.Random = field(default_factory=random.SystemRandom)
    """Where seat tokens and replay links are drawn from: the operating system's randomness (unguessable), kept
    apart from `rng` so a test's seeded deals do not depend on how many tokens were drawn."""
