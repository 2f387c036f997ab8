"""Declarative action schemas: one place that turns a JSON action into checked fields or `malformed`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from companion.games.contract import CHANCE, IllegalAction

Check = Callable[[Any, int], Any]
"""A field check: (raw value, seat count) -> the value, or raises IllegalAction('malformed')."""


def _bad(message: str) -> IllegalAction:
    return IllegalAction("malformed", message)


def is_int(value: Any) -> bool:
    """True for a JSON integer; a JSON `true` is never an int here."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat() -> Check:
    """A seat index 0..n-1."""

    def check(value: Any, seats: int) -> int:
        if not is_int(value) or not 0 <= value < seats:
            raise _bad(f"expected a seat 0..{seats - 1}, got {value!r}")
        return value

    return check


def integer(lo: int | None = None, hi: int | None = None) -> Check:
    """An int, optionally bounded (inclusive)."""

    def check(value: Any, seats: int) -> int:
        if not is_int(value):
            raise _bad(f"expected an integer, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise _bad(f"integer {value} out of range")
        return value

    return check


def boolean() -> Check:
    """A JSON boolean."""

    def check(value: Any, seats: int) -> bool:
        if not isinstance(value, bool):
            raise _bad(f"expected true or false, got {value!r}")
        return value

    return check


def one_of(*choices: str) -> Check:
    """A string from a fixed set."""
    allowed = frozenset(choices)

    def check(value: Any, seats: int) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _bad(f"expected one of {sorted(allowed)}, got {value!r}")
        return value

    return check


def text(max_len: int = 200) -> Check:
    """A non-empty string (an id whose meaning the engine checks later)."""

    def check(value: Any, seats: int) -> str:
        if not isinstance(value, str) or not value or len(value) > max_len:
            raise _bad(f"expected a string id, got {value!r}")
        return value

    return check


def list_of(item: Check, min_len: int = 0, max_len: int | None = None, per_seat: bool = False) -> Check:
    """A JSON list of items, returned as a tuple; `per_seat` demands exactly one item per seat."""

    def check(value: Any, seats: int) -> tuple:
        if not isinstance(value, list):
            raise _bad(f"expected a list, got {value!r}")
        if per_seat and len(value) != seats:
            raise _bad(f"expected {seats} entries (one per seat), got {len(value)}")
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            raise _bad(f"list length {len(value)} out of range")
        return tuple(item(v, seats) for v in value)

    return check


def nullable(item: Check) -> Check:
    """The item or JSON null."""

    def check(value: Any, seats: int) -> Any:
        return None if value is None else item(value, seats)

    return check


@dataclass(frozen=True)
class Field:
    """One field of an action: its check, and whether it may be absent (then `default`)."""

    check: Check
    optional: bool = False
    default: Any = None


def opt(check: Check, default: Any = None) -> Field:
    """An optional field."""
    return Field(check, optional=True, default=default)


Handler = Callable[[Any, dict[str, Any]], Any]
"""An action's rule: (state, the parsed action) -> the new state, raising Refusal with the game's own codes."""


@dataclass(frozen=True)
class ActionSpec:
    """The fields of one action type, whether chance (seat -1) plays it, and its `handler`, which
    `Rules.apply` calls once the kit's checks have passed."""

    fields: Mapping[str, Field | Check]
    chance: bool = False
    handler: Handler | None = None


def parse_action(action: Any, specs: Mapping[str, ActionSpec], seats: int) -> dict[str, Any]:
    """Validate a JSON action against the game's specs; unknown extra fields are dropped."""
    if not isinstance(action, Mapping):
        raise _bad(f"an action is a JSON object, got {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in specs:
        raise _bad(f"unknown action type {kind!r}")
    spec = specs[kind]
    raw_seat = action.get("seat")
    if spec.chance:
        if not is_int(raw_seat) or raw_seat != CHANCE:
            raise _bad(f"{kind} is a chance action: seat must be {CHANCE}")
    elif not is_int(raw_seat) or not 0 <= raw_seat < seats:
        raise _bad(f"expected a seat 0..{seats - 1}, got {raw_seat!r}")
    out: dict[str, Any] = {"type": kind, "seat": raw_seat}
    for name, field in spec.fields.items():
        if not isinstance(field, Field):
            field = Field(field)
        if name not in action or (field.optional and action[name] is None):
            if not field.optional:
                raise _bad(f"{kind} needs field {name!r}")
            out[name] = field.default
            continue
        out[name] = field.check(action[name], seats)
    return out


def check_options(options: Any, known: Iterable[str]) -> dict[str, Any]:
    """Options are a JSON object whose keys the game knows; else ValueError naming the key."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a JSON object, got {type(options).__name__}")
    allowed = set(known)
    for key in options:
        if key not in allowed:
            raise ValueError(f"unknown option {key!r} (known: {', '.join(sorted(allowed)) or 'none'})")
    return dict(options)
