"""Gangster's Dilemma at the table: gangster and police cards tapped in secret at seat readers, responses by
buttons or terminals, demand cards tapped to fulfil; the companion is the bank; a public LED scene (pure).

Zones: `seat:N` (each seat's reader, terminal, buttons and LEDs), `center` (a shared reader: revealed demand
cards in physical play) and LED-only `location:1`..`location:5|6`. Cards: `gangster` "SEAT:LOCATION" (each
seat's own set, seats counted from 0), `police` "LOCATION", `demand` "VP:CRATE,ART,JEWEL,LIQUOR" (the printed
recipe). A seat sends its gangster by tapping that card at its own reader; the police taps two police cards
at its own reader; both stay secret (only *that* a seat has chosen is public). Buttons: `inform`, `silence`,
`bribe`, `pass`; everything else (peek, swap, steal, trade, a fulfil paid with a substitute) is chosen on the
seat's terminal or page. In physical play the enrolled demand cards become the `demands` option (ids are tag
UIDs) and the card that replaces a fulfilled one is tapped at the centre reader.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import compress
from operator import is_, is_not, itemgetter
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from companion.games.contract import Components
from companion.games.binding import (Reading, BINDING_CODES, Carried, BLUE, DIM, GOLD, GREEN, OFF, PURPLE, RED, WHITE, Binding, Card,
                                     Chosen, DeckItem, Effect, LevelLights, Light, Placed, Pressed, refuse, Removed,
                                     RGB, Scene, TableInput, ValuePattern, seat_of)
from companion.games.gangsters_dilemma.board import LOOT, TRADES
from companion.games.gangsters_dilemma.options import sample_deck
from companion.games.gangsters_dilemma.codes import BINDING_CODES as OWN_CODES
from companion.games.json_value import Json, JsonObject

CARD_KINDS: Mapping[str, tuple[str, ...]] = {
    "gangster": ValuePattern("[0-6]:[1-6]", "SEAT:LOCATION"),
    "police": ("1", "2", "3", "4", "5", "6"),
    "demand": ValuePattern("[1-9][0-9]?:[0-9]{1,2},[0-9]{1,2},[0-9]{1,2},[0-9]{1,2}", "VP:CRATE,ART,JEWEL,LIQUOR"),
}
"""Enrollment: kind -> value forms."""

PLACES = (("Hideout", "은닉처"), ("Art gallery", "미술관"), ("Jeweller", "보석점"), ("Smugglers' den", "밀수꾼 소굴"),
          ("Black market", "암시장"), ("Speakeasy", "주류 밀매점"))
"""Location 1..6 in English and Korean (card labels)."""
LOOT_WORDS = (("crate", "상자"), ("art", "미술품"), ("jewel", "보석"), ("gin", "술병"))

KEYS = ("inform", "silence", "bribe", "pass")
MONEY_LEVEL = 10
"""Dollars that fill a location's LED segment."""


def demand_of(card: Card) -> dict[str, Json]:
    """The `demands` option entry for an enrolled demand card."""
    vp, _, recipe = card.value.partition(":")
    counts = [int(n) for n in recipe.split(",")]
    return {"id": card.uid, "vp": int(vp), "needs": {k: n for k, n in zip(LOOT, counts) if n}}


@dataclass(frozen=True)
class PoliceTaps:
    """The police cards tapped so far this round (secret, held by the table until the second one)."""

    key: tuple[Any, ...]
    locations: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.locations)


SEAT_LIGHTS: Mapping[str, Light] = MappingProxyType({
    "to_act": Light(GOLD), "chosen": Light(WHITE), "police": Light(BLUE), "waiting": Light(DIM)})
"""A seat's light in each state, built once (every publish paints every seat)."""
LOCATION_LIGHTS: Mapping[str, LevelLights] = MappingProxyType({
    "arrest": LevelLights(RED, MONEY_LEVEL, Effect.BLINK), "patrol": LevelLights(BLUE, MONEY_LEVEL),
    "visited": LevelLights(GREEN, MONEY_LEVEL), "closed": LevelLights(PURPLE, MONEY_LEVEL),
    "money": LevelLights(GOLD, MONEY_LEVEL)})
