"""The checks a host command's fields are read through (`companion.table.core.commands`): each takes the raw JSON
value (None when absent) and all the arguments, and gives the value or raises a Refusal with a stable code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.games.binding import Card
from companion.games.contract import IllegalAction
from companion.games.json_value import Json, JsonObject
from companion.hal.terminal_protocol import is_terminal_id
from companion.table.card_values import CardError, check_deck, normalise_uid
from companion.table.core.guide import GuideMode
from companion.table.core.bots import Player
from companion.table.core.timers import MAX_TIMER_S, AtZero
from companion.table.refusal import Refusal
from companion.table.session import Components

Check = Callable[[Json, JsonObject], Any]
"""A field's check: (its raw JSON value, None when absent; all the arguments) -> the value, or raises a Refusal
(or a CardError) with the stable code."""

PARSE = "parse"
"""The field metadata key of a field's `Read`."""


@dataclass(frozen=True)
class Read:
    """How one field is read from the JSON arguments: its check and its key there (None: the field's name)."""

    check: Check
    key: str | None = None


def read(check: Check, key: str | None = None, **options: Any) -> Any:
    """A command field read through `check` (from `key` in the JSON, else the field's name); `options` are
    `dataclasses.field`'s (a default)."""
    return field(metadata={PARSE: Read(check, key)}, **options)


def internal(default: Any) -> Any:
    """A command field the JSON never sets: always its default (the table's own callers set it)."""
    return field(default=default, metadata={PARSE: None})


def is_int(value: Any) -> bool:
    """True for a JSON integer (never a JSON `true`)."""
    return isinstance(value, int) and not isinstance(value, bool)


def short(text: str) -> str:
    """A message cut to 200 characters."""
    return text[:200]


def flag(name: str) -> Check:
    """True or false, else `bad_field`."""

    def check(value: Json, args: JsonObject) -> bool:
        if not isinstance(value, bool):
            raise Refusal("bad_field", f"field {name!r} must be true or false")
        return value

    return check


def optional_text(code: str, message: Callable[[Any], str]) -> Check:
    """A string or null, else `code` with `message(value)`."""

    def check(value: Json, args: JsonObject) -> str | None:
        if value is not None and not isinstance(value, str):
            raise Refusal(code, short(message(value)))
        return value

    return check


def seat_or_none(code: str, what: str) -> Check:
    """A seat number or null, else `code` ("seat must be `what`, not ...")."""

    def check(value: Json, args: JsonObject) -> int | None:
        if value is not None and not is_int(value):
            raise Refusal(code, short(f"seat must be {what}, not {value!r}"))
        return value

    return check


def as_is(value: Json, args: JsonObject) -> Any:
    """Any value, as given."""
    return value


def as_text(value: Json, args: JsonObject) -> str:
    """Any value, as text."""
    return str(value)


def game_id_or_none(value: Json, args: JsonObject) -> int | None:
    """A finished game's number, or null."""
    return None if value is None else game_id(value, args)


def seconds(value: Json, args: JsonObject) -> int | None:
    """A whole number of seconds within the timer's range, or null."""
    if value is None:
        return None
    if not is_int(value) or not 1 <= value <= MAX_TIMER_S:
        raise Refusal("bad_timer", short(f"seconds is a whole number of seconds from 1 to {MAX_TIMER_S}, not "
                                          f"{value!r}"))
    return int(value)


def timer_seconds(value: Json, args: JsonObject) -> int | None:
    """`seconds`, which must be given (null: the timer off)."""
    if "seconds" not in args:
        raise Refusal("bad_timer", "field 'seconds' is required: a whole number of seconds, or null (off)")
    return seconds(value, args)


def game_id(value: Json, args: JsonObject) -> int:
    """A finished game's number."""
    if not is_int(value) or value < 1:
        raise Refusal("bad_game_id", short(f"a game is named by its number, not {value!r}"))
    return int(value)


def guide_mode(value: Json, args: JsonObject) -> GuideMode:
    """A guide's mode (enroll, check, verify)."""
    try:
        return GuideMode(value)
    except ValueError:
        raise Refusal("bad_field", "field 'mode' must be enroll, check or verify") from None


