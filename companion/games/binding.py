"""How a game meets the physical table: the generic binding interface every game's `binding.py` follows.

A binding is pure (no I/O, threads or clock): the table feeds it table inputs and it answers with actions
for the engine to judge; it draws the LED scene from the public view only. See docs/ARCHITECTURE.md,
"A game's table binding".
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Hashable, Iterable, Mapping, Sequence, Union

from companion.games.contract import BINDING_CODES, CHANCE, Components, IllegalAction
from companion.games.memo import Memo
from companion.games.registry import get_game, get_rules
from companion.games.rules import Rules
from companion.games.json_value import Json, JsonObject

RGB = tuple[int, int, int]
Carried = tuple[Any, Any]
"""What a publish hands the next (`_info_since`, `_scene_since`): a key and the value built for it."""

OFF: RGB = (0, 0, 0)
DIM: RGB = (24, 24, 24)
WHITE: RGB = (200, 200, 200)
RED: RGB = (255, 0, 0)
GREEN: RGB = (0, 255, 0)
BLUE: RGB = (0, 60, 255)
GOLD: RGB = (255, 170, 0)
PURPLE: RGB = (150, 0, 255)
ORANGE: RGB = (255, 90, 0)

class Effect(StrEnum):
    """How a zone's LEDs show their colour (a str, so renderers may compare it with "pulse")."""

    SOLID = "solid"
    PULSE = "pulse"
    BLINK = "blink"
    OFF = "off"


def refuse(code: str, message: str | None = None) -> IllegalAction:
    """A binding's refusal: a stable code and its English text (BINDING_CODES' unless a message is given)."""
    return IllegalAction(code, message or BINDING_CODES.get(code, code.replace("_", " ")))


@dataclass(frozen=True)
class Card:
    """An enrolled component: its identity and what it is. The registry keys cards by their tags' UIDs; a
    game's binding sees each card under its id in that game instead (`companion.table.cards.card_id`), so a
    UID never reaches a view, a log or a record."""

    uid: str
    game: str
    kind: str
    value: str
    label: str


@dataclass(frozen=True)
class Placed:
    """A card arrived in a zone."""

    zone: str
    card: Card


@dataclass(frozen=True)
class Removed:
    """A card left a zone."""

    zone: str
    card: Card


@dataclass(frozen=True)
class Pressed:
    """A seat pressed a physical button meaning `key`."""

    seat: int
    key: str


@dataclass(frozen=True)
class Chosen:
    """A seat picked one of its legal actions on a terminal or its phone (`action` names the seat)."""

    seat: int
    action: JsonObject


TableInput = Union[Placed, Removed, Pressed, Chosen]


@dataclass(frozen=True)
class DeckItem:
    """`count` components of one kind and value that the table reads, named in English and Korean (`seat`: the
    seat whose set it belongs to; `sample`: our invented stand-in for an unpublished card list)."""

    kind: str
    value: str
    count: int
    en: str
    ko: str
    seat: int | None = None
    sample: bool = False

    def as_json(self) -> dict[str, Json]:
        """The item as the host page and the label sheet read it."""
        return {"kind": self.kind, "value": self.value, "count": self.count, "label": {"en": self.en, "ko": self.ko},
                "seat": self.seat, "sample": self.sample}


@dataclass(frozen=True)
class Light:
    """What one zone's LEDs show: a colour, an effect, and optionally a level (filled of total pixels) or an
    explicit pixel pattern (`pixels`, painted from the zone's first LED, the rest off; the effect applies)."""

    colour: RGB
    effect: Effect = Effect.SOLID
    level: tuple[int, int] | None = None
    pixels: tuple[RGB, ...] | None = None

    def __post_init__(self) -> None:
        """An effect must be one of Effect's (a string is taken as its member); anything else is a ValueError."""
        if type(self.effect) is Effect:  # the usual case, on every LED scene: nothing to convert
            return
        try:
            object.__setattr__(self, "effect", Effect(self.effect))
        except ValueError:
            raise ValueError(f"unknown LED effect {self.effect!r} (known: {', '.join(Effect)})") from None


Scene = dict[str, Light]


@dataclass(frozen=True)
class Reading:
    """A physical read the table waits for: cards of `kind` (a `kind_words` key) tapped at `zone`, `got` of
    `need` so far (`need` None: as many as the player holds, ended by a confirm). Every part is public: anyone
    at the table sees where cards are tapped and how many."""

    zone: str
    kind: str
    need: int | None
    got: int
    lights: bool = True
    """Whether the zone's LEDs show the count (False: the game's own light there says more meanwhile)."""

    def as_json(self) -> dict[str, Json]:
        """The read as the public snapshot carries it (`game.reading`)."""
        return {"zone": self.zone, "kind": self.kind, "need": self.need, "got": self.got, "lights": self.lights}


