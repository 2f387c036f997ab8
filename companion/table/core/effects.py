"""What a step asks of the world: journal rows to commit first, then effects to run (LEDs, SSE, terminals)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Mapping

from companion.games.binding import RED, RGB, Card, Light
from companion.games.contract import Components
from companion.table.core.bots import Player
from companion.games.json_value import JsonObject


class PublicEvent(StrEnum):
    """The kinds of event on the public stream (the host's stream carries them too, some with more)."""

    STATE = "state"
    """The public snapshot (`PublishState`)."""
    REJECTED = "rejected"
    UNKNOWN_TAG = "unknown_tag"
    COLLECTED = "collected"
    EXPECTED_VS_SEEN = "expected_vs_seen"
    PLAYERS = "players"
    TIMER_EXPIRED = "timer_expired"


class HostEvent(StrEnum):
    """The kinds of event only the host's stream carries."""

    ENROLL_SEEN = "enroll_seen"
    CARD_ENROLLED = "card_enrolled"
    GUIDE = "guide"
    TERMINAL = "terminal"
    HEALTH = "health"


# --- journal rows: each is one transaction; the shell commits them before running any effect ---------------


@dataclass(frozen=True)
class AppendActions:
    """Accepted actions (with their sources), and the game's end when they finish it: both or neither."""

    game_id: int
    actions: tuple[tuple[JsonObject, str], ...]
    end: tuple[str, JsonObject | None] | None = None


@dataclass(frozen=True)
class StartGame:
    """A new game with the id the core chose, its deal, and the end of the game it replaces."""

    game_id: int
    game: str
    seats: int
    options: JsonObject
    components: Components
    tokens: tuple[str, ...]
    actions: tuple[tuple[JsonObject, str], ...]
    replacing: int | None = None
    players: tuple[tuple[int, Player], ...] = ()
    """Seats played by a bot from the start: (seat, Player.BOT)."""


@dataclass(frozen=True)
class UndoActions:
    """Mark every live action after the first `keep` undone (a game still open: an ended one is never reopened)."""

    game_id: int
    keep: int


@dataclass(frozen=True)
class RedoActions:
    """Make live again the first `count` actions undos took back (a game still open, before any new action)."""

    game_id: int
    count: int


@dataclass(frozen=True)
class EndGameRow:
    """Close a game (ended by the host, or no longer replayable)."""

    game_id: int
    reason: str
    outcome: JsonObject | None = None


@dataclass(frozen=True)
class BindTerminals:
    """Terminal -> seat bindings (None unbinds), all or none."""

    bindings: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class WriteCards:
    """Checked cards into the registry, in one transaction."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DeleteCard:
    """Forget one card."""

    uid: str


@dataclass(frozen=True)
class ShareRow:
    """A replay link for one finished game (token None: revoke every link of that game)."""

    game_id: int
    token: str | None


@dataclass(frozen=True)
class SeatPlayersRow:
    """Who plays seats of a game from its action `at_action` on: (seat, who)."""

    game_id: int
    players: tuple[tuple[int, Player], ...]
    at_action: int


@dataclass(frozen=True)
class TimerRow:
    """The host's timer of one phase of a game (seconds None: off)."""

    game: str
    phase: str
    seconds: int | None


Row = (AppendActions | StartGame | UndoActions | RedoActions | EndGameRow | BindTerminals | WriteCards | DeleteCard | ShareRow
       | SeatPlayersRow | TimerRow)

# --- effects: run in order once every row is committed ---------------------------------------------------------


@dataclass(frozen=True)
class SetScene:
    """Show this LED scene."""

    scene: Mapping[str, Light]


@dataclass(frozen=True)
class Flash:
    """Flash a zone for a moment: red for a refused input; a guided enrollment's tap confirms in its colour."""

    zone: str
    colour: RGB = RED


@dataclass(frozen=True)
class Publish:
    """One event on the live streams. `payload` is what everyone reads, so it is a function of the public view
    alone; `host` is the same event as the host's stream reads it, when the host may know more (a refusal's
    code and seat, a tag's UID)."""

    kind: PublicEvent
    payload: JsonObject
    host: JsonObject | None = None


@dataclass(frozen=True)
class PublishHost:
    """One event for the host's stream only: enrollment, UIDs, terminals, reader faults."""

    kind: HostEvent
    payload: JsonObject


@dataclass(frozen=True)
class PublishState:
    """The new public snapshot: kept for new clients and published as a `state` event."""

    snapshot: JsonObject


@dataclass(frozen=True)
class SendTerminal:
    """One message to a seat terminal."""

    terminal: str
    message: JsonObject


@dataclass(frozen=True)
class Later:
    """Bring `item` back to the core's queue after `delay_s` seconds (a bot's pause, a timer's tick); the shell
    keeps the time, the core decides what the item means when it comes back."""

    delay_s: float
    item: Any


Effect = SetScene | Flash | Publish | PublishHost | PublishState | SendTerminal | Later
