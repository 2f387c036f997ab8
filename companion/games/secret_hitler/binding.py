"""Secret Hitler at the table: ballots, buttons and policy tiles in, a public LED scene out (pure).

Zones: `seat:N` (each seat's reader, terminal and LEDs), `board` (the policy board reader), LED-only
`track:liberal`, `track:fascist`, `track:election`. Roles and the deck are dealt digitally by default; with
physical components the president taps the drawn (or peeked) tiles and the chancellor lays the enacted tile
on the board reader. Votes come from ja/nein buttons, ballot cards on a seat reader, terminals or phones.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.games.binding import (Reading, BLUE, DIM, GOLD, GREEN, OFF, ORANGE, PURPLE, RED, WHITE,
                                     Binding, Chosen, DeckItem, Effect, LevelLights, Light, Placed, Pressed, Removed,
                                     RGB, Scene, TableInput, refuse, seat_of)
from companion.games.contract import Components
from companion.games.secret_hitler.state import (CHAOS_AT, DECK_F, DECK_L, FASCIST_WIN, LIBERAL_WIN, POWERS,
                                                VETO_AT)
from companion.games.json_value import Json, JsonObject

PHYSICAL_CHANCE = ("draw", "peek")
"""Chance actions read from tiles in physical mode; the deal is always digital (roles are secret)."""


SEAT_LIGHTS: Mapping[str, Light] = MappingProxyType({
    "dead": Light(OFF, Effect.OFF), "ja": Light(GREEN), "nein": Light(RED), "voted": Light(WHITE),
    "president": Light(GOLD), "chancellor": Light(BLUE), "waiting": Light(DIM)})
"""A seat's light in each state, built once (every publish paints every seat)."""
LIBERAL_TRACK = LevelLights(BLUE, LIBERAL_WIN)
FASCIST_TRACK = LevelLights(RED, FASCIST_WIN)
ELECTION_TRACK = LevelLights(ORANGE, CHAOS_AT)
VETO_LIGHT, BOARD_LIGHT = Light(PURPLE), Light(DIM)


