"""A tiny test-only game for the table machinery: a hidden deal, a simultaneous vote, a physical-able draw.

Round: chance `deal {secrets}` once; every seat votes ja/nein (hidden until all are in); chance
`draw {tiles: [2 of L/F]}`; the leader (seat = round % seats) `pick {tile}`; three rounds, then seats whose
secret matches the majority of picks win.
"""

from __future__ import annotations

import random
from types import MappingProxyType
from dataclasses import dataclass, replace
from typing import Any

from companion.games import CHANCE, Outcome, Refusal, Rules
from companion.games.declaration import Game
from companion.games.binding import DIM, GREEN, RED, WHITE, Binding, Light, Placed, Scene, TableInput
from companion.games.schema import ActionSpec, FieldKind, ViewFields, list_of, one_of


@dataclass(frozen=True)
class TinyState:
    seats: int
    phase: str = "deal"
    secrets: tuple[str, ...] = ()
    votes: tuple[str | None, ...] = ()
    revealed: bool = False
    hand: tuple[str, ...] = ()
    picks: tuple[str, ...] = ()
    round: int = 0


def deal(s: TinyState, a: dict[str, Any]) -> TinyState:
    return replace(s, phase="vote", secrets=a["secrets"], votes=(None,) * s.seats, revealed=False)


def vote(s: TinyState, a: dict[str, Any]) -> TinyState:
    votes = s.votes[:a["seat"]] + (a["vote"],) + s.votes[a["seat"] + 1:]
    if None in votes:
        return replace(s, votes=votes, revealed=False)
    return replace(s, votes=votes, revealed=True, phase="draw")


def draw(s: TinyState, a: dict[str, Any]) -> TinyState:
    return replace(s, phase="pick", hand=a["tiles"])


def pick(s: TinyState, a: dict[str, Any]) -> TinyState:
    if a["tile"] not in s.hand:
        raise Refusal("not_in_hand", "That tile was not drawn.")
    picks = s.picks + (a["tile"],)
    if s.round + 1 >= 3:
        return replace(s, phase="over", picks=picks, hand=(), round=s.round + 1)
    return replace(s, phase="vote", picks=picks, hand=(), round=s.round + 1, votes=(None,) * s.seats,
                   revealed=False)


class Tiny(Rules[TinyState]):
    name = "tiny"
    title = "Tiny"
    min_seats = 2
    max_seats = 4
    actions = {
        "deal": ActionSpec({"secrets": list_of(one_of("L", "F"), per_seat=True)}, chance=True, handler=deal),
        "vote": ActionSpec({"vote": one_of("ja", "nein")}, handler=vote),
        "draw": ActionSpec({"tiles": list_of(one_of("L", "F"), 2, 2)}, chance=True, handler=draw),
        "pick": ActionSpec({"tile": one_of("L", "F")}, handler=pick),
    }
    phases = {"deal": "secrets dealt", "vote": "everyone votes", "draw": "two tiles drawn",
              "pick": "the leader picks", "over": "done"}
    own_codes = {"not_in_hand": "That tile was not drawn."}

    def seat_count(self, s: TinyState) -> int:
        return s.seats

    def phase(self, s: TinyState) -> str:
        return s.phase

    phase_actions = {"deal": frozenset({"deal"}), "vote": frozenset({"vote"}), "draw": frozenset({"draw"}),
                     "pick": frozenset({"pick"}), "over": frozenset()}

    def _initial(self, seats: int, options: dict[str, Any]) -> TinyState:
        return TinyState(seats)

    def _to_act(self, s: TinyState) -> frozenset[int]:
        if s.phase in ("deal", "draw"):
            return frozenset({CHANCE})
        if s.phase == "vote":
            return frozenset(i for i, v in enumerate(s.votes) if v is None)
        if s.phase == "pick":
            return frozenset({s.round % s.seats})
        return frozenset()

    def _legal(self, s: TinyState, seat: int) -> list[dict[str, Any]]:
        if s.phase == "vote":
            return [{"type": "vote", "seat": seat, "vote": v} for v in ("ja", "nein")]
        return [{"type": "pick", "seat": seat, "tile": t} for t in sorted(set(s.hand))]

    def _sample_chance(self, s: TinyState, rng: random.Random) -> dict[str, Any]:
        if s.phase == "deal":
            return {"type": "deal", "seat": CHANCE, "secrets": [rng.choice("LF") for _ in range(s.seats)]}
        return {"type": "draw", "seat": CHANCE, "tiles": [rng.choice("LF"), rng.choice("LF")]}

    def _view(self, s: TinyState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": s.phase, "round": s.round, "picks": list(s.picks),
            "voted": [v is not None for v in s.votes],
            "votes": list(s.votes) if s.revealed else [None] * len(s.votes), "log": []}
        if seat is not None:
            view["secret"] = s.secrets[seat] if s.secrets else None
            view["hand"] = list(s.hand) if seat == s.round % s.seats and s.phase == "pick" else []
        return view

    def _outcome(self, s: TinyState) -> Outcome | None:
        if s.phase != "over":
            return None
        major = "L" if s.picks.count("L") >= 2 else "F"
        return Outcome(frozenset(i for i, x in enumerate(s.secrets) if x == major), "picks")


class TinyBinding(Binding):
    """Votes from ballot cards and buttons; in physical mode the two drawn tiles are tapped anywhere."""

    game = "tiny"
    card_kinds = MappingProxyType({"ballot": ("ja", "nein"), "tile": ("L", "F")})

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: str) -> tuple[list[dict[str, Any]], Any]:
        from companion.games.binding import Pressed
        tiles = pending or ()
        if isinstance(event, Pressed):
            return [{"type": "vote", "seat": event.seat, "vote": event.key}], tiles
        if isinstance(event, Placed) and event.card.kind == "ballot" and event.zone.startswith("seat:"):
            return [{"type": "vote", "seat": int(event.zone[5:]), "vote": event.card.value}], tiles
        if isinstance(event, Placed) and event.card.kind == "tile" and self.chance_is_physical(state, mode):
            tiles = tiles + (event.card.value,)
            if len(tiles) < 2:
                return [], tiles
            return [{"type": "draw", "seat": CHANCE, "tiles": list(tiles)}], ()
        return super().on_input(state, tiles, event, mode)

    def chance_is_physical(self, state: Any, mode: str) -> bool:
        return mode == "physical" and state.phase == "draw"

    def scene(self, public_view: Any, seats: int, seat_colours: Any = ()) -> Scene:
        scene: Scene = {}
        for i in range(seats):
            vote = public_view["votes"][i] if public_view["votes"] else None
            voted = public_view["voted"][i] if public_view["voted"] else False
            scene[f"seat:{i}"] = Light(GREEN if vote == "ja" else RED) if vote else Light(WHITE if voted else DIM)
        return scene

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        return {f"seat:{i}": () for i in range(state.seats)}


RULES = Tiny()
BINDING = TinyBinding()

FIELDS = ViewFields(round=FieldKind.COUNT, picks=FieldKind.CARDS, voted=FieldKind.FLAGS, votes=FieldKind.PER_SEAT,
                    secret=FieldKind.WORD, hand=FieldKind.CARDS, secrets=FieldKind.VALUE, vote=FieldKind.WORD,
                    tiles=FieldKind.CARDS, tile=FieldKind.WORD)

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=3)