class LevelLights:
    """A level track's Light for every fill from 0 to `total`, built once (scenes paint tracks on every
    publish); a fill outside that range gets a Light of its own."""

    __slots__ = ("colour", "total", "effect", "_lights")

    def __init__(self, colour: RGB, total: int, effect: Effect = Effect.SOLID) -> None:
        """The lights of a `total`-pixel track in `colour`."""
        self.colour, self.total, self.effect = colour, total, effect
        self._lights = tuple(Light(colour, effect, (n, total)) for n in range(total + 1))

    def __getitem__(self, filled: int) -> Light:
        """The track `filled` of its total."""
        if 0 <= filled <= self.total:
            return self._lights[filled]
        return Light(self.colour, self.effect, (filled, self.total))


class ValuePattern(tuple):
    """Card values given by a pattern rather than a list (enrolled values with numbers in them).

    A tuple of human-readable forms (so `", ".join(...)` names them) whose `in` matches the regex; the
    card registry checks `value in card_kinds[kind]`, which therefore works for lists and patterns alike.
    """

    regex: "re.Pattern[str]"

    def __new__(cls, regex: str, *forms: str) -> "ValuePattern":
        """`regex` must match a whole value; `forms` describe it for error messages."""
        made = super().__new__(cls, forms)
        made.regex = re.compile(regex)
        return made

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and self.regex.fullmatch(value) is not None

    def __reduce__(self) -> Any:
        return (ValuePattern, (self.regex.pattern, *self))


