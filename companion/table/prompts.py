"""Generic seat prompts: a seat's legal actions as numbered choices with readable English labels; each option
also says its kind (the first level on a small terminal) and short ASCII labels for a terminal's display."""

from __future__ import annotations

from typing import AbstractSet, Any, Callable, Mapping, Sequence

from companion.games.json_value import Json, JsonObject
from companion.games.rules import private_part  # noqa: F401 (the table's name for it)

SKIP_FIELDS = ("type", "seat")
NOT_INFO = frozenset({"log", "card_info"})


class CardNames:
    """A seat's card ids in plain English words, from the card catalogues its view carries (the game's binding
    names each entry, `Binding.card_words`), looked up by id and named once each; with the ASCII form a
    terminal shows (the card's kind where a host-given name is not ASCII). `worded` may carry the words found
    at earlier publishes (card id -> its entry, kind and words), used again while the entry is the same object."""

    __slots__ = ("catalogues", "words", "named", "worded")

    def __init__(self, catalogues: Sequence[tuple[Mapping[str, Any], str | None]],
                 words: Callable[[Mapping[str, Any], str], str],
                 worded: dict[str, tuple[Any, str, tuple[str, str]]] | None = None) -> None:
        self.catalogues = catalogues
        """(card id -> entry, the kind of every entry there or None: each entry's `type`)."""
        self.words = words
        self.named: dict[str, tuple[str, str] | None] = {}
        self.worded = {} if worded is None else worded

    def get(self, card_id: str) -> tuple[str, str] | None:
        """(words, ASCII words) of a card id any catalogue holds, else None (not a card: a plain value)."""
        named = self.named
        if card_id in named:
            return named[card_id]
        found = None
        for catalogue, kind in self.catalogues:
            entry = catalogue.get(card_id)
            if entry is None or not (type(entry) is dict or isinstance(entry, Mapping)):
                continue
            of = kind if kind is not None else str(entry.get("type", "card"))
            known = self.worded.get(card_id)
            if known is not None and known[0] is entry and known[1] == of:
                found = known[2]
            else:
                words = self.words(entry, of)
                found = (words, words if words.isascii() else self.words({}, of))
                self.worded[card_id] = (entry, of, found)
            break
        named[card_id] = found
        return found


def seat_name(seat: int, seat_names: Sequence[str]) -> str:
    """A seat as the terminals name it: its configured name, else "Seat N" (1-based)."""
    name = seat_names[seat] if 0 <= seat < len(seat_names) else ""
    return name or f"Seat {seat + 1}"


def kind(action: JsonObject) -> str:
    """The kind of an action as a terminal's first level names it: its type in words."""
    return str(action.get("type", "?")).replace("_", " ")


def label(action: Mapping[str, Any], seat_names: Sequence[str], seat_fields: AbstractSet[str],
          ascii_only: bool = False, cards: CardNames | None = None) -> str:
    """A short English label: the type, then its fields (a field the game declares a seat by the seat's
    configured name, cards in words)."""
    words, ascii_words = _details(action, seat_names, seat_fields, cards)
    return " ".join([kind(action), *(ascii_words if ascii_only else words)])


def _details(action: Mapping[str, Any], seat_names: Sequence[str],
             seat_fields: AbstractSet[str], cards: CardNames | None = None) -> tuple[list[str], list[str]]:
    """An action's fields as words (a seat field, as the game's `fields` declare it, by the seat's name; a card
    of the seat's catalogues in words), and as a
    terminal shows them (a seat whose name is not ASCII as "Seat N"); one pass for both (the same list while no
    name differs)."""
    parts: list[str] = []
    ascii_parts: list[str] | None = None  # a copy of `parts` only once a seat's name is not ASCII
    for key, value in action.items():
        if key in SKIP_FIELDS:
            continue
        kind_of = type(value)
        # the common cases first, by exact type: most fields are names, lists of names and flags
        if kind_of is str:
            named = None if cards is None else cards.get(value)
            if named is not None and named[0] != named[1]:
                if ascii_parts is None:
                    ascii_parts = list(parts)
                parts.append(named[0])
                ascii_parts.append(named[1])
                continue
            # a key is said in words, as an action's type is ("buy art", not "buy_art")
            word = (value.replace("_", " ") if "_" in value else value) if named is None else named[0]
        elif kind_of is list and cards is not None and any(type(v) is str and cards.get(v) for v in value):
            word = ", ".join([n[1] if (n := cards.get(v)) is not None else str(v) for v in value])
        elif kind_of is list:
            try:  # most lists are of names (cards, seats by name)
                word = " ".join(value)
            except TypeError:
                word = " ".join([str(v) for v in value])
        elif kind_of is bool:
            word = f"{key.replace('_', ' ')} {'yes' if value else 'no'}"
        elif key in seat_fields and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            name = seat_name(value, seat_names)
            if not name.isascii() and ascii_parts is None:
                ascii_parts = list(parts)
            parts.append(name)
            if ascii_parts is not None:
                ascii_parts.append(name if name.isascii() else f"Seat {value + 1}")
            continue
        elif isinstance(value, list):
            word = " ".join(str(v) for v in value)
        elif isinstance(value, bool):
            word = f"{key.replace('_', ' ')} {'yes' if value else 'no'}"
        else:
            word = str(value)
        parts.append(word)
        if ascii_parts is not None:
            ascii_parts.append(word)
    return parts, parts if ascii_parts is None else ascii_parts


