"""Fast copies of the table's frozen values: the loop makes several per input, and `dataclasses.replace`
spends most of its time rebuilding the keyword arguments and re-running `__init__` field by field."""

from __future__ import annotations

from typing import Any, TypeVar

V = TypeVar("V")


def evolve(value: V, **changes: Any) -> V:
    """A copy of a frozen dataclass instance with some fields changed (as `dataclasses.replace`, for classes
    without `__post_init__` or slots); an unknown field name is a TypeError, as there."""
    fields = value.__dict__
    if not changes.keys() <= fields.keys():
        unknown = ", ".join(sorted(changes.keys() - fields.keys()))
        raise TypeError(f"{type(value).__name__} has no field {unknown}")
    new = object.__new__(type(value))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new
