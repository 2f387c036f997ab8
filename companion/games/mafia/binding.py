"""Mafia at the table: digital roles, secret night choices and open votes on phones or terminals, a public LED
scene out (pure).

Zones: `seat:N` (each seat's reader, terminal and LEDs). Mafia reads no cards (RULINGS.md, "Components"): a
role card on a reader could be read by any NFC phone through its sleeve, and a tap at night would show who
holds a card worth tapping, so roles are dealt by the table and every choice is made on the seat's own phone or
terminal. A tag or a button press is refused as it is in every game (`unexpected_card`, `unknown_key`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.games.binding import (BLUE, DIM, GOLD, GREEN, OFF, RED, WHITE, Binding, Chosen, Effect, Light, Placed,
                                     Pressed, RGB, Scene, TableInput, refuse)
from companion.games.contract import Components
from companion.games.json_value import Json, JsonObject

SEAT_LIGHTS: Mapping[str, Light] = MappingProxyType({
    "out": Light(OFF, Effect.OFF), "night_waiting": Light(BLUE, Effect.PULSE), "night_done": Light(BLUE),
    "day_waiting": Light(GOLD, Effect.PULSE), "day_done": Light(WHITE), "mafia": Light(RED), "town": Light(GREEN),
    "idle": Light(DIM)})
"""A seat's light in each state, built once. At night every living seat pulses blue until it has chosen (every
seat chooses, so the light says nothing about roles); by day gold until it has voted; at the end, each seat in
its side's colour."""


class MafiaBinding(Binding):
    """Choices -> actions and the LED scene for Mafia."""

    game = "mafia"
    scene_fields = ("phase", "alive", "acted", "roles")
    info_fields = ()

    def on_input(self, state: Any, pending: Any, event: TableInput,
                 mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """A seat's choice on its phone or terminal becomes its action; a card or a button means nothing here."""
        if isinstance(event, Pressed):
            raise refuse("unknown_key")
        if isinstance(event, Placed):
            raise refuse("wrong_game" if event.card.game != self.game else "unexpected_card")
        if isinstance(event, Chosen):
            return [{**dict(event.action), "seat": event.seat}], pending
        return [], pending

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """Seats out of the game dark; waiting seats pulse (blue at night, gold by day), done ones steady; at
        the end every seat shows its side."""
        view = public_view
        phase = view.get("phase")
        alive = view.get("alive") or [True] * seats
        acted = view.get("acted") or [False] * seats
        roles = view.get("roles") or [None] * seats
        scene: Scene = {}
        for i in range(seats):
            if phase == "game_over" and roles[i] is not None:
                light = SEAT_LIGHTS["mafia" if roles[i] == "mafia" else "town"]
            elif not alive[i]:
                light = SEAT_LIGHTS["out"]
            elif phase == "night":
                light = SEAT_LIGHTS["night_done" if acted[i] else "night_waiting"]
            elif phase == "day":
                light = SEAT_LIGHTS["day_done" if acted[i] else "day_waiting"]
            else:
                light = SEAT_LIGHTS["idle"]
            scene[f"seat:{i}"] = light
        return scene

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Nothing should rest on a seat reader."""
        return {f"seat:{i}": () for i in range(self.rules().seat_count(state))}


BINDING = MafiaBinding()