"""A location's light in each state at every money level, built once."""
EMPTY_LOCATION = Light(OFF, Effect.OFF)
ARREST_LIGHTS, PATROL_LIGHTS, VISITED_LIGHTS, CLOSED_LIGHTS, MONEY_LIGHTS = (
    (*(LOCATION_LIGHTS[k][n] for n in range(MONEY_LEVEL + 1)), k) for k in ("arrest", "patrol", "visited", "closed",
                                                                           "money"))
"""A location's light at each money level 0..MONEY_LEVEL by state, then the state's name (`LOCATION_LIGHTS`)."""
TO_ACT, CHOSEN, POLICE, WAITING = (SEAT_LIGHTS[k] for k in ("to_act", "chosen", "police", "waiting"))
SEAT_ZONES = tuple(f"seat:{i}" for i in range(7))
"""The seat zones of the largest game, in order."""
_CHARACTER = itemgetter("character")


class GangstersDilemmaBinding(Binding):
    """Inputs -> actions, the LED scene and the bank's instructions for Gangster's Dilemma."""

    game = "gangsters_dilemma"
    card_kinds = CARD_KINDS
    kind_words = {"gangster": ("gangster cards", "갱스터 카드"), "police": ("police cards", "경찰 카드"),
                  "demand": ("boss demand cards", "보스의 요구 카드")}
    needed_kinds = ("demand",)

    def deck_list(self, seats: int) -> tuple[DeckItem, ...]:
        """Each seat's gangster cards, the police cards, then the demand deck (our labelled sample: the real one
        is unpublished)."""
        places = range(1, (5 if seats <= 5 else 6) + 1)
        items = [DeckItem("gangster", f"{seat}:{n}", 1, f"Seat {seat + 1} gangster: {n} {PLACES[n - 1][0]}",
                          f"{seat + 1}번 자리 갱스터 카드: {n} {PLACES[n - 1][1]}", seat=seat)
                 for seat in range(seats) for n in places]
        items += [DeckItem("police", str(n), 1, f"Police card: {n} {PLACES[n - 1][0]}",
                           f"경찰 카드: {n} {PLACES[n - 1][1]}") for n in places]
        for demand in sample_deck():
            needs = [words for words, k in zip(LOOT_WORDS, demand.needs) for _ in range(k)]
            items.append(DeckItem("demand", f"{demand.vp}:{','.join(map(str, demand.needs))}", 1,
                                  f"Boss demand {demand.vp} VP: {', '.join(w[0] for w in needs)}",
                                  f"보스의 요구 {demand.vp}점: {', '.join(w[1] for w in needs)}", sample=True))
        return tuple(items)

    def card_words(self, entry: Mapping[str, Any], kind: str) -> str:
        """A boss demand by its points and what it needs, as its label names it ("boss demand 4 VP: jewel,
        gin"); any other card as the base names it."""
        needs = entry.get("needs")
        if kind != "demand" or not isinstance(needs, Mapping):
            return super().card_words(entry, kind)
        words = [w[0] for k, w in zip(LOOT, LOOT_WORDS) for _ in range(int(needs.get(k, 0)))]
        return f"boss demand {entry.get('vp')} VP: {', '.join(words)}"

    def zones(self, seats: int) -> tuple[str, ...]:
        """Seat zones, the centre reader and one LED segment per location."""
        locations = 5 if seats <= 5 else 6
        return super().zones(seats) + ("center",) + tuple(f"location:{i}" for i in range(1, locations + 1))

    def table_options(self, options: JsonObject, cards: Iterable[Card], mode: Components) -> dict[str, Json]:
        """Physical games use the enrolled demand cards as the `demands` deck (else the labelled sample)."""
        out = dict(options)
        demands = [demand_of(c) for c in cards if c.kind == "demand"]
        if mode == Components.PHYSICAL and "demands" not in out and demands:
            out["demands"] = demands
        return out

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """Taps choose, patrol, fulfil or reveal; buttons respond or pass; terminal choices are actions."""
        key = (state.round, state.phase)
        taps: PoliceTaps = pending if isinstance(pending, PoliceTaps) and pending.key == key else PoliceTaps(key)
        if isinstance(event, (Chosen, Removed)):
            return super().on_input(state, taps, event, mode)
        if isinstance(event, Pressed):
            return [self._button(state, event.seat, event.key)], taps
        assert isinstance(event, Placed)
        card = event.card
        if card.game != self.game:
            raise refuse("wrong_game", BINDING_CODES["wrong_game"])
        seat = seat_of(event.zone)
        if card.kind == "demand":
            return self._demand(state, seat, card, mode), taps
        if seat is None or seat >= state.seats:
            raise refuse("wrong_reader", "Gangster and police cards are tapped at a seat's own reader.")
        if card.kind == "gangster":
            owner, _, location = card.value.partition(":")
            if int(owner) != seat:
                raise refuse("wrong_reader", "That gangster belongs to another seat: tap your own at "
                                                    "your own reader.")
            return [{"type": "choose", "seat": seat, "location": int(location)}], taps
        return self._police(state, taps, seat, int(card.value))

    def _button(self, state: Any, seat: int, key: str) -> dict[str, Json]:
        if key in ("inform", "silence"):
            return {"type": "respond", "seat": seat, "response": key}
        if key == "bribe":
            player = state.players[seat]
            pay = "dollars" if player.character == "lady" and player.loot[3] == 0 else "liquor"
            return {"type": "respond", "seat": seat, "response": "bribe", "pay": pay}
        if key == "pass":
            kind = {"abilities": "skip", "trade": "trade"}.get(state.phase, "pass")
            return {"type": kind, "seat": seat, **({"trade": "none"} if kind == "trade" else {})}
        raise refuse("unknown_key", BINDING_CODES["unknown_key"])

    def _police(self, state: Any, taps: PoliceTaps, seat: int, location: int) -> tuple[list[dict[str, Json]], Any]:
        """The police taps two patrol cards at its own reader; the second one commits the patrol."""
        if state.phase != "plan":
            raise refuse("wrong_phase", "Patrols are tapped while the round is being planned.")
        if seat != state.police:
            raise refuse("not_police", "Only the police seat patrols, at its own reader.")
        if not 1 <= location <= state.locations:
            raise refuse("no_such_location", f"There is no location {location} in this game.")
        if location in state.closed:
            raise refuse("closed_location", "That location is closed this round.")
        if location in taps.locations:
            raise refuse("already_tapped", "That patrol card was already tapped.")
        taps = replace(taps, locations=taps.locations + (location,))
        if len(taps.locations) < 2:
            return [], taps
        return [{"type": "patrol", "seat": seat, "locations": list(taps.locations)}], replace(taps, locations=())

    def _demand(self, state: Any, seat: int | None, card: Card, mode: Components) -> list[dict[str, Json]]:
        """A demand card: fulfilled when its seat taps it in the fulfil step; revealed from the deck in physical
        play."""
        if card.uid not in state.config.by_id:
            raise refuse("not_enrolled", "That demand card was not enrolled when this game started.")
        if state.phase == "reveal_demand" and mode == Components.PHYSICAL:
            return [{"type": "reveal_demand", "seat": -1, "demand": card.uid}]
        if seat is None or seat >= state.seats:
            raise refuse("wrong_reader", "Tap the demand you fulfil at your own reader.")
        if state.phase != "fulfil":
            raise refuse("wrong_phase", "Demands are fulfilled after a successful visit.")
        options = [a for a in self.rules().legal_actions(state, seat)
                   if a.get("type") == "fulfil" and a.get("demand") == card.uid]
        if not options:
            if seat not in state.acting:
                raise refuse("not_your_turn", "Another seat is fulfilling now.")
            raise refuse("missing_loot", "The loot this demand needs is not held.")
        plain = [a for a in options if a.get("substitute") is None]
        if plain or len(options) == 1:
            return [dict((plain or options)[0])]
        raise refuse("choose_payment", "Choose on your terminal or page which token $ (or liquor) replaces.")

    def chance_is_physical(self, state: Any, mode: Components) -> bool:
        """A replacement demand is read from the card drawn (physical); setup and the lookout's peek are sampled."""
        return mode == Components.PHYSICAL and state.phase == "reveal_demand"

    def reading(self, state: Any, pending: Any, mode: Components) -> tuple[Reading, ...]:
        """A replacement demand: the card drawn is tapped at the centre reader."""
        return (Reading("center", "demand", 1, 0),) if self.chance_is_physical(state, mode) else ()

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """Seats: to act gold, committed white, police blue. Locations: money as a level, closed purple, after
        the reveal police blue / visitors green / arrests red; nothing before the reveal but money and closed."""
        return {**seat_lights(public_view, seats), **location_lights(public_view)}

    def _scene_since(self, public_view: Mapping[str, Any], seats: int, seat_colours: tuple[RGB, ...],
                     last: Carried | None) -> tuple[Scene, Carried | None]:
        """`scene`, the last one while the view fields its seats' lights read (who is to act, who has chosen
        while planning, the police) and its locations' (the log's arrests, the patrols, the locations) are
        the very same objects, else a copy of it with only the lights that changed painted anew (the seat
        colours are not read; shared from one publish to the next: never mutated)."""
        view = public_view
        try:
            key = (seats, view["to_act"], view["chosen"] if view["phase"] == "plan" else None, view["police"],
                   view["log"], view["patrols"], view["locations"])
        except KeyError:  # not a view of this game's: drawn whole
            return self.scene(view, seats), last
        if last is None or last[0][0] != seats:
            seat_row, arrests = _seat_row(seats, *key[1:4]), arrested(key[4])
            place_row = _place_row(key[6], key[5], arrests)
            scene = dict(zip(SEAT_ZONES[:seats] if seats <= len(SEAT_ZONES) else _seat_zones(seats), seat_row))
            scene.update(zip(_location_zones(key[6]), place_row))
        else:
            was, (seat_row, arrests, place_row, scene) = last
            if all(map(is_, key, was)):
                return scene, last
            before = scene
            if key[1] is not was[1] or key[2] is not was[2] or key[3] != was[3]:
                row = _seat_row(seats, *key[1:4])
                for i in compress(range(seats), map(is_not, row, seat_row)):
                    if scene is before:
                        scene = dict(before)
                    scene[f"seat:{i}"] = row[i]
                seat_row = row
            log, moved = key[4], key[5] is not was[5] or key[6] is not was[6]
            if log is not was[4]:
                was_log = was[4] or ()
                done = len(was_log)
                # the public log only grows within a round: only its new entries can hold an arrest
                grew = log is not None and len(log) >= done and log[:done] == was_log
                now = arrests | arrested(log[done:]) if grew else arrested(log)  # type: ignore[index]
                if now != arrests:
                    arrests, moved = now, True
            if moved:
                locations = key[6] or ()
                row = _place_row(locations, key[5], arrests)
                if len(row) != len(place_row):
                    scene = {**scene}
                    for zone in _location_zones(was[6]):
                        del scene[zone]
                    scene.update(zip(_location_zones(locations), row))
                else:
                    for i in compress(range(len(row)), map(is_not, row, place_row)):
                        if scene is before:
                            scene = dict(before)
                        scene[f"location:{locations[i]['id']}"] = row[i]
                place_row = row
        return scene, (key, (seat_row, arrests, place_row, scene))

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Nothing rests on a seat reader (a card left there would be read as a choice)."""
        return {f"seat:{i}": () for i in range(state.seats)}

    def facts(self, seats: int) -> dict[str, Json]:
        """The loot kinds in the order a player's view lists them."""
        return {**super().facts(seats), "loot": list(LOOT)}

    def public_info(self, public_view: JsonObject, seats: int) -> dict[str, Json]:
        """The bank: what each seat takes or hands over since the last reveal, drawn from the public log."""
        return {"bank": bank(public_view)}

    def _info_since(self, public_view: Mapping[str, Any], seats: int,
                    last: Carried | None) -> tuple[dict[str, Any], Carried | None]:
        """`info`, reused while what `bank` reads is the same (the log, the demand cards, the police and the
        players' characters) or only the log grew by entries that move nothing, else extended by the new
        entries' movements while only the log grew (the facts are built once per seat count)."""
        view = public_view
        players, log = view.get("players") or (), view.get("log") or ()
        if last is not None and last[1][0] is players:
            characters = last[1][1]
        else:
            characters = tuple(map(_CHARACTER, players))
        cards, police = view.get("demand_cards") or {}, view.get("police")
        key = (seats, cards, police, characters)
        if last is not None and last[0] == key:
            was_log, was_rows, info = last[1][2:]
            done = len(was_log)
            if was_log is log:
                rows = was_rows
            elif len(log) >= done and log[:done] == was_log:
                more = bank_rows(log[done:], cards, police, players) if len(log) > done else None
                rows = was_rows + more if more else was_rows
            else:
                rows = bank_rows(log, cards, police, players)
            if rows is not was_rows:
                info = {"facts": info["facts"], "bank": rows}
        else:
            rows = bank_rows(log, cards, police, players)
            info = {"facts": self.facts(seats), "bank": rows}
        return info, (key, (players, characters, log, rows, info))


