"""Fast copies of frozen dataclass values (a game's state, its log entries) for the hot path of `apply`."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


def evolve(value: T, **changes: Any) -> T:
    """`dataclasses.replace` for a frozen dataclass without `__post_init__`, minus its per-field overhead."""
    kind = type(value)
    fields = value.__dict__.copy()
    fields.update(changes)
    if len(fields) != len(kind.__dataclass_fields__):  # type: ignore[attr-defined]
        # the value holds exactly its fields, so a name that is none of them added a key
        raise TypeError(f"{kind.__name__} has no field(s) {sorted(set(changes) - set(value.__dict__))}")
    new = _new(kind)
    _set(new, "__dict__", fields)
    return new  # type: ignore[no-any-return]


def build(kind: type[T], fields: dict[str, Any]) -> T:
    """A frozen dataclass value of `kind` holding exactly `fields` (every field, none else), without `__init__`:
    for values built on every action, where the dataclass's generated `__init__` costs too much."""
    new = _new(kind)
    _set(new, "__dict__", fields)
    return new  # type: ignore[no-any-return]