def action_object(value: Json, args: JsonObject) -> Mapping[str, Any]:
    """An action: a JSON object."""
    if not isinstance(value, dict):
        raise Refusal("malformed", "an action is a JSON object")
    return dict(value)


def options_object(value: Json, args: JsonObject) -> Mapping[str, Any]:
    """A new game's options: a JSON object (null: none)."""
    if not isinstance(value or {}, dict):
        raise Refusal("bad_setup", "options must be a JSON object")
    return dict(value or {})


def components(value: Json, args: JsonObject) -> Components | None:
    """Digital or physical components, or null (the config's)."""
    try:
        return None if value is None else Components.parse(value)
    except IllegalAction as exc:
        raise Refusal(exc.code, exc.message) from None


def bot_seats(value: Json, args: JsonObject) -> tuple[int, ...]:
    """Distinct seat numbers, sorted (null: none)."""
    bots = value or []
    if not isinstance(bots, list) or not all(is_int(s) for s in bots) or len(set(bots)) != len(bots):
        raise Refusal("bad_seat", "field 'bots' is a list of distinct seat numbers")
    return tuple(sorted(bots))


def seat_count(value: Json, args: JsonObject) -> int | None:
    """A number of seats, or null (the config's)."""
    if value is not None and not is_int(value):
        raise Refusal("bad_setup", short(f"seats must be a number, not {value!r}"))
    return value


def enroll_game(value: Json, args: JsonObject) -> str | None:
    """A game id or null (a card's refusal)."""
    if value is not None and not isinstance(value, str):
        raise CardError("bad_card", short(f"unknown game {value!r}"))
    return value


def version(value: Json, args: JsonObject) -> str | None:
    """A seat state's version string, or null."""
    if value is not None and not isinstance(value, str):
        raise Refusal("malformed", "version is the seat state's version string")
    return value


def share_token(value: Json, args: JsonObject) -> str:
    """A replay link's token."""
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise Refusal("bad_share", "that replay link is not valid")
    return value


def terminal_id(value: Json, args: JsonObject) -> str:
    """A terminal id as the terminal announces it."""
    if not is_terminal_id(value):
        raise Refusal("bad_terminal", short("a terminal id is 1 to 64 letters, digits or _ . : - "
                                             f"(as the terminal announces it), not {value!r}"))
    return str(value)


def seat_number(value: Json, args: JsonObject) -> int:
    """A seat number."""
    if not is_int(value):
        raise Refusal("bad_seat", short(f"seat must be a seat number, not {value!r}"))
    return int(value)


def player(value: Json, args: JsonObject) -> Player:
    """Who plays a seat: "bot" or "human"."""
    if value not in tuple(Player):
        raise Refusal("unknown_bot", short(f"a seat is played by 'bot' or 'human', not {value!r}"))
    return Player(value)


def phase(value: Json, args: JsonObject) -> str:
    """A phase of the game (a non-empty id)."""
    if not isinstance(value, str) or not value:
        raise Refusal("unknown_phase", short(f"a timer is set for a phase of the game, not {value!r}"))
    return value


def timer_choice(value: Json, args: JsonObject) -> AtZero:
    """The host's choice at a timer's zero."""
    if value not in tuple(AtZero):
        raise Refusal("bad_choice", short(f"the choice at zero is wait, extend or bot, not {value!r}"))
    return AtZero(value)


def extend_by(value: Json, args: JsonObject) -> int | None:
    """With the choice "extend", `seconds` (null: the timer's length); else None."""
    return seconds(value, args) if args.get("choice") == "extend" else None


def uid(value: Json, args: JsonObject) -> str:
    """A tag's UID, normalised."""
    return normalise_uid(value)


def deck(value: Json, args: JsonObject) -> tuple[Card, ...]:
    """A whole checked deck file's cards."""
    return tuple(check_deck(value))


UNKNOWN_GAME = optional_text("bad_setup", lambda v: f"unknown game {v!r}")
