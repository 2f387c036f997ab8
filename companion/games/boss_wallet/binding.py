"""Boss's Wallet at the table: enrolled play cards, turn buttons, hand scans at round end, a public LED scene.

Zones: `seat:N` (each seat's reader, terminal, buttons and LEDs), `center`, and the LED-only `hourglass` (flips left) and
`round` (rounds played). With physical components every play card is enrolled (kind = its type; the value
spells the printed facts, see `card_kinds`) and the enrolled set becomes the engine's `cards` option, keyed
by tag UID. Turns: the seat to act presses `draw`, `put` or `flip` (or picks it on its terminal or page);
`buy_id` is paid by tapping bills and jewellery at the seat's reader, then tapping the extra ID taken (or
choosing `buy_id` on the terminal). At round end each seat taps its hand at its own reader card by card and
confirms (`ok` button or `confirm_scan` choice) -> chance `reveal_hand`. A John Smith's credit-card draw is
tapped the same way and ends at the first bill. Each round starts when every seat has tapped the coin it took
blind (enrolled coins); chip draws are sampled by the table. Digital games sample every chance action.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from companion.games.binding import (Reading, BINDING_CODES, Carried, BLUE, DIM, GOLD, GREEN, ORANGE, RED, WHITE, Binding, Card, Chosen,
                                     DeckItem, LevelLights, Light, Placed, Pressed, refuse, Removed, RGB, Scene,
                                     TableInput, ValuePattern, seat_of)
from companion.games.boss_wallet.cards import MAX_SEATS, MIN_SEATS, PERSONS, SAMPLE_CARDS, Kind
from companion.games.boss_wallet.cards import Card as PlayCard
from companion.games.boss_wallet.codes import BINDING_CODES as OWN_CODES
from companion.games.boss_wallet.config import COINS, HOURGLASSES, ROUNDS
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import CHANCE, Components
from companion.games.json_value import Json, JsonObject

_PERSON_RE = "|".join(sorted(PERSONS))
_MARK = "(?::[2-7])?"

CARD_KINDS: Mapping[str, tuple[str, ...]] = {
    Kind.BILL.value: ValuePattern(rf"[1-9][0-9]{{0,4}}:[a-z][a-z0-9_]{{0,19}}{_MARK}", "VALUE:CURRENCY[:MARK]"),
    Kind.JEWEL.value: ValuePattern(rf"[1-9][0-9]{{0,4}}{_MARK}", "VALUE[:MARK]"),
    Kind.ID.value: ValuePattern(rf"(?:{_PERSON_RE})(?::[2-7]|:extra)?", "PERSON[:MARK]", "PERSON:extra"),
    Kind.CREDIT.value: ValuePattern("[2-7]", "MARK (2..7)"),
    Kind.BADGE.value: ValuePattern("[2-7]", "MARK (2..7)"),
    "coin": ("1", "2", "5", "7", "10", "20", "50"),
    "special": ValuePattern("(?:turn_start|round_end)(?::replaces)?", "turn_start[:replaces]",
                            "round_end[:replaces]"),
}
"""Enrollment: kind -> value forms. VALUE is whole CU, MARK the printed player-count mark (min seats, default
2), PERSON one of the five identities; a coin's value is its cents; a special card's label is its name."""

WORDS: Mapping[str, tuple[str, str]] = {
    "red": ("Red", "빨강"), "green": ("Green", "초록"), "blue": ("Blue", "파랑"), "yellow": ("Yellow", "노랑"),
    "john_smith": ("John Smith", "존 스미스"), "police": ("Police officer", "경찰관"),
    "model": ("Fashion model", "패션 모델"),
    "millionaire": ("Millionaire", "백만장자"), "secret_agent": ("Secret agent", "비밀요원"),
}
"""Currencies and identities in English and Korean (card labels)."""


def deck_item(card: PlayCard) -> tuple[str, str, str, str]:
    """A sample play card as enrolled: (kind, value, English label, Korean label); the mark shows as "3+"."""
    mark = f":{card.min_seats}" if card.min_seats != MIN_SEATS else ""
    shown = f" ({card.min_seats}+)" if mark else ""
    if card.kind is Kind.BILL:
        en, ko = WORDS.get(card.currency or "", (card.currency, card.currency))
        return ("bill", f"{card.value}:{card.currency}{mark}", f"{en} bill {card.value}{shown}",
                f"{ko} 지폐 {card.value}{shown}")
    if card.kind is Kind.JEWEL:
        return "jewel", f"{card.value}{mark}", f"Jewellery {card.value}{shown}", f"귀금속 {card.value}{shown}"
    if card.kind is Kind.ID:
        en, ko = WORDS[card.person or ""]
        if card.extra:
            return "id", f"{card.person}:extra", f"Extra ID card: {en}", f"추가 신분증: {ko}"
        return "id", f"{card.person}{mark}", f"ID card: {en}{shown}", f"신분증: {ko}{shown}"
    if card.kind is Kind.BADGE:
        return "badge", str(card.min_seats), f"Police badge{shown}", f"경찰관 배지{shown}"
    return "credit", str(card.min_seats), f"Credit card{shown}", f"신용카드{shown}"


KEYS = ("draw", "put", "flip", "ok", "clear")
"""Buttons: the three turn actions, confirm (a scan, or a credit draw that ran out of wallet), clear taps."""



def entry_of(card: Card) -> dict[str, Json]:
    """The engine's catalogue entry for an enrolled play card (ValueError if its value does not parse)."""
    parts = card.value.split(":")
    kind = card.kind
    if kind == Kind.BILL.value:
        out: dict[str, Json] = {"type": kind, "value": int(parts[0]), "currency": parts[1]}
        rest = parts[2:]
    elif kind == Kind.JEWEL.value:
        out, rest = {"type": kind, "value": int(parts[0])}, parts[1:]
    elif kind == Kind.ID.value:
        out, rest = {"type": kind, "person": parts[0]}, parts[1:]
        if rest == ["extra"]:
            out["extra"], rest = True, []
    elif kind in (Kind.CREDIT.value, Kind.BADGE.value):
        out, rest = {"type": kind}, parts
    else:
        raise ValueError(f"card {card.uid}: {kind!r} is not a play card")
    if rest:
        out["min_seats"] = int(rest[0])
    return out