class Binding:
    """The generic binding: seat zones, choices as actions, no cards; games subclass and extend it."""

    game: str = ""
    card_kinds: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Card kind -> allowed values, for enrollment."""
    kind_words: Mapping[str, tuple[str, str]] = MappingProxyType({})
    """Card kind -> its name in English and Korean (enrollment progress, the physical start check)."""
    needed_kinds: tuple[str, ...] = ()
    """Card kinds a physical game reads and cannot start without (see `deck_list`)."""
    scene_fields: tuple[str, ...] | None = None
    """The public view fields `scene` reads (it reads no other), so a table may reuse the last scene while
    they are equal; None: not declared (the scene is drawn anew every time)."""
    info_fields: tuple[str, ...] | None = None
    """The public view fields `public_info` reads (as `scene_fields`; None: not declared)."""
    mode_options: frozenset[str] = frozenset()
    """Engine options `table_options` sets from the components (digital or physical), never the host: the host's
    new-game form leaves them out."""

    def deck_list(self, seats: int) -> tuple[DeckItem, ...]:
        """Every component the table reads at this seat count, in the order a builder enrolls them."""
        return ()

    @property
    def codes(self) -> Mapping[str, str]:
        """Every refusal code the binding itself may raise, with English text (its engine's `binding_codes`)."""
        return self.rules().binding_codes

    def rules(self) -> Rules:
        """The engine this binding feeds."""
        return get_rules(self.game)

    def zones(self, seats: int) -> tuple[str, ...]:
        """Every logical zone the game uses: `seat:N` per seat, then shared zones."""
        return tuple(f"seat:{i}" for i in range(seats))

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """Table input -> zero or more actions (engine-judged) and the new partial input; may raise IllegalAction."""
        if isinstance(event, Chosen):
            return [{**dict(event.action), "seat": event.seat}], pending
        if isinstance(event, Removed):
            return [], pending
        if isinstance(event, Placed):
            if event.card.game != self.game:
                raise IllegalAction("wrong_game", BINDING_CODES["wrong_game"])
            raise IllegalAction("unexpected_card", BINDING_CODES["unexpected_card"])
        raise IllegalAction("unknown_key", BINDING_CODES["unknown_key"])

    def table_options(self, options: JsonObject, cards: Iterable[Card], mode: Components) -> dict[str, Json]:
        """The engine options for a new game, given the host's options and every enrolled card (a game whose
        card list is unpublished builds it from the enrolled cards here); ValueError when they do not fit."""
        return dict(options)

    def card_words(self, entry: Mapping[str, Any], kind: str) -> str:
        """A card of a view's catalogue (`card_info`, or a `catalogue_fields` field: `kind` is its entry's type or
        the field's kind) in plain English for a terminal's label: the name the host gave it, else its kind's
        word (one card of it)."""
        name = entry.get("name")
        if isinstance(name, str) and name:
            return name
        words = self.kind_words.get(kind, (kind.replace("_", " "),))[0]
        return words[:-1] if words.endswith("s") and not words.endswith("ss") else words

    def choices(self, state: Any, seat: int, mode: Components) -> list[dict[str, Any]]:
        """Table-side choices offered to a seat besides its legal actions (e.g. "my hand is scanned")."""
        return []

    def choices_key(self, state: Any, seat: int, mode: Components) -> Hashable | None:
        """A cheap value that equals (`==`) the one given for another state only when `choices` gives this
        seat the same list in both (with `Rules.choices_key`, a table then keeps the seat's prompt without
        asking); None: no such key."""
        return None

    def info(self, public_view: JsonObject, seats: int) -> dict[str, Json]:
        """What the table publishes beside the public view (`game.table_info`): the game's `facts` and the
        game's `public_info`."""
        return {"facts": self.facts(seats), **self.public_info(public_view, seats)}

    def cached_info(self, public_view: JsonObject, seats: int, memo: Memo) -> dict[str, Json]:
        """`info`, with the facts built once per seat count and the public info reused while the view's
        `info_fields` are equal, or through the game's `_info_since` (the values are shared from one publish
        to the next: never mutated)."""
        if type(self)._info_since is not Binding._info_since:
            return memo.since("binding.info_since", self._info_since, public_view, seats)
        facts = memo.get("binding.facts", seats, lambda: self.facts(seats))
        fields = self.info_fields
        if fields is None:
            return {"facts": facts, **self.public_info(public_view, seats)}
        key = (seats, *[public_view.get(f) for f in fields])
        return memo.get("binding.info", key,
                        lambda: {"facts": facts, **self.public_info(public_view, seats)})

    def cached_scene(self, public_view: JsonObject, seats: int, seat_colours: tuple[RGB, ...],
                     memo: Memo) -> Scene:
        """`scene`, reused while the view's `scene_fields`, the seat count and colours are equal, or through the
        game's `_scene_since` (shared from one publish to the next: copy it before changing it)."""
        if type(self)._scene_since is not Binding._scene_since:
            return memo.since("binding.scene_since", self._scene_since, public_view, seats, seat_colours)
        fields = self.scene_fields
        if fields is None:
            return self.scene(public_view, seats, seat_colours)
        key = (seats, seat_colours, *[public_view.get(f) for f in fields])
        return memo.get("binding.scene", key, lambda: self.scene(public_view, seats, seat_colours))

    def _info_since(self, public_view: Mapping[str, Any], seats: int,
                    last: Carried | None) -> tuple[dict[str, Any], Carried | None]:
        """Optional, for speed only: `info` and the (key, value) to hand the next publish, given the last
        publish's (None at the first): a game that extends the last info overrides it."""
        return self.info(public_view, seats), None

    def _scene_since(self, public_view: Mapping[str, Any], seats: int, seat_colours: tuple[RGB, ...],
                     last: Carried | None) -> tuple[Scene, Carried | None]:
        """Optional, for speed only: `scene` and the (key, value) to hand the next publish, given the last
        publish's (None at the first): a game that repaints only what changed overrides it."""
        return self.scene(public_view, seats, seat_colours), None

    def facts(self, seats: int) -> dict[str, Any]:
        """Fixed facts of the game at this seat count that the page draws with (so the page keeps no copy): what
        each field of its views, log params and actions holds (`fields`: `FieldKind` -> names, the game's one
        declaration) and the catalogue fields with the kind of card each describes (`catalogue_fields`: the page
        names those cards by what they are wherever a value holds their id, and lists no catalogue as a value)."""
        fields = get_game(self.game).fields
        return {"fields": fields.as_json(), "catalogue_fields": fields.catalogues()}

    def public_info(self, public_view: JsonObject, seats: int) -> dict[str, Json]:
        """Public table information drawn from the public view only (e.g. what the bank pays out)."""
        return {}

    def chance_is_physical(self, state: Any, mode: Components) -> bool:
        """Whether the table must read this chance outcome from components (else it samples it)."""
        return False

    def reading(self, state: Any, pending: Any, mode: Components) -> tuple[Reading, ...]:
        """The physical reads the table waits for now, each with where and how many (`pending`: the partial input
        so far); from public facts only. None by default (a game that reads no components)."""
        return ()

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """LED scene from the public view only: living seats dim by default. `seat_colours` are the table's
        configured seat colours in seat order, for a game that paints seats' pieces in them (empty: its own)."""
        return {f"seat:{i}": Light(DIM) for i in range(seats)}

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Zone -> the (kind, value) cards that should rest there now; zones not listed are not checked."""
        return {}

    def chance_template(self, state: Any) -> dict[str, Json] | None:
        """The shape of the chance action due now (a sample with a fixed seed), or None when chance is not due."""
        rules = self.rules()
        if rules.to_act(state) != frozenset({CHANCE}):
            return None
        return rules.sample_chance(state, random.Random(0))


def seat_of(zone: str) -> int | None:
    """The seat of a `seat:N` zone, else None."""
    kind, _, index = zone.partition(":")
    return int(index) if kind == "seat" and index.isdigit() else None


def get_binding(game: str) -> Binding:
    """The table binding of a registered game (its declaration's); an unknown game raises ValueError."""
    return get_game(game).binding