def seat_lights(view: JsonObject, seats: int) -> Scene:
    """The seats' part of the scene: to act gold, committed white (while planning), police blue, else dim."""
    row = _seat_row(seats, view.get("to_act"), view.get("chosen") if view.get("phase") == "plan" else None,
                    view.get("police"))
    return dict(zip(SEAT_ZONES[:seats] if seats <= len(SEAT_ZONES) else _seat_zones(seats), row))


def _seat_zones(seats: int) -> tuple[str, ...]:
    """The seat zones of a game with more seats than this one has."""
    return tuple(f"seat:{i}" for i in range(seats))


def _seat_row(seats: int, to_act: Iterable[int] | None, chosen: Sequence[bool] | None, police: Any) -> list[Light]:
    """Each seat's light (`chosen`: while planning only, else None)."""
    lights = [WAITING] * seats
    if type(police) is int and 0 <= police < seats:
        lights[police] = POLICE
    if chosen:
        for i in compress(range(seats), chosen):
            lights[i] = CHOSEN
    for i in to_act or ():
        if 0 <= i < seats:
            lights[i] = TO_ACT
    return lights


def arrested(log: Iterable[JsonObject] | None) -> frozenset[Any]:
    """The locations where the public log shows an arrest."""
    return frozenset(e["params"].get("location") for e in log or () if e.get("code") == "arrested")