@dataclass(frozen=True)
class Taps:
    """Cards tapped so far at seat readers for the step `key` (a new step forgets them)."""

    key: tuple[Any, ...]
    taps: tuple[tuple[int, str, str], ...] = ()
    """(seat, uid, value) per tap."""

    def __len__(self) -> int:
        return len(self.taps)

    def of(self, seat: int) -> list[str]:
        """The UIDs this seat tapped, in order."""
        return [uid for s, uid, _ in self.taps if s == seat]

    def values(self, seat: int) -> list[str]:
        """The card values this seat tapped, in order."""
        return [value for s, _, value in self.taps if s == seat]

    def add(self, seat: int, uid: str, value: str = "") -> "Taps":
        """One more tap."""
        return replace(self, taps=self.taps + ((seat, uid, value),))

    def clear(self, seat: int) -> "Taps":
        """Forget one seat's taps."""
        return replace(self, taps=tuple(t for t in self.taps if t[0] != seat))


def step_key(state: State) -> tuple[Any, ...]:
    """What a set of taps belongs to: a turn, the round's scan, one credit draw."""
    if state.phase is Phase.TURNS:
        return (state.round, "turns", state.turns_taken)
    if state.phase is Phase.CREDIT_DRAW:
        return (state.round, "credit_draw", state.queue[0] if state.queue else None)
    return (state.round, state.phase.value)


SEAT_LIGHTS: Mapping[str, Light] = MappingProxyType({
    "innocent": Light(GREEN), "guilty": Light(RED), "turn": Light(GOLD), "asked": Light(ORANGE),
    "scanned": Light(WHITE), "to_scan": Light(BLUE), "waiting": Light(DIM)})
"""A seat's light in each state, built once (every publish paints every seat)."""
SEAT_ZONES = tuple(f"seat:{i}" for i in range(MAX_SEATS))
"""The seat zones' names, made once (a scene names every seat on every publish)."""
HOURGLASS_TRACK = LevelLights(GOLD, HOURGLASSES)
ROUND_TRACK = LevelLights(BLUE, ROUNDS)
_ABSENT = object()
"""A seat without a verdict, in the scene's key (no verdict value can equal it)."""


