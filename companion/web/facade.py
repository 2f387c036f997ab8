"""The boundary between the web and the running table: the only things a blueprint may ask of the table.

The table (companion.table.TableHandle) implements these protocols; the web never imports companion.hal.
Every method is thread-safe and returns JSON-able data; refusals come back as a `CompanionError` (the table's
own refusal type is one), never raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol

from companion.errors import CompanionError
from companion.games.json_value import Json, JsonObject

@dataclass(frozen=True)
class Event:
    """One server-sent event: `id` (for Last-Event-ID), `type` (SSE event name), JSON-able public `data`."""

    id: str
    type: str
    data: JsonObject


class Subscription(Protocol):
    """A live feed of public events for one SSE client; `closed` turns true when it was cut off (too slow)."""

    closed: bool

    def get(self, timeout: float) -> Event | None:
        """The next event, or None after `timeout` seconds with nothing (time for a heartbeat)."""

    def frames(self, timeout: float) -> bytes | None:
        """Every pending event already encoded as text/event-stream bytes (encoded once for all clients), or
        None after `timeout` seconds with nothing."""

    def push(self, writer: Callable[[bytes], bool]) -> bool:
        """Once caught up (True), every event is handed to `writer` as one HTTP/1.1 chunk as it is published,
        from the publishing thread; `writer` must not block and says False when the client cannot take it."""

    def wait_closed(self, timeout: float) -> bool:
        """Wait up to `timeout` for the feed to be closed or cut off; whether it was."""

    def close(self) -> None:
        """Stop receiving."""


class SimFacade(Protocol):
    """Drive the mock hardware (only present with the mock backend)."""

    def readers(self) -> list[dict[str, Json]]:
        """Every reader with its zone and the tag resting on it."""

    def place(self, reader: str, uid: str) -> CompanionError | None:
        """Put a tag on a reader."""

    def remove(self, reader: str) -> CompanionError | None:
        """Take the tag off a reader."""

    def press(self, seat: int, key: str) -> CompanionError | None:
        """Press a configured button."""

    def buttons(self) -> list[dict[str, Json]]:
        """The configured buttons as {seat, key}."""

    def terminal(self, terminal: str, op: str, ballot: str | None, value: Any,
                 seq: int | None) -> CompanionError | None:
        """`connect`, `disconnect` or `choose` on a mock terminal."""

    def tap_terminal(self, terminal: str, uid: str) -> str | CompanionError:
        """Tap a tag at a plugged-in mock terminal's own reader; the UID as tapped."""

    def fail_reader(self, reader: str, times: int) -> CompanionError | None:
        """Script a reader failure (0 heals it)."""

    def leds(self) -> dict[str, Json]:
        """The LED frame showing now and the zone layout."""

    def terminal_messages(self, terminal: str) -> list[dict[str, Json]] | CompanionError:
        """Messages sent to a mock terminal (its screen); the sim page is for testing without hardware."""


class TableFacade(Protocol):
    """What the web may ask of the table."""

    sim: SimFacade | None

    def public_state(self) -> dict[str, Json]:
        """Public view of the game, table status and hardware health: never seat data."""

    def subscribe(self, last_event_id: str | None, host: bool = False) -> Subscription:
        """Public events after `last_event_id` (or a fresh snapshot first when it is unknown); `host`: the
        host's stream, the same events with what only the host may know (a refusal's code, a tag's UID) and the
        host-only ones (enrollment, terminals, reader faults). Only a host session may ask for it."""

    def seat_for_token(self, token: str) -> int | None:
        """The seat a seat token belongs to in the current game, or None."""

    def seat_state(self, seat: int) -> dict[str, Json]:
        """That seat's view, its prompt (legal actions as choices) and its last refusal (`refused`)."""

    def submit(self, seat: int | None, action: Any, source: str, version: Any = None) -> dict[str, Json] | CompanionError:
        """Judge an action from a seat (None: host acting for whoever the action names); journaled if accepted.
        `version`: the seat state the choice was made on; refused after the table moved past it, it is answered
        `stale_prompt` (the page draws the fresh prompt) and nothing is counted or flashed."""

    def host_state(self) -> dict[str, Json]:
        """Everything the host console shows: seat tokens, health, history, expected vs seen, enrollment."""

    def posted_commands(self) -> tuple[str, ...]:
        """The host commands the host page may post by name (`/api/host/<command>`): each command's dataclass
        says so, so a new one needs no web edit."""

    def host_command(self, command: str, args: Mapping[str, Any]) -> dict[str, Any] | CompanionError:
        """new_game, undo, redo, end_game, resume, enroll_mode, enroll, forget_card, export_cards, import_cards; and
        for finished games: list_games, export_record ({game}: any finished one), share_game ({game, revoke})
        and shared_game ({token}: the game a replay link opens)."""

    def check_pin(self, pin: str) -> bool:
        """Whether `pin` is the host PIN (constant-time)."""

    def redeem_host_link(self, token: str) -> CompanionError | None:
        """Use up a one-time host link (`companion host-link`): None when it logs in, else the refusal."""
