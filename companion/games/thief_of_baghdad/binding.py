"""Thief of Baghdad at the table: palace cards and dancers tapped at seat readers (hands dealt and drawn,
payments), actions chosen on terminals or pages, turn ends by button; a public LED scene (pure).

Zones: `seat:N` (each seat's reader, terminal, buttons and LEDs), `center` (nothing is read there) and the
LED-only `palace:<colour>` per palace and `moves` (thief moves left this turn). Cards: kind `palace` with its
colour, kind `dancer` ("dancer"). The binding reads only the engine's views (docs/RULES.md, Thief of Baghdad) and the
shape of the chance action due, so it holds no engine internals.

Physical play: the starting hands are tapped at each seat's reader (the deal is applied once every seat has
tapped as many cards as it is dealt); after `end_turn` the seat taps the cards it drew (`draw`); a payment is
tapped card by card and then the action (infiltrate / move guard / move neutral) is chosen on the terminal or
page: the tapped cards replace the listed example payment. Buttons: `end` ends the turn, `dancer` ends a turn
without action taking a dancer. Digital play samples deals and draws and takes the listed payments.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.games.binding import (Reading, BINDING_CODES, Carried, DIM, GOLD, WHITE, Binding, Card, Chosen, DeckItem, Effect,
                                     LevelLights, Light, Placed, Pressed, refuse, Removed, RGB, Scene, TableInput,
                                     seat_of)
from companion.games.contract import CHANCE, Components
from companion.games.thief_of_baghdad.board import CARDS_PER_COLOUR, DANCERS
from companion.games.thief_of_baghdad.board import COLORS as COLOURS
from companion.games.thief_of_baghdad.board import THIEF_MOVES_PER_TURN as MOVES
from companion.games.json_value import Json, JsonObject

CARD_KINDS: Mapping[str, tuple[str, ...]] = {"palace": COLOURS, "dancer": ("dancer",)}
"""Enrollment: palace cards by colour, dancers."""
KEYS = ("end", "dancer")
PAID_ACTIONS = ("infiltrate", "move_guard", "move_neutral")

PALACE_RGB: Mapping[str, tuple[int, int, int]] = {
    "red": (255, 0, 0), "blue": (0, 60, 255), "green": (0, 255, 0), "yellow": (255, 200, 0),
    "purple": (150, 0, 255), "white": (200, 200, 200),
}
PALACE_CSS: Mapping[str, str] = {
    "red": "#d2473f", "blue": "#3a8fd6", "green": "#3fb96b", "yellow": "#f2d133", "purple": "#9a5bd6", "white": "#e8e8e8",
}
"""How the page paints each palace."""
COLOUR_WORDS: Mapping[str, tuple[str, str]] = {
    "red": ("Red", "빨강"), "blue": ("Blue", "파랑"), "green": ("Green", "초록"), "yellow": ("Yellow", "노랑"),
    "purple": ("Purple", "보라"), "white": ("White", "하양"),
}
"""Each palace colour in English and Korean (card labels)."""
SEAT_RGB: tuple[RGB, ...] = ((230, 25, 75), (60, 180, 75), (255, 225, 25), (67, 99, 216))
"""Guard and thief colours per seat when the table gives no seat colours (the demo table's first four)."""
NEUTRAL_RGB = (60, 60, 60)
CHEST_RGB = GOLD
GUARD_SPACES = 4
THIEF_PIXELS = 4
CHEST_PIXELS = 4
OFF: RGB = (0, 0, 0)
DARK: tuple[tuple[RGB, ...], ...] = tuple((OFF,) * n for n in range(max(GUARD_SPACES, THIEF_PIXELS) + 1))
"""[n] -> n pixels off."""
CHEST_ROWS: tuple[tuple[RGB, ...], ...] = tuple((CHEST_RGB,) * n + (OFF,) * (CHEST_PIXELS - n)
                                                for n in range(CHEST_PIXELS + 1))
"""[chests left] -> a palace's chest pixels."""


@dataclass(frozen=True)
class Taps:
    """Cards tapped since the last accepted action (`key` names that moment): per seat, in order."""

    key: str
    taps: tuple[tuple[int, str, str], ...] = ()
    """(seat, uid, colour or "dancer")."""

    def __len__(self) -> int:
        return len(self.taps)

    def of(self, seat: int) -> list[str]:
        """The card values this seat tapped."""
        return [value for s, _, value in self.taps if s == seat]

    def add(self, seat: int, card: Card) -> "Taps":
        """One more tap (the same tag twice is refused)."""
        if any(uid == card.uid for _, uid, _ in self.taps):
            raise refuse("already_tapped", "That card was already tapped.")
        return replace(self, taps=self.taps + ((seat, card.uid, card.value),))

    def clear(self, seat: int) -> "Taps":
        """Forget one seat's taps."""
        return replace(self, taps=tuple(t for t in self.taps if t[0] != seat))


MOVES_TRACK = LevelLights(WHITE, MOVES)
TURN_LIGHT = Light(GOLD)
WAIT_LIGHT = Light(DIM)
"""The seats' lights (whose turn, the others), built once: every publish paints every seat."""


class ThiefOfBaghdadBinding(Binding):
    """Inputs -> actions and the LED scene for Thief of Baghdad."""

    game = "thief_of_baghdad"
    info_fields = ()
    scene_fields = ("palaces", "turn", "thief_moves")
    card_kinds = CARD_KINDS
    kind_words = {"palace": ("palace cards", "궁전 카드"), "dancer": ("dancers", "무용수")}
    needed_kinds = ("palace", "dancer")

    def deck_list(self, seats: int) -> tuple[DeckItem, ...]:
        """17 palace cards of each colour, then the 8 dancers."""
        palaces = tuple(DeckItem("palace", c, CARDS_PER_COLOUR, f"{COLOUR_WORDS[c][0]} palace card",
                                 f"{COLOUR_WORDS[c][1]} 궁전 카드") for c in COLOURS)
        return palaces + (DeckItem("dancer", "dancer", DANCERS, "Dancer", "무용수"),)

    def zones(self, seats: int) -> tuple[str, ...]:
        """Seat zones, the centre, a segment per palace and the thief-moves track."""
        return super().zones(seats) + ("center",) + tuple(f"palace:{c}" for c in COLOURS) + ("moves",)

    def _key(self, state: Any) -> str:
        """A fingerprint of the moment: any accepted action changes a hand size, the deck, a turn or a phase."""
        view = self.rules().view(state, None)
        return json.dumps([view.get("phase"), view.get("turn"), view.get("deck"), view.get("thief_moves"),
                           [p.get("hand_size") for p in view.get("players") or ()]])

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """Taps collect hands, draws and payments; choices act (with the tapped payment); buttons end turns."""
        # Digital play never collects taps, so the moment's fingerprint (a whole public view) is not needed.
        key = self._key(state) if mode == Components.PHYSICAL else ""
        taps: Taps = pending if isinstance(pending, Taps) and pending.key == key else Taps(key)
        if isinstance(event, Removed):
            return [], taps
        if isinstance(event, Pressed):
            if event.key not in KEYS:
                raise refuse("unknown_key", BINDING_CODES["unknown_key"])
            return [{"type": "end_turn", "seat": event.seat, "take_dancer": event.key == "dancer"}], taps
        if isinstance(event, Chosen):
            return self._chosen(taps, event.seat, event.action, mode)
        assert isinstance(event, Placed)
        card = event.card
        if card.game != self.game:
            raise refuse("wrong_game", BINDING_CODES["wrong_game"])
        seat = seat_of(event.zone)
        if seat is None or seat >= self.rules().seat_count(state):
            raise refuse("wrong_reader", "Palace cards and dancers are tapped at a seat's own reader.")
        if mode != Components.PHYSICAL:
            raise refuse("unexpected_card", "This game deals and draws digitally: choose on the terminal.")
        template = self.chance_template(state)
        if template is not None:
            return self._chance(template, taps, seat, card)
        return self._payment(state, taps, seat, card)

    def _chosen(self, taps: Taps, seat: int, action: JsonObject, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        if action.get("type") == "clear_taps":
            return [], taps.clear(seat)
        out = {**dict(action), "seat": seat}
        if mode == Components.PHYSICAL and out.get("type") in PAID_ACTIONS:
            paid = taps.of(seat)
            if not paid:
                raise refuse("nothing_tapped", "Tap the cards you pay with at your reader, then choose.")
            out["cards"] = paid
            return [out], taps.clear(seat)
        return [out], taps

    def _chance(self, template: JsonObject, taps: Taps, seat: int,
                card: Card) -> tuple[list[dict[str, Json]], Any]:
        """The deal (every seat taps its hand) or a draw (the seat that ended its turn taps what it drew)."""
        if card.kind == "dancer":
            raise refuse("unexpected_card", "Dancers come from their supply, never from the pile: tap only the "
                                            "palace cards dealt or drawn.")
        if template.get("type") == "deal":
            wanted = [len(h) for h in template["hands"]]
            if len(taps.of(seat)) >= wanted[seat]:
                raise refuse("hand_full", f"This seat is dealt {wanted[seat]} cards and has tapped them all.")
            taps = taps.add(seat, card)
            if all(len(taps.of(s)) == n for s, n in enumerate(wanted)):
                return [{"type": "deal", "seat": CHANCE, "hands": [taps.of(s) for s in range(len(wanted))]}], taps
            return [], taps
        if template.get("type") == "draw":
            target = template.get("target")
            if target is not None and seat != target:
                raise refuse("wrong_reader", "The cards drawn are tapped at the reader of the seat that drew.")
            taps = taps.add(seat, card)
            if len(taps.of(seat)) < len(template["cards"]):
                return [], taps
            action: dict[str, Json] = {"type": "draw", "seat": CHANCE, "cards": taps.of(seat)}
            if target is not None:
                action["target"] = target
            return [action], taps
        raise refuse("unexpected_card", BINDING_CODES["unexpected_card"])

    def _payment(self, state: Any, taps: Taps, seat: int, card: Card) -> tuple[list[dict[str, Json]], Any]:
        """A card of the acting seat's hand, held for the action chosen next."""
        rules = self.rules()
        if seat not in rules.to_act(state):
            raise refuse("not_your_turn", "Pay at your own reader, on your own turn.")
        hand = list(rules.view(state, seat).get("hand") or ())
        if taps.of(seat).count(card.value) >= hand.count(card.value):
            raise refuse("not_in_hand", f"Your hand holds no more {card.value} cards.")
        return [], taps.add(seat, card)

    def facts(self, seats: int) -> dict[str, Json]:
        """The palaces in view order with the colour the page paints each, and the thief moves of a turn."""
        return {**super().facts(seats), "palaces": list(COLOURS),
                "palace_colours": {c: PALACE_CSS[c] for c in COLOURS}, "thief_moves_per_turn": MOVES}

    def chance_is_physical(self, state: Any, mode: Components) -> bool:
        """Physical games read the deal and every draw from the cards tapped."""
        if mode != Components.PHYSICAL:
            return False
        template = self.chance_template(state)
        return template is not None and template.get("type") in ("deal", "draw")

    def reading(self, state: Any, pending: Any, mode: Components) -> tuple[Reading, ...]:
        """The deal (each seat taps its hand at its own reader) or a draw (the seat that drew taps it there)."""
        if not self.chance_is_physical(state, mode):
            return ()
        template = self.chance_template(state) or {}
        key = self._key(state)
        taps = pending if isinstance(pending, Taps) and pending.key == key else Taps(key)
        if template.get("type") == "deal":
            return tuple(Reading(f"seat:{s}", "palace", len(hand), len(taps.of(s)))
                         for s, hand in enumerate(template.get("hands") or ()))
        target = template.get("target")
        seats = range(self.rules().seat_count(state)) if target is None else (target,)
        return tuple(Reading(f"seat:{s}", "palace", len(template.get("cards") or ()), len(taps.of(s))) for s in seats)

    def choices(self, state: Any, seat: int, mode: Components) -> list[dict[str, Json]]:
        """The acting seat may forget the cards it tapped (a payment it no longer means)."""
        if mode == Components.PHYSICAL and seat in self.rules().to_act(state):
            return [{"type": "clear_taps", "seat": seat}]
        return []

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """Seats: whose turn gold. Palaces: guards in their owners' colours (the table's seat colours; neutral
        grey, free off), thieves in their seats' colours, then the chests left in gold. Moves: thief moves left
        this turn."""
        return draw_scene(public_view, seats, seat_colours)

    def _info_since(self, public_view: Mapping[str, Any], seats: int,
                    last: Carried | None) -> tuple[dict[str, Any], Carried | None]:
        """`info`, built once per seat count: it reads no view field (`info_fields`)."""
        if last is not None and last[0] == seats:
            return last[1], last
        info = self.info(public_view, seats)
        return info, (seats, info)

    def _scene_since(self, public_view: Mapping[str, Any], seats: int, seat_colours: tuple[RGB, ...],
                     last: Carried | None) -> tuple[Scene, Carried | None]:
        """`scene`, the last one while the fields it reads and the colours are the same, else the last one with
        the seats, palaces and track that changed drawn again."""
        # the palaces list is the same object while no palace changed (the kit reuses views): compared at a glance
        palaces, turn, used = public_view.get("palaces"), public_view.get("turn"), public_view.get("thief_moves")
        if last is not None:
            was = last[0]
            if was[2] is palaces and was[3] == turn and was[4] == used and was[0] == seats \
                    and (was[1] is seat_colours or was[1] == seat_colours):
                return last[1], last
        key = (seats, seat_colours, palaces, turn, used)
        scene = None if last is None else redrawn(last[0], last[1], key)
        if scene is None:
            scene = self.scene(public_view, seats, seat_colours)
        return scene, (key, scene)

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Nothing rests on a seat reader (a card left there would be read as a tap)."""
        return {f"seat:{i}": () for i in range(self.rules().seat_count(state))}


def draw_scene(view: JsonObject, seats: int, seat_colours: Sequence[RGB]) -> Scene:
    """The scene `ThiefOfBaghdadBinding.scene` describes."""
    own = tuple(seat_colours) if seat_colours and len(seat_colours) >= seats else SEAT_RGB
    turn = view.get("turn")
    scene: Scene = {f"seat:{i}": TURN_LIGHT if turn == i else WAIT_LIGHT for i in range(seats)}
    for palace in view.get("palaces") or ():
        scene[f"palace:{palace.get('color', 'white')}"] = palace_light(palace, own)
    used = int(view.get("thief_moves") or 0)
    scene["moves"] = MOVES_TRACK[max(0, MOVES - used)]
    return scene


def redrawn(was: tuple[Any, ...], last: Scene, key: tuple[Any, ...]) -> Scene | None:
    """The scene for `key` (seat count, colours, palaces, turn, thief moves) from `last`, drawn for the key
    `was`: only what differs drawn again; None when the seats, colours or palaces' names differ."""
    seats, colours, palaces, turn, used = key
    seats_was, colours_was, palaces_was, turn_was, used_was = was
    if seats != seats_was or colours != colours_was or type(turn) is not int or type(turn_was) is not int \
            or type(palaces) is not list or type(palaces_was) is not list or len(palaces) != len(palaces_was):
        return None
    scene = dict(last)
    if turn != turn_was:
        for i in (turn_was, turn):
            if 0 <= i < seats:
                scene[f"seat:{i}"] = TURN_LIGHT if turn == i else WAIT_LIGHT
    own: tuple[RGB, ...] | None = None
    for palace, old in zip(palaces, palaces_was):
        if palace is not old:
            colour = palace.get("color", "white")
            if colour != old.get("color", "white"):
                return None
            if own is None:
                own = tuple(colours) if colours and len(colours) >= seats else SEAT_RGB
            scene[f"palace:{colour}"] = palace_light(palace, own)
    if used != used_was:
        scene["moves"] = MOVES_TRACK[max(0, MOVES - int(used or 0))]
    return scene


def palace_light(palace: JsonObject, own: tuple[RGB, ...]) -> Light:
    """A palace's segment: its guards in their owners' colours, its thieves in theirs, then its chests."""
    n = len(own)
    # loops, not comprehensions: a comprehension is a function call of its own, and a palace is drawn per move
    guards: tuple[RGB, ...] = ()
    for g in palace.get("guards") or ():
        guards += (NEUTRAL_RGB if g == "neutral" else own[int(g) % n],)
    thieves: tuple[RGB, ...] = ()
    for s, k in enumerate(palace.get("thieves") or ()):
        if k:
            thieves += (own[s % n],) * int(k)
    guards, thieves = guards[:GUARD_SPACES], thieves[:THIEF_PIXELS]
    chests = min(len(palace.get("chests") or ()), CHEST_PIXELS)
    return solid(PALACE_RGB.get(palace.get("color", "white"), WHITE),
                 guards + DARK[GUARD_SPACES - len(guards)] + thieves + DARK[THIEF_PIXELS - len(thieves)]
                 + CHEST_ROWS[chests])


def solid(colour: RGB, pixels: tuple[RGB, ...]) -> Light:
    """`Light(colour, pixels=pixels)`, its fields set at once (a frozen dataclass's __init__ sets them one by
    one through object.__setattr__ and then checks the effect, which is the solid default here)."""
    made = object.__new__(Light)
    made.__dict__.update({"colour": colour, "effect": Effect.SOLID, "level": None, "pixels": pixels})
    return made



BINDING = ThiefOfBaghdadBinding()