class BossWalletBinding(Binding):
    """Inputs -> actions and the LED scene for Boss's Wallet."""

    game = "boss_wallet"
    info_fields = ("last_round",)
    scene_fields = ("players", "phase", "asked", "turn", "hourglasses", "round")
    card_kinds = CARD_KINDS
    mode_options = frozenset({"known_hands"})
    kind_words = {"coin": ("coins", "동전"), "bill": ("bills", "지폐"), "jewel": ("jewellery", "귀금속"),
                  "id": ("ID cards", "신분증"), "credit": ("credit cards", "신용카드"),
                  "badge": ("police badges", "경찰관 배지"),
                  "special": ("special cards", "특수 카드")}
    needed_kinds = ("coin", "bill", "id")

    def deck_list(self, seats: int) -> tuple[DeckItem, ...]:
        """The coins, then the play cards marked for this seat count and the extra IDs (our labelled sample:
        the real card list is unpublished)."""
        items = [DeckItem("coin", str(c), 1, f"Coin {c}", f"동전 {c}") for c in COINS]
        counts: dict[tuple[str, str, str, str], int] = {}
        for card in SAMPLE_CARDS:
            if card.min_seats <= seats:
                key = deck_item(card)
                counts[key] = counts.get(key, 0) + 1
        items += [DeckItem(kind, value, n, en, ko, sample=True) for (kind, value, en, ko), n in counts.items()]
        return tuple(items)

    def card_words(self, entry: Mapping[str, Any], kind: str) -> str:
        """A card named in full, as a seat's phone lists its hand ("green bill 200 CU", "extra ID card: John
        Smith"); a special card by the name the host gave it."""
        value = entry.get("value")
        if kind == "bill":
            currency = str(entry.get("currency", ""))
            return f"{WORDS.get(currency, (currency,))[0].lower()} bill {value} CU"
        if kind == "jewel":
            return f"jewellery {value} CU"
        if kind == "id":
            person = str(entry.get("person", ""))
            return f"{'extra ID card' if entry.get('extra') else 'ID card'}: {WORDS.get(person, (person,))[0]}"
        return {"credit": "credit card", "badge": "police badge"}.get(kind) or super().card_words(entry, kind)

    def zones(self, seats: int) -> tuple[str, ...]:
        """Seat zones, `center` (a shared reader reads nothing in this game: it stays itself, so a card put
        there is refused there) and the LED-only hourglass and round tracks."""
        return super().zones(seats) + ("center", "hourglass", "round")

    def table_options(self, options: JsonObject, cards: Iterable[Card], mode: Components) -> dict[str, Json]:
        """Digital games know every hand (`known_hands`); physical games read the enrolled cards: play cards
        become `cards`, special cards `specials`."""
        out = dict(options)
        known = mode != Components.PHYSICAL  # digital components: the table deals, so it knows every hand
        if out.get("known_hands", known) is not known:
            raise ValueError(f"option 'known_hands' follows the components: {str(mode)} components play with "
                             f"known_hands {str(known).lower()}")
        if known:
            out["known_hands"] = True
            return out
        mine = list(cards)
        if "cards" not in out:
            play = {c.uid: entry_of(c) for c in mine if c.kind not in ("special", "coin")}
            if not play:
                raise ValueError("Boss's Wallet with physical cards reads the enrolled play cards, and none are "
                                 "enrolled: enroll them on the host page (or play with digital components)")
            out["cards"] = play
        if "specials" not in out:
            specials = {c.uid: {"name": c.label, "timing": c.value.split(":")[0],
                                "replaces_action": c.value.endswith(":replaces")}
                        for c in mine if c.kind == "special"}
            if specials:
                out["specials"] = specials
        return out

    def on_input(self, state: Any, pending: Any, event: TableInput, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        """Buttons and choices act; taps collect a payment, a hand or a credit draw in `pending`."""
        key = step_key(state)
        taps: Taps = pending if isinstance(pending, Taps) and pending.key == key else Taps(key)
        if isinstance(event, Removed):
            return [], taps
        if isinstance(event, Pressed):
            return self._pressed(state, taps, event.seat, event.key, mode)
        if isinstance(event, Chosen):
            return self._chosen(state, taps, event.seat, event.action, mode)
        assert isinstance(event, Placed)
        return self._placed(state, taps, event, mode)

    def _pressed(self, state: State, taps: Taps, seat: int, key: str, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        if key in ("draw", "put", "flip"):
            return [{"type": key, "seat": seat}], taps
        if key == "ok":
            return self._confirm(state, taps, seat)
        if key == "clear":
            return [], taps.clear(seat)
        raise refuse("unknown_key", BINDING_CODES["unknown_key"])

    def _chosen(self, state: State, taps: Taps, seat: int, action: JsonObject,
                mode: Components) -> tuple[list[dict[str, Json]], Any]:
        kind = action.get("type")
        if kind in ("confirm_scan", "confirm_draw"):
            return self._confirm(state, taps, seat)
        if kind == "clear_scan":
            return [], taps.clear(seat)
        if kind == "buy_id" and mode == Components.PHYSICAL:
            paid = taps.of(seat)
            if not paid:
                raise refuse("nothing_tapped", "Tap the bills and jewellery you pay with at your reader, "
                                                      "then choose the extra ID.")
            return [{**dict(action), "seat": seat, "paid": paid}], taps
        return [{**dict(action), "seat": seat}], taps

    def _confirm(self, state: State, taps: Taps, seat: int) -> tuple[list[dict[str, Json]], Any]:
        """A seat says its scan (or its credit draw, the wallet having run out) is complete."""
        if state.phase is Phase.SCAN:
            if state.hands[seat] is not None:
                raise refuse("already_scanned", OWN_CODES["already_scanned"])
            # the taps stay until the scan is accepted: a missed card is tapped and confirmed again
            return [{"type": "reveal_hand", "seat": CHANCE, "target": seat, "cards": taps.of(seat)}], taps
        if state.phase is Phase.CREDIT_DRAW and state.queue and state.queue[0] == seat:
            return [{"type": "credit_draw", "seat": CHANCE, "target": seat, "cards": taps.of(seat)}], taps
        raise refuse("unexpected_card", "There is nothing to confirm now.")

    def _placed(self, state: State, taps: Taps, event: Placed, mode: Components) -> tuple[list[dict[str, Json]], Any]:
        card = event.card
        if card.game != self.game:
            raise refuse("wrong_game", BINDING_CODES["wrong_game"])
        seat = seat_of(event.zone)
        if seat is None or seat >= state.seats:
            raise refuse("wrong_reader", "Boss's Wallet cards are read at a seat's own reader.")
        if card.kind == "coin":
            return self._coin(state, taps, seat, card)
        if card.uid not in state.cfg.cards and card.uid not in state.cfg.specials:
            raise refuse("not_enrolled", "That card was not enrolled when this game started "
                                                "(digital games use no cards).")
        if card.uid in state.cfg.specials:
            return [{"type": "special", "seat": seat, "card": card.uid}], taps
        entry = state.cfg.cards[card.uid]
        if not entry.extra and card.uid not in state.cfg.usable:
            raise refuse("card_not_in_use", OWN_CODES["card_not_in_use"])
        if card.uid in taps.of(seat):
            raise refuse("already_tapped", "That card was already tapped.")
        if state.phase is Phase.SCAN:
            if state.hands[seat] is not None:
                raise refuse("already_scanned", OWN_CODES["already_scanned"])
            elsewhere = {c for hand in state.hands if hand for c in hand} | {u for _, u, _ in taps.taps}
            if card.uid in elsewhere:
                raise refuse("card_in_two_hands", OWN_CODES["card_in_two_hands"])
            return [], taps.add(seat, card.uid)
        if state.phase is Phase.TURNS:
            if seat != state.turn:
                raise refuse("not_your_turn", "Pay at your own reader, on your own turn.")
            if entry.extra:
                paid = taps.of(seat)
                if not paid:
                    raise refuse("nothing_tapped", "Tap the bills and jewellery you pay with first, "
                                                          "then the extra ID.")
                return [{"type": "buy_id", "seat": seat, "paid": paid, "id_card": card.uid}], taps
            if not entry.payable:
                raise refuse("not_payable", OWN_CODES["not_payable"])
            return [], taps.add(seat, card.uid)
        if state.phase is Phase.CREDIT_DRAW:
            if not state.queue or seat != state.queue[0]:
                raise refuse("wrong_reader", "The credit card draw is tapped at its user's reader.")
            drawn = taps.add(seat, card.uid)
            if entry.kind is Kind.BILL:
                return [{"type": "credit_draw", "seat": CHANCE, "target": seat, "cards": drawn.of(seat)}], drawn
            return [], drawn
        raise refuse("unexpected_card", BINDING_CODES["unexpected_card"])

    def _coin(self, state: State, taps: Taps, seat: int, card: Card) -> tuple[list[dict[str, Json]], Any]:
        """Each seat taps the coin it took blind; the last one deals the round (chance `setup`)."""
        if state.phase is not Phase.SETUP:
            raise refuse("unexpected_card", "Coins are tapped when a round is dealt.")
        if taps.of(seat):
            raise refuse("already_tapped", "This seat has already tapped its coin.")
        if any(uid == card.uid or value == card.value for _, uid, value in taps.taps):
            raise refuse("bad_coins", "Another seat took that coin.")
        taps = taps.add(seat, card.uid, card.value)
        if any(not taps.of(s) for s in range(state.seats)):
            return [], taps
        coins = [int(taps.values(s)[0]) for s in range(state.seats)]
        return [{"type": "setup", "seat": CHANCE, "coins": coins}], taps

    def choices(self, state: Any, seat: int, mode: Components) -> list[dict[str, Json]]:
        """While hands are scanned by tapping: confirm or restart the seat's scan; end a credit draw."""
        if mode != Components.PHYSICAL:
            return []
        if state.phase is Phase.SCAN and state.hands[seat] is None:
            return [{"type": "confirm_scan", "seat": seat}, {"type": "clear_scan", "seat": seat}]
        if state.phase is Phase.CREDIT_DRAW and state.queue and state.queue[0] == seat:
            return [{"type": "confirm_draw", "seat": seat}]
        return []

    def reading(self, state: Any, pending: Any, mode: Components) -> tuple[Reading, ...]:
        """Each seat's coin, each hand being scanned, or the credit draw of the seat at the head of the queue, at
        the seats' own readers (a hand and a draw end with the seat's confirm: no count is known before)."""
        if not self.chance_is_physical(state, mode):
            return ()
        key = step_key(state)
        taps = pending if isinstance(pending, Taps) and pending.key == key else Taps(key)
        if state.phase is Phase.SETUP:
            # the seats' lights still show the last round's verdicts while the coins are tapped
            return tuple(Reading(f"seat:{s}", "coin", 1, len(taps.of(s)), lights=False) for s in range(state.seats))
        if state.phase is Phase.SCAN:
            return tuple(Reading(f"seat:{s}", "card", None, len(taps.of(s)))
                         for s in range(state.seats) if state.hands[s] is None)
        if state.queue:
            return (Reading(f"seat:{state.queue[0]}", "card", None, len(taps.of(state.queue[0]))),)
        return ()

    def chance_is_physical(self, state: Any, mode: Components) -> bool:
        """Physical games read the coins, hands and credit draws from tags; chip draws are sampled."""
        return mode == Components.PHYSICAL and state.phase in (Phase.SETUP, Phase.SCAN, Phase.CREDIT_DRAW)

    def scene(self, public_view: JsonObject, seats: int, seat_colours: Sequence[RGB] = ()) -> Scene:
        """Seats: verdict green/red once shown; else whose turn (gold), asked (orange), scanned (white), to scan
        (blue). Tracks: hourglasses left, rounds played."""
        view = public_view
        phase = view.get("phase")
        scene = _seat_lights(view.get("players") or [{}] * seats, phase, view.get("asked") or (),
                             view.get("turn") if phase == "turns" else None, seats)
        _add_tracks(scene, view, phase)
        return scene

    def _scene_since(self, public_view: Mapping[str, Any], seats: int, seat_colours: tuple[RGB, ...],
                     last: Carried | None) -> tuple[Scene, Carried | None]:
        """`scene` (it draws no seat colours): the seat lights without the turn's, reused while the phase, the
        seats asked and each seat's verdict (in the scan also whether it is scanned) are the same, the tracks
        added to them while the hourglasses and the round are, and the seat whose turn it is lit on top (the
        turn moves on nearly every action)."""
        view = public_view
        players = view.get("players") or ()
        phase = view.get("phase")
        turn = view.get("turn") if phase == "turns" else None
        if turn is not None and (type(turn) is not int or not 0 <= turn < seats):
            return self.scene(view, seats, seat_colours), last
        asked = view.get("asked") or ()
        if last is not None and last[1][1] is players and last[1][2] is asked and last[0][:2] == (seats, phase):
            key, (lights, _, _, tracks_were, base) = last  # the very lists of the last view: the same lights
        else:
            absent = _ABSENT  # a comprehension: methodcaller makes a bound method per player
            marks = tuple([p.get("verdict", absent) for p in players])
            if phase == "scan":
                marks += tuple([p.get("scanned") for p in players])
            key = (seats, phase, tuple(asked), marks)
            if last is not None and last[0] == key:
                lights, tracks_were, base = last[1][0], last[1][3], last[1][4]
            else:
                lights, tracks_were, base = _seat_lights(players or [{}] * seats, phase, asked, None, seats), None, None
        tracks = (view.get("hourglasses", 0), view.get("round", 1))
        if tracks != tracks_were or base is None:
            base = dict(lights)
            _add_tracks(base, view, phase)
        if last is None or last[1][4] is not base or last[1][1] is not players or last[1][2] is not asked:
            last = (key, (lights, players, asked, tracks, base))
        if turn is None or (turn < len(players) and "verdict" in players[turn]):
            return base, last
        scene = base.copy()
        scene[SEAT_ZONES[turn] if turn < MAX_SEATS else f"seat:{turn}"] = SEAT_LIGHTS["turn"]
        return scene, last

    def _info_since(self, public_view: Mapping[str, Any], seats: int,
                    last: Carried | None) -> tuple[dict[str, Any], Carried | None]:
        """`info`, reused while the seat count and the view's latest round are the same (a reused view holds
        the same latest round object while the round's result is the same: a check by identity)."""
        key = (seats, public_view.get("last_round"))
        if last is not None and last[0] == key:
            return last[1], last
        info = self.info(public_view, seats)
        return info, (key, info)

    def expected(self, state: Any) -> dict[str, tuple[tuple[str, str], ...]]:
        """Nothing rests on a seat reader (a card left there would be read as a tap)."""
        return {f"seat:{i}": () for i in range(state.seats)}

    def public_info(self, public_view: JsonObject, seats: int) -> dict[str, Json]:
        """The latest judged round (the engine keeps it on show until the next round's verdicts): each seat's
        verdict with reasons, the investigations, the rank order and the chips each seat drew."""
        last = public_view.get("last_round")
        if not last:
            return {}
        return {
            "round": last["round"],
            "verdicts": [{"seat": p["seat"], "verdict": p["verdict"], "reasons": p["reasons"],
                          "identity": p["identity"], "wealth_cents": p["wealth_cents"]} for p in last["players"]],
            "investigations": list(last["investigations"]),
            "award_order": list(last["ranking"]),
            "awards": list(last["awards"]),
        }


def _seat_lights(players: Sequence[JsonObject], phase: Any, asked: Iterable[Any], turn: Any,
                 seats: int) -> Scene:
    """Each seat's light, in seat order: its verdict once shown, else whose turn, asked, scanned or to scan."""
    asked = set(asked)
    lit: Scene = {}
    for i in range(seats):
        p = players[i] if i < len(players) else {}
        if "verdict" in p:
            light = SEAT_LIGHTS["innocent" if p["verdict"] == "innocent" else "guilty"]
        elif turn == i:
            light = SEAT_LIGHTS["turn"]
        elif i in asked:
            light = SEAT_LIGHTS["asked"]
        elif phase == "scan":
            light = SEAT_LIGHTS["scanned" if p.get("scanned") else "to_scan"]
        else:
            light = SEAT_LIGHTS["waiting"]
        lit[SEAT_ZONES[i] if i < MAX_SEATS else f"seat:{i}"] = light
    return lit


def _add_tracks(scene: Scene, view: JsonObject, phase: Any) -> None:
    """The hourglasses left and the rounds played, after the seats."""
    left = HOURGLASSES - int(view.get("hourglasses", 0) or 0)
    scene["hourglass"] = HOURGLASS_TRACK[max(0, left)]
    played = int(view.get("round", 1) or 1) - (0 if phase == "game_over" else 1)
    scene["round"] = ROUND_TRACK[played]


BINDING = BossWalletBinding()