class SecretHitlerBinding(Binding):
    """Inputs -> actions and the LED scene for Secret Hitler."""

    game = "secret_hitler"
    info_fields = ()
    card_kinds = MappingProxyType({"policy": ("L", "F"), "ballot": ("ja", "nein")})
    kind_words = MappingProxyType({"policy": ("policy tiles", "정책 타일"),
                                   "ballot": ("ballot cards", "투표 카드")})
    needed_kinds = ("policy",)
    scene_fields = ("alive", "voted", "votes", "president", "chancellor", "liberal_policies", "fascist_policies",
                    "election_tracker", "veto_unlocked")

    def deck_list(self, seats: int) -> tuple[DeckItem, ...]:
        """The 17 policy tiles, then a Ja! and a Nein ballot card per seat (votes may also come by button)."""
        return (DeckItem("policy", "L", DECK_L, "Liberal policy", "자유 정책"),
                DeckItem("policy", "F", DECK_F, "Fascist policy", "파시즘 정책"),
                DeckItem("ballot", "ja", seats, "Ja! ballot", "찬성 투표 카드"),
                DeckItem("ballot", "nein", seats, "Nein ballot", "반대 투표 카드"))

    def zones(self, seats: int) -> tuple[str, ...]:
        """Seat zones, the board reader and the LED-only tracks."""
        return super().zones(seats) + ("board", "track:liberal", "track:fascist", "track:election")

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """Buttons and ballot cards vote; policy tiles make chance draws/peeks or the chancellor's enactment."""
        tiles: tuple[tuple[str, str], ...] = pending or ()
        if isinstance(event, Chosen) or isinstance(event, Removed):
            return super().on_input(state, tiles, event, mode)
        if isinstance(event, Pressed):
            if event.key not in ("ja", "nein"):
                raise refuse("unknown_key")
            return [{"type": "vote", "seat": event.seat, "vote": event.key}], tiles
        assert isinstance(event, Placed)
        card = event.card
        if card.game != self.game:
            raise refuse("wrong_game")
        if card.kind == "ballot":
            seat = seat_of(event.zone)
            if seat is None:
                raise refuse("unexpected_card", "Ballots are read on a seat's own reader.")
            return [{"type": "vote", "seat": seat, "vote": card.value}], tiles
        if card.kind != "policy":
            raise refuse("unexpected_card")
        template = self.chance_template(state)
        if template is not None and mode == Components.PHYSICAL and template.get("type") in PHYSICAL_CHANCE:
            if any(uid == card.uid for uid, _ in tiles):
                raise refuse("already_tapped")
            tiles = tiles + ((card.uid, card.value),)
            needed = len(template.get("policies", ()))
            if len(tiles) < needed:
                return [], tiles
            action = {"type": template["type"], "seat": -1, "policies": [v for _, v in tiles]}
            return [action], ()
        if event.zone == "board":
            chancellor = self.rules().view(state, None).get("chancellor")
            if chancellor is not None:
                return [{"type": "enact", "seat": chancellor, "policy": card.value}], tiles
        raise refuse("unexpected_card")

    def facts(self, seats: int) -> dict[str, Json]:
        """The tracks the page draws: the fascist track's slots (the power each policy grants at this seat
        count, `execute_veto` where the veto unlocks, `win` last), and the liberal and election track lengths."""
        track: list[str | None] = []
        for policy in range(1, FASCIST_WIN):
            power = POWERS[seats][policy]
            name = None if power is None else power.value
            track.append(f"{name}_veto" if policy == VETO_AT and name else name)
        return {**super().facts(seats), "power_track": track + ["win"], "liberal_track": LIBERAL_WIN,
                "election_track": CHAOS_AT}

    def chance_is_physical(self, state: Any, mode: Components) -> bool:
        """In physical mode draws and peeks come from tiles; the deal is always sampled."""
        if mode != Components.PHYSICAL:
            return False
        template = self.chance_template(state)
        return template is not None and template.get("type") in PHYSICAL_CHANCE

    def reading(self, state: Any, pending: Any, mode: Components) -> tuple[Reading, ...]:
        """A physical draw or peek: the policy tiles are tapped at the board reader, so many of so many."""
        if not self.chance_is_physical(state, mode):
            return ()
        template = self.chance_template(state) or {}
        return (Reading("board", "policy", len(template.get("policies", ())), len(pending or ())),)

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """Seats: dead off, revealed votes green/red together, voted white, president gold, chancellor blue."""
        view = public_view
        alive = view.get("alive") or [True] * seats
        voted = view.get("voted") or [False] * seats
        votes = view.get("votes") or [None] * seats
        scene: Scene = {}
        president, chancellor = view.get("president"), view.get("chancellor")
        for i in range(seats):
            if not alive[i]:
                light = SEAT_LIGHTS["dead"]
            elif votes[i] is not None:
                light = SEAT_LIGHTS["ja" if votes[i] == "ja" else "nein"]
            elif voted[i]:
                light = SEAT_LIGHTS["voted"]
            elif president == i:
                light = SEAT_LIGHTS["president"]
            elif chancellor == i:
                light = SEAT_LIGHTS["chancellor"]
            else:
                light = SEAT_LIGHTS["waiting"]
            scene[f"seat:{i}"] = light
        scene["track:liberal"] = LIBERAL_TRACK[int(view.get("liberal_policies", 0))]
        scene["track:fascist"] = FASCIST_TRACK[int(view.get("fascist_policies", 0))]
        scene["track:election"] = ELECTION_TRACK[int(view.get("election_tracker", 0))]
        scene["board"] = VETO_LIGHT if view.get("veto_unlocked") else BOARD_LIGHT
        return scene

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Nothing should rest on a seat reader (a ballot or tile left there would be read as a new input)."""
        seats = self.rules().seat_count(state)
        return {f"seat:{i}": () for i in range(seats)}


BINDING = SecretHitlerBinding()
