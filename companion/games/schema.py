"""Declarative action schemas: one place that turns a JSON action into checked fields or `malformed`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping

from companion.games.contract import CHANCE, IllegalAction
from companion.games.json_value import Json, JsonObject

Check = Callable[[Json, int], Any]
"""A field check: (raw value, seat count) -> the value, or raises IllegalAction('malformed')."""


def _bad(message: str) -> IllegalAction:
    return IllegalAction("malformed", message)


def is_int(value: object) -> bool:
    """True for a JSON integer; a JSON `true` is never an int here."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat() -> Check:
    """A seat index 0..n-1."""

    def check(value: Json, seats: int) -> int:
        if not is_int(value) or not 0 <= value < seats:
            raise _bad(f"expected a seat 0..{seats - 1}, got {value!r}")
        return value

    return check


def integer(lo: int | None = None, hi: int | None = None) -> Check:
    """An int, optionally bounded (inclusive)."""

    def check(value: Json, seats: int) -> int:
        if not is_int(value):
            raise _bad(f"expected an integer, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise _bad(f"integer {value} out of range")
        return value

    return check


def boolean() -> Check:
    """A JSON boolean."""

    def check(value: Json, seats: int) -> bool:
        if not isinstance(value, bool):
            raise _bad(f"expected true or false, got {value!r}")
        return value

    return check


def one_of(*choices: str) -> Check:
    """A string from a fixed set."""
    allowed = frozenset(choices)

    def check(value: Json, seats: int) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _bad(f"expected one of {sorted(allowed)}, got {value!r}")
        return value

    return check


def text(max_len: int = 200) -> Check:
    """A non-empty string (an id whose meaning the engine checks later)."""

    def check(value: Json, seats: int) -> str:
        if not isinstance(value, str) or not value or len(value) > max_len:
            raise _bad(f"expected a string id, got {value!r}")
        return value

    return check


def list_of(item: Check, min_len: int = 0, max_len: int | None = None, per_seat: bool = False) -> Check:
    """A JSON list of items, returned as a tuple; `per_seat` demands exactly one item per seat."""

    def check(value: Json, seats: int) -> tuple:
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

    def check(value: Json, seats: int) -> Any:
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


def parse_action(action: Json, specs: Mapping[str, ActionSpec], seats: int) -> dict[str, Any]:
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


def check_options(options: Json, known: Iterable[str]) -> dict[str, Any]:
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


# --- view fields: what each field of a game's views and log params holds, declared once per game -----------


class FieldKind(StrEnum):
    """What one view field or log param holds; None is allowed for every kind (a field that does not apply now)."""

    SEAT = "seat"
    """One seat number (-1: chance)."""
    SEATS = "seats"
    """A list of seat numbers."""
    PER_SEAT = "per_seat"
    """A list of one value per seat, in seat order (a single value, or one in a player's record: one seat's own)."""
    LOCATION = "location"
    """A location number, or a list of them (drawn by the location's name)."""
    COUNT = "count"
    """An integer: a counter, an amount, a round."""
    COUNTS = "counts"
    """A list of integers."""
    FLAG = "flag"
    """True or false."""
    FLAGS = "flags"
    """A list of true or false."""
    WORD = "word"
    """An id the page words through the game's translations (a phase, a role, a colour)."""
    WORDS = "words"
    """A list of such ids."""
    CARDS = "cards"
    """A list of cards (their ids in this game, or their faces)."""
    CATALOGUE = "catalogue"
    """Card id -> what the card is (its entries are not fields of the view)."""
    RECORD = "record"
    """A nested object whose keys are fields declared in the same schema."""
    RECORDS = "records"
    """A list of such objects."""
    LOG = "log"
    """The view's recent log window: `{code, params}` entries whose params are fields of the same schema."""
    VALUE = "value"
    """Any JSON value of no fixed shape (a log param one code writes as a number and another as a list)."""


@dataclass(frozen=True)
class ViewField:
    """One declared field: its kind and, for a catalogue, the kind of card its entries describe."""

    kind: FieldKind
    of: str | None = None


class ViewFields:
    """A game's view fields and log params by name: every name means the same thing wherever it appears in the
    game's views (top level, nested records, log params). The page, i18n and the prompt builder read it."""

    __slots__ = ("_fields", "_by_kind")

    def __init__(self, **fields: FieldKind | ViewField) -> None:
        """`name=FieldKind.X` for most fields, `name=ViewField(FieldKind.CATALOGUE, of="demand")` for a catalogue."""
        made = {name: f if isinstance(f, ViewField) else ViewField(f) for name, f in {**KIT_FIELDS, **fields}.items()}
        self._fields: Mapping[str, ViewField] = MappingProxyType(made)
        self._by_kind: Mapping[FieldKind, frozenset[str]] = MappingProxyType(
            {kind: frozenset(n for n, f in made.items() if f.kind is kind) for kind in FieldKind})

    def __getitem__(self, name: str) -> ViewField:
        return self._fields[name]

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def of_kind(self, kind: FieldKind) -> frozenset[str]:
        """The names of every field of this kind."""
        return self._by_kind[kind]

    def catalogues(self) -> dict[str, str]:
        """A game's own catalogue field -> the kind of card its entries describe (the kit's `card_info`, whose
        entries say their own kind, is not one)."""
        return {name: f.of for name, f in self._fields.items() if f.kind is FieldKind.CATALOGUE and f.of}

    def as_json(self) -> dict[str, list[str]]:
        """The kinds the page words a value by (`PAGE_KINDS`) -> the names of their fields, as the binding's facts
        carry them to the page. Names are values, never keys, and no other kind's names are sent: a public
        payload names no field the page does not need (a seat's secret ones are words and cards)."""
        return {kind.value: sorted(self._by_kind[kind]) for kind in PAGE_KINDS if self._by_kind[kind]}

    def problems(self, view: JsonObject, seats: int, public: bool = True) -> list[str]:
        """Every field of `view` (nested records and log params included) this schema does not declare or whose
        value is not of its kind; empty when the view keeps to its declaration. A seat's view (`public` False)
        may hold its own value under a per-seat field's name at its top level (its own chip values)."""
        out: list[str] = []
        self._walk(view, seats, public, out)
        return out

    def _walk(self, record: JsonObject, seats: int, top: bool, out: list[str]) -> None:
        for name, value in record.items():
            field = self._fields.get(name)
            if field is None:
                out.append(f"{name!r} is not declared")
                continue
            if value is None:
                continue
            if not _holds(field.kind, value, seats, top):
                out.append(f"{name!r} is declared {field.kind.value} but holds {value!r}"[:300])
            elif field.kind is FieldKind.RECORD:
                self._walk(value, seats, False, out)
            elif field.kind is FieldKind.RECORDS:
                for item in value:
                    self._walk(item, seats, False, out)
            elif field.kind is FieldKind.LOG:
                for entry in value:
                    self._walk(entry.get("params") or {}, seats, True, out)


def _is_seat(value: Json, seats: int) -> bool:
    return is_int(value) and -1 <= value < seats


def _holds(kind: FieldKind, value: Json, seats: int, top: bool) -> bool:
    """Whether a (non-null) value is of its declared kind (`top`: at a view's top level or in log params)."""
    if kind is FieldKind.SEAT:
        return _is_seat(value, seats)
    if kind is FieldKind.SEATS:
        return isinstance(value, list) and all(is_int(s) and 0 <= s < seats for s in value)
    if kind is FieldKind.PER_SEAT:
        return not top or not isinstance(value, list) or len(value) == seats
    if kind is FieldKind.LOCATION:
        return is_int(value) or (isinstance(value, list) and all(is_int(v) for v in value))
    if kind in _SCALARS:
        return _SCALARS[kind](value)
    if kind in _LISTS:
        return isinstance(value, list) and all(v is None or _SCALARS[_LISTS[kind]](v) for v in value)
    if kind in (FieldKind.CATALOGUE, FieldKind.RECORD):
        return isinstance(value, Mapping)
    if kind in (FieldKind.RECORDS, FieldKind.LOG):
        return isinstance(value, list) and all(isinstance(v, Mapping) for v in value)
    return True  # VALUE: any JSON


_SCALARS: Mapping[FieldKind, Callable[[Json], bool]] = MappingProxyType({
    FieldKind.COUNT: is_int,
    FieldKind.FLAG: lambda v: isinstance(v, bool),
    FieldKind.WORD: lambda v: isinstance(v, str),
})
_LISTS: Mapping[FieldKind, FieldKind] = MappingProxyType({
    FieldKind.COUNTS: FieldKind.COUNT, FieldKind.FLAGS: FieldKind.FLAG, FieldKind.WORDS: FieldKind.WORD,
    FieldKind.CARDS: FieldKind.WORD,
})

PAGE_KINDS = (FieldKind.SEAT, FieldKind.SEATS, FieldKind.PER_SEAT, FieldKind.LOCATION)
"""The kinds the page words by kind (a seat by its name, a location by its); every other value it words by the
field's own translations."""

KIT_FIELDS: Mapping[str, FieldKind] = MappingProxyType({
    "phase": FieldKind.WORD, "log": FieldKind.LOG, "seat": FieldKind.SEAT, "winners": FieldKind.SEATS,
    "card_info": FieldKind.CATALOGUE})
"""The contract's fields, in every game (docs/ARCHITECTURE.md, "The engine contract"): a view's phase and log,
every action's seat, an outcome's winners; and the card catalogue a view may carry (`card_info`: card id -> what
it is, each entry with its `type`)."""