def location_lights(view: JsonObject, arrests: frozenset[Any] | None = None) -> Scene:
    """The locations' part of the scene: money as a level, arrests red, patrols blue, visited green, closed
    purple (`arrests`: `arrested(view's log)` when already known)."""
    locations = view.get("locations") or ()
    row = _place_row(locations, view.get("patrols"), arrested(view.get("log")) if arrests is None else arrests)
    return dict(zip(_location_zones(locations), row))


def _location_zones(locations: Iterable[JsonObject] | None) -> list[str]:
    """The zone of each of these locations."""
    return [f"location:{loc['id']}" for loc in locations or ()]


def _place_row(locations: Iterable[JsonObject] | None, patrols: Iterable[int] | None,
               arrests: frozenset[Any]) -> list[Light]:
    """Each location's light, given the arrests."""
    patrolled = set(patrols or ())
    row = []
    for loc in locations or ():
        money = loc["money"]
        level = min(int(money), MONEY_LEVEL)
        ident = loc["id"]
        if ident in arrests:
            lights = ARREST_LIGHTS
        elif ident in patrolled:
            lights = PATROL_LIGHTS
        elif loc["visitors"]:
            lights = VISITED_LIGHTS
        elif loc["closed"]:
            lights = CLOSED_LIGHTS
        elif money:
            lights = MONEY_LIGHTS
        else:
            row.append(EMPTY_LOCATION)
            continue
        row.append(lights[level] if level >= 0 else LOCATION_LIGHTS[lights[-1]][level])
    return row