def option(value: int, action: Mapping[str, Any], seat_names: Sequence[str],
           seat_fields: AbstractSet[str], cards: CardNames | None = None) -> dict[str, Any]:
    """One prompt option: the label the page shows, and for a terminal its kind and short ASCII labels."""
    kind_of = action.get("type", "?")
    group = (kind_of if type(kind_of) is str else str(kind_of)).replace("_", " ")  # `kind`, inlined: per option
    words, ascii_words = _details(action, seat_names, seat_fields, cards)
    label = f"{group} {' '.join(words)}" if words else group
    return {"value": value, "label": label, "action": action, "group": group,
            "short": label if ascii_words is words else " ".join([group, *ascii_words]),
            "item": " ".join(ascii_words) or group}


def options_of(legal: list[dict[str, Any]], seat_names: Sequence[str], seat_fields: AbstractSet[str],
               start: int = 0, stop: int | None = None, cards: CardNames | None = None) -> list[dict[str, Any]]:
    """A prompt's numbered options for these legal actions (`option_at` each; only `legal[start:stop]`,
    numbered by their place in `legal`, when given)."""
    end = len(legal) if stop is None else stop
    return [option_at(value, legal[value], seat_names, seat_fields, cards) for value in range(start, end)]


def option_at(value: int, action: Mapping[str, Any], seat_names: Sequence[str],
              seat_fields: AbstractSet[str], cards: CardNames | None = None) -> dict[str, Any]:
    """`option(value, action, seat_names, seat_fields, cards)`. An action that is not a plain dict may carry its
    option's words, found once by its game (`option_words`: group, label, short label, item, as `option` gives
    them for an action naming no seat); they are then only read."""
    words = None if type(action) is dict else getattr(action, "option_words", None)
    if words is None:
        return option(value, action, seat_names, seat_fields, cards)
    group, label, short, item = words
    return {"value": value, "label": label, "action": action, "group": group, "short": short, "item": item}


def prompt(ballot: str | None, legal: list[dict[str, Any]], seat_names: Sequence[str], seat_fields: AbstractSet[str],
           private: Mapping[str, Any], options: list[dict[str, Any]] | None = None,
           cards: CardNames | None = None) -> dict[str, Any]:
    """The protocol message asking a seat to choose (or `idle` when it has nothing to do); `options`: the
    options of `legal` when already built (`options_of`)."""
    if not legal:
        return {"v": 1, "type": "idle", "ballot": None, "info": info_of(private)}
    return {"v": 1, "type": "prompt", "ballot": ballot,
            "options": options_of(legal, seat_names, seat_fields, cards=cards) if options is None else options,
            "info": info_of(private)}


def info_of(private: JsonObject) -> dict[str, Json]:
    """A prompt's `info`: the seat's part itself when it is a dict (views are never mutated, and a prompt
    holding the very part lets the next publish see it unchanged at a glance), else a dict copy."""
    return private if type(private) is dict else dict(private)


def prompt_info(part: JsonObject) -> JsonObject:
    """What a prompt carries of a seat's part of its view: not the log nor the card catalogue (`card_info`:
    what the page needs to name cards, no secret and more than a terminal can show)."""
    if NOT_INFO.isdisjoint(part):  # the part itself (a prompt copies what it keeps)
        return part
    return {k: v for k, v in part.items() if k not in NOT_INFO}