def bank(public_view: JsonObject) -> list[dict[str, Json]]:
    """Money and loot movements the players make by hand, in log order: {location?, seat, takes, hands_over, to}."""
    return bank_rows(public_view.get("log") or (), public_view.get("demand_cards") or {}, public_view.get("police"),
                     public_view.get("players") or ())


def bank_rows(log: Iterable[JsonObject], cards: JsonObject, police: int | None,
              players: Sequence[JsonObject]) -> list[dict[str, Json]]:
    """`bank` of these public log entries, given the view's demand cards, police and players."""
    out: list[dict[str, Json]] = []
    for entry in log:
        code, p = entry.get("code"), entry.get("params") or {}
        if code == "success":
            takes = {"money": p["share"]} if p["share"] else {}
            if p.get("loot"):
                takes[p["loot"]] = 1
            out += [{"location": p["location"], "seat": s, "takes": takes, "hands_over": {}, "to": "bank"}
                    for s in p["seats"]]
        elif code == "arrested":
            held = p["loot"] if isinstance(p.get("loot"), dict) else p  # nested or flat loot counts
            loot = {k: int(held.get(k, 0)) for k in LOOT if held.get(k, 0)}
            out.append({"location": p["location"], "seat": p["seat"], "takes": {}, "hands_over": loot,
                        "to": p["police"]})
        elif code == "bribed":
            paid = {"money": 2} if p["pay"] == "dollars" else {"liquor": 1}
            out.append({"location": p["location"], "seat": p["seat"], "takes": {}, "hands_over": paid, "to": police})
        elif code == "enforcer_paid":
            out.append({"seat": p["seat"], "takes": {"money": p["money"]}, "hands_over": {}, "to": "bank"})
        elif code == "peeked":
            out.append({"seat": p["seat"], "takes": {}, "hands_over": {"money": p["money"]}, "to": p["police"]})
        elif code == "stole":
            out.append({"seat": p["target"], "takes": {}, "hands_over": {"money": p["money"]}, "to": p["seat"]})
        elif code == "swapped":
            out.append({"seat": p["seat"], "takes": {p["take"]: 1}, "hands_over": {p["give"]: 1}, "to": p["target"]})
        elif code == "traded" and p.get("trade") in TRADES:  # "none" is logged too: nothing changes hands
            kind, gained = TRADES[p["trade"]]
            loot, money = {LOOT[kind]: 1}, {"money": p["price"]}
            takes, gives = (loot, money) if gained > 0 else (money, loot)
            out.append({"seat": p["seat"], "takes": takes, "hands_over": gives, "to": "bank"})
        elif code == "fulfilled" and p["demand"] in cards:
            needs = dict(cards[p["demand"]]["needs"])
            sub = p.get("substitute")
            if sub:
                needs[sub] -= 1
                if p.get("pay") == "liquor":
                    needs["liquor"] = needs.get("liquor", 0) + 1
                else:
                    needs["money"] = 2 if players[p["seat"]]["character"] == "right_hand" else 3
            out.append({"seat": p["seat"], "takes": {"demand": p["demand"]},
                        "hands_over": {k: n for k, n in needs.items() if n}, "to": "bank"})
    return out


BINDING = GangstersDilemmaBinding()
