"""Outputs as functions of the state: the public snapshot, the LED scene, seat prompts, expected vs seen."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace
from operator import itemgetter
from typing import AbstractSet, Any, Callable, Hashable, Mapping, Sequence

from companion.games.binding import Effect as LightEffect
from companion.games.binding import ORANGE, RGB, WHITE, Binding, Light
from companion.hal.events import READER_PREFIX
from companion.table.core.effects import Effect, PublishState, SendTerminal, SetScene
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.values import evolve
from companion.games.memo import Memo
from companion.games.registry import get_game
from companion.games.rules import Rules
from companion.games.schema import FieldKind
from companion.table.prompts import CardNames, info_of, options_of, prompt, prompt_info
from companion.table.session import Session
from companion.table.terminals import IDLE, TerminalBook
from companion.games.json_value import Json, JsonObject


def zone_of(reader: str, session: Session | None, reader_zones: Mapping[str, str],
            terminals: TerminalBook | None = None) -> str:
    """The logical zone a reader serves in this game (`center` stands in for a missing shared zone); a
    terminal's own reader serves its bound seat (an unbound terminal's reader serves no zone: "")."""
    if reader.startswith(READER_PREFIX) and reader not in reader_zones:
        seat = None if terminals is None else terminals.seat_of(reader[len(READER_PREFIX):])
        return "" if seat is None else f"seat:{seat}"
    zone = reader_zones.get(reader, reader)
    if zone == "center" and session is not None:
        zones = session.binding.zones(session.seats)
        if "center" not in zones:
            served = set(reader_zones.values())
            missing = [z for z in zones if ":" not in z and z not in served]
            if missing:
                return missing[0]
    return zone


def rescan(state: TableState, ctx: Context) -> TableState:
    """Expected vs seen: what the game expects on each zone against what the readers report."""
    session = state.session
    if session is None:
        return replace(state, scan=())
    seen: dict[str, list[tuple[str, str]]] = {}
    for reader, uid in ctx.present().items():
        if uid is None:
            continue
        card = ctx.cards.get(uid)
        zone = zone_of(reader, session, ctx.reader_zones, state.terminals)
        if not zone:
            continue
        seen.setdefault(zone, []).append((card.kind, card.value) if card else ("unknown", uid))
    diffs = []
    for zone, cards in sorted(session.binding.expected(session.state).items()):
        got = sorted(seen.get(zone, []))
        if got != sorted(cards):
            diffs.append({"zone": zone, "expected": [list(c) for c in cards], "seen": [list(c) for c in got]})
    return replace(state, scan=tuple(diffs))


def game_json(session: Session) -> dict[str, Json]:
    """What every game summary says: id, name, seats, components, action count."""
    return {"id": session.game_id, "name": session.game, "seats": session.seats,
            "components": str(session.components), "actions": len(session.actions)}


def seat_facts(ctx: Context, session: Session) -> tuple[tuple[RGB, ...], list[dict[str, Json]], list[str]]:
    """The table's seat colours (for the LEDs), the game's seats as the snapshot lists them and every seat's
    configured name, built once per seat config and game seat count (shared: never mutated)."""
    config = ctx.config.seats
    key = (config, session.seats)
    last = session.memo.last(SEATS_SLOT)
    if last is not None and last[0] == key:
        return last[1]  # type: ignore[no-any-return]
    facts = (tuple(s.rgb for s in config), [{"name": s.name, "colour": s.colour} for s in config[: session.seats]],
             [s.name for s in config])
    session.memo.put(SEATS_SLOT, key, facts)
    return facts


def publish(state: TableState, ctx: Context) -> tuple[TableState, list[Effect]]:
    """The new public snapshot and LED scene, then every seat's prompt (sent where it changed)."""
    session = state.session
    resume = state.status == TableStatus.RESUME_CHECK
    table = {"status": str(state.status), "enrolling": state.enrolling, "boot": ctx.boot,
             "mismatched_zones": [d["zone"] for d in state.scan] if resume else []}
    if state.announcement is not None:  # the venue's words, shown on the TV until the host dismisses them
        table["announcement"] = state.announcement
    effects: list[Effect] = []
    game = None
    parts: Sequence[JsonObject] | None = None
    facts = None
    acting = None
    if session is not None:
        memo = session.memo
        # built once for the snapshot, scene and prompts
        view, parts = session.rules.views(session.state, memo)
        outcome = session.rules.outcome(session.state)
        acting = session.rules.to_act(session.state)
        game = {**game_json(session), "revision": session.revision, "to_act": sorted(acting),
                "outcome": None if outcome is None else {"winners": sorted(outcome.winners),
                                                         "reason": outcome.reason},
                "view": view, "table_info": session.binding.cached_info(view, session.seats, memo)}
        reading = session.binding.reading(session.state, session.pending, session.components)
        words = session.binding.kind_words
        game["reading"] = [{**r.as_json(), "what": None if r.kind not in words else
                            {"en": words[r.kind][0], "ko": words[r.kind][1]}} for r in reading]
        facts = seat_facts(ctx, session)
        colours = facts[0]
        scene = session.binding.cached_scene(view, session.seats, colours, memo)
        counted = [r for r in reading if r.need and r.lights]
        if counted:  # a reader waiting for so many cards pulses white, filled as far as the cards tapped there go
            # (one waiting for a hand of unknown size keeps the game's own light for it)
            scene = {**scene, **{r.zone: Light(WHITE, LightEffect.PULSE, (r.got, r.need)) for r in counted}}
        if resume:  # zones that differ from what the game expects blink orange (on a copy: the memo's is shared)
            scene = {**scene, **{d["zone"]: Light(ORANGE, "blink") for d in state.scan}}
        effects.append(SetScene(scene))
    seats = [] if facts is None else facts[1]
    effects.append(PublishState({"table": table, "game": game, "seats": seats}))
    state, sends = send_prompts(state, ctx, parts, None if facts is None else facts[2], acting,
                                None if game is None else game["view"])
    return state, effects + sends


def send_prompts(state: TableState, ctx: Context, parts: Sequence[Mapping[str, Any]] | None = None,
                 names: list[str] | None = None, acting: frozenset[int] | None = None,
                 view: Mapping[str, Any] | None = None) -> tuple[TableState, list[Effect]]:
    """Every seat's prompt (`parts` and `view`: each seat's part of the view and the public view,
    `Rules.views`, `names`: the seat names, `seat_facts`, and `acting`: the game's `to_act`, each built when not
    given); a terminal is sent its seat's only when it changed."""
    session = state.session
    if session is None:
        return state, []
    running = state.status in (TableStatus.RUNNING, TableStatus.OVER) and not state.enrolling
    if parts is None or view is None:
        view, parts = session.rules.views(session.state, session.memo)
    if names is None:
        names = seat_facts(ctx, session)[2]
    rules, binding, game_state, components = session.rules, session.binding, session.state, session.components
    seat_fields = session.memo.get(FIELDS_SLOT, rules.name, lambda: get_game(rules.name).fields.of_kind(FieldKind.SEAT))
    # the engine is asked only for the seats that may act: every other seat's legal actions are []
    if not running:
        acting = frozenset()
    elif acting is None:
        acting = rules.to_act(game_state)
    # a binding without table-side choices is not asked for them seat by seat
    choices = binding.choices if running and type(binding).choices is not Binding.choices else None
    count, memo = session.seats, session.memo
    infos = part_infos(memo, parts)
    catalogue_fields = session.memo.get(CATALOGUES_SLOT, rules.name,
                                        lambda: get_game(rules.name).fields.catalogues())
    was = state.prompts
    # a game giving choice keys: a seat whose key equals its stored prompt's keeps it without being asked
    keys = choice_keys(rules, binding, choices is not None)
    new_keys: dict[int, Hashable] = {}
    old_keys: Mapping[int, Hashable] = {}
    if keys is not None:
        rules_key, binding_key = keys
        last = memo.last(KEYS_SLOT)
        if last is not None and last[0] is was:
            old_keys = last[1]
    prompts: dict[int, JsonObject] | None = None
    ballots = state.ballots
    sends: list[Effect] = []
    serving: Mapping[int, str] | None = None
    for seat in range(len(names)):
        old = was.get(seat)
        # seats beyond this game's count are told they are idle (no stale prompt from an earlier game)
        if seat < count:
            info = infos[seat]
            acts = seat in acting
            kept = False
            if keys is not None and (acts or choices is not None):
                # a waiting seat is offered no legal action: only its binding's choices, if any, can differ
                key = rules_key(game_state, seat) if acts else _WAITING
                if key is not None and binding_key is not None:
                    extra = binding_key(game_state, seat, components)
                    key = None if extra is None else (key, extra)
                if key is not None:
                    new_keys[seat] = key
                    stored = old_keys.get(seat)
                    if stored is key or (stored is not None and stored == key):
                        # the very choices of the stored prompt: `prompt_for` would keep them
                        was_info = old["info"]  # type: ignore[index]
                        if was_info is info or was_info == info:
                            continue
                        message, kept = {**old, "info": info_of(info)}, True  # type: ignore[dict-item]
            if not kept:
                if acts:
                    legal = rules.legal_actions(game_state, seat)
                    if choices is not None:
                        legal += choices(game_state, seat, components)
                else:  # a waiting seat's legal actions are []: only the binding's choices, if it has any
                    legal = [] if choices is None else choices(game_state, seat, components)
                if not legal and old is not None and old.get("type") == "idle" and (old["info"] is info
                                                                                     or old["info"] == info):
                    continue  # still idle, the same to show: nothing to send, nothing to store
                message, ballots = prompt_for(session.game_id, legal, info, names, old, ballots, memo, seat,
                                              ctx.ballot_key, CardsOf(catalogue_fields, binding, view, parts[seat],
                                                                      memo, seat),
                                              seat_fields=seat_fields)
        else:
            message = old if old == IDLE else dict(IDLE)
        if message is old:  # unchanged: nothing to send, nothing to store
            continue
        if serving is None:
            serving = terminals_by_seat(memo, state.terminals)
        terminal = serving.get(seat)
        if terminal and old != message:
            sends.append(SendTerminal(terminal, message))
        if prompts is None:
            prompts = dict(was)
        prompts[seat] = message
    if keys is not None:
        memo.put(KEYS_SLOT, was if prompts is None else prompts, new_keys)
    if prompts is None and ballots == state.ballots:
        return state, sends
    return evolve(state, prompts=was if prompts is None else prompts, ballots=ballots), sends


ChoiceKeys = tuple[Callable[[Any, int], Hashable | None], Callable[[Any, int, str], Hashable | None] | None]
"""A game's `Rules.choices_key` and, when its binding has table-side choices, its `Binding.choices_key`."""


def choice_keys(rules: Rules[Any], binding: Binding, with_choices: bool) -> ChoiceKeys | None:
    """The key functions of a game that gives choice keys for all it offers, else None (every seat asked)."""
    if type(rules).choices_key is Rules.choices_key:
        return None
    if not with_choices:
        return rules.choices_key, None
    if type(binding).choices_key is Binding.choices_key:
        return None
    return rules.choices_key, binding.choices_key


def terminals_by_seat(memo: Memo, book: TerminalBook) -> Mapping[int, str]:
    """`book.terminal_of(seat)` for every seat served, found once per terminal binding map (by identity)."""
    last = memo.last(TERMINALS_SLOT)
    if last is not None and last[0] is book.seats:
        return last[1]  # type: ignore[no-any-return]
    serving: dict[int, str] = {}
    for terminal, seat in book.seats.items():
        serving.setdefault(seat, terminal)  # the first, as terminal_of finds it
    memo.put(TERMINALS_SLOT, book.seats, serving)
    return serving


def part_infos(memo: Memo, parts: Sequence[JsonObject]) -> tuple[JsonObject, ...]:
    """`prompt_info` of every seat's part, each filtered once while the part is the same object (a view part
    is shared from publish to publish while its inputs are the same, and never mutated), and the last info
    object kept while a new part's info equals it (so an idle seat's prompt is seen unchanged by identity)."""
    last = memo.last(INFO_SLOT)
    if last is None:
        infos = tuple([prompt_info(part) for part in parts])
    elif last[0] is parts:
        return last[1]  # type: ignore[no-any-return]
    else:
        was, done = last
        infos = tuple([done[seat] if seat < len(was) and was[seat] is part else _same(prompt_info(part), done, seat)
                       for seat, part in enumerate(parts)])
    memo.put(INFO_SLOT, parts, infos)
    return infos


def _same(info: JsonObject, done: Sequence[JsonObject], seat: int) -> JsonObject:
    """`info`, or the seat's last info where it is equal (the object the seat's stored prompt holds)."""
    if seat < len(done) and done[seat] == info:
        return done[seat]
    return info


def catalogues(catalogue_fields: Mapping[str, str], view: Mapping[str, Any]
               ) -> tuple[tuple[Mapping[str, Any], str | None], ...]:
    """The card catalogues of a view: its `card_info` (each entry's type its kind) and the game's declared
    catalogue fields (field -> the kind of its cards)."""
    found = [(view["card_info"], None)] if _is_mapping(view.get("card_info")) else []
    for field, kind in catalogue_fields.items():
        if _is_mapping(view.get(field)):
            found.append((view[field], kind))
    return tuple(found)


def _is_mapping(value: Any) -> bool:
    """Whether a view's value is a mapping (a dict at once: the ABC check costs a microsecond a call)."""
    return type(value) is dict or (value is not None and isinstance(value, Mapping))


class CardsOf:
    """A seat's `card_names`, found only when a prompt's options are built (most publishes reuse them), with
    the words the game's memo keeps for the seat's cards."""

    __slots__ = ("catalogue_fields", "binding", "view", "part", "memo", "seat")

    def __init__(self, catalogue_fields: Mapping[str, str], binding: Binding, view: Mapping[str, Any],
                 part: Mapping[str, Any], memo: Memo, seat: int) -> None:
        self.catalogue_fields, self.binding, self.view, self.part = catalogue_fields, binding, view, part
        self.memo, self.seat = memo, seat

    def __call__(self) -> CardNames | None:
        """The seat's card names (None: its view carries no catalogue); a card's words are found once a game (again
        only when its catalogue entry is a new object)."""
        return card_names(self.catalogue_fields, self.binding, catalogues(self.catalogue_fields, self.view), self.part,
                          self.memo.get((CARDS_SLOT, self.seat), None, dict))


def card_names(catalogue_fields: Mapping[str, str], binding: Binding,
               shared: tuple[tuple[Mapping[str, Any], str | None], ...], part: Mapping[str, Any],
               worded: dict[str, Any] | None = None) -> CardNames | None:
    """A seat's card ids in words (its part's catalogues first: its own cards, then the public ones), with the
    words `worded` kept from earlier publishes; None when its view carries no catalogue."""
    own = catalogues(catalogue_fields, part) if "card_info" in part or not catalogue_fields.keys().isdisjoint(part) \
        else ()
    found = own + shared if own else shared
    return CardNames(found, binding.card_words, worded) if found else None


def prompt_for(game_id: int, legal: list[dict[str, Any]], private: Mapping[str, Any], names: list[str],
               old: Mapping[str, Any] | None, ballots: int, memo: Memo | None = None,
               seat: int = 0, key: bytes = b"", cards: Callable[[], CardNames | None] | None = None, *,
               seat_fields: AbstractSet[str]) -> tuple[Mapping[str, Any], int]:
    """A seat's prompt offering `legal` (`private`: what its view adds to the public one; `seat_fields`: the
    game's fields holding a seat, named by the seat's name) and the ballot counter after it; the ballot id stays
    the same while its choices do, and an unchanged prompt is `old`
    itself. With the game's `memo`, a seat offered the same choices as at its last prompt starting with the
    same kind of action (e.g. a vote, round after round) gets the option list built then; `cards` gives the
    seat's card ids in words, asked only when options are built."""
    if old is not None and same_choices(old, legal):
        if old["info"] is private or old["info"] == private:  # the same message, labels not rebuilt
            return old, ballots
        return {**old, "info": info_of(private)}, ballots
    if not legal:
        return prompt(None, legal, names, seat_fields, private), ballots
    ballots += 1
    ballot = ballot_id(key, game_id, ballots)
    if memo is None:
        return prompt(ballot, legal, names, seat_fields, private, cards=None if cards is None else cards()), ballots
    return prompt(ballot, legal, names, seat_fields, private,
                  reused_options(memo, seat, legal, names, seat_fields, cards)), ballots


def ballot_id(key: bytes, game_id: int, number: int) -> str:
    """The id of a game's `number`th ballot: the game id and 48 bits of an HMAC under the table's secret `key`, so
    no ballot id tells another (a device that guesses one has a chance in 2**48 a try), yet `step` stays
    deterministic given its context."""
    tag = hmac.new(key, f"{game_id}.{number}".encode("ascii"), hashlib.sha256).hexdigest()[:BALLOT_TAG]
    return f"{game_id}.{tag}"


def reused_options(memo: Memo, seat: int, legal: list[dict[str, Any]], names: list[str],
                   seat_fields: AbstractSet[str], cards: Callable[[], CardNames | None] | None = None
                   ) -> list[dict[str, Any]]:
    """`options_of(legal, names, seat_fields)`, reusing the seat's last option list of the same kind of first
    action (one
    slot per seat and kind: a seat's vote or location choice comes back round after round with other prompts
    between): the whole list for the same actions, else its options for the equal actions before and after
    the ones that changed (renumbered when they moved: a turn's choices gain or lose one in the middle); for
    actions carrying their option words only the equal ones before the first change. A card's words are the
    same for its id all game long, so options naming cards are reused as any other."""
    slot = (OPTIONS_SLOT, seat, legal[0].get("type"))
    last = memo.last(slot)
    if last is None or (last[0] is not names and last[0] != names):
        options = options_of(legal, names, seat_fields, cards=None if cards is None else cards())
    else:
        old = last[1]
        n, m = len(legal), len(old)
        # identity first: a game handing out fixed read-only actions offers the very objects again
        same = 0
        while same < n and same < m and ((was := old[same]["action"]) is legal[same] or was == legal[same]):
            same += 1
        if same == n == m:
            return old  # type: ignore[no-any-return]
        first = legal[0]
        if type(first) is not dict and getattr(first, "option_words", None) is not None:
            # actions carrying their words: options built anew cost less than finding and renumbering old ones
            options = old[:same] + options_of(legal, names, seat_fields, same,
                                              cards=None if cards is None else cards())
            memo.put(slot, names, options)
            return options
        end = 0  # equal actions at the end of both lists
        while end < n - same and end < m - same and ((was := old[m - 1 - end]["action"]) is legal[n - 1 - end]
                                                      or was == legal[n - 1 - end]):
            end += 1
        options = old[:same] + options_of(legal, names, seat_fields, same, n - end,
                                          None if cards is None else cards())
        options += old[m - end:] if n == m else [{**o, "value": i} for i, o in enumerate(old[m - end:], n - end)]
    memo.put(slot, names, options)
    return options


_ACTION = itemgetter("action")
BALLOT_TAG = 12
"""Hex digits of a ballot id's secret part (48 bits): with the game id and a hub's screen number it stays far
below the protocol's 64-character id."""
FIELDS_SLOT = "prompt.seat_fields"
CATALOGUES_SLOT = "prompt.catalogue_fields"
CARDS_SLOT = "prompt.card_names"
"""The memo slot of the game's seat fields (its declaration's, read once per game as its binding's facts are)."""
SEATS_SLOT = "publish.seats"
"""Memo slot of the seat colours, names and snapshot seats (key: the seat config and the game's seat count)."""
TERMINALS_SLOT = "prompt.terminals"
"""Memo slot of the terminal serving each seat (key: the terminal book's binding map, by identity)."""
KEYS_SLOT = "prompt.keys"
"""Memo slot of the choice key each seat's stored prompt was offered under (key: the prompts, by identity)."""
_WAITING = ("waiting",)
"""The engine part of a waiting seat's choice key (it is offered no legal action)."""
INFO_SLOT = "prompt.info"
"""Memo slot of what each seat's prompt carries of its part of the view (key: the parts, by identity)."""
OPTIONS_SLOT = "prompt.options"
"""Memo slot (with the seat and the type of its first action) of the options of the last such prompt (key:
the seat names; each option holds its action)."""


def same_choices(message: JsonObject, legal: list[dict[str, Json]]) -> bool:
    """Whether a prompt message offers exactly these actions, in this order (idle: none)."""
    kind = message.get("type")
    if kind != "prompt":
        return not legal and kind == "idle"
    options = message["options"]
    return len(options) == len(legal) and list(map(_ACTION, options)) == legal


def seat_screen(state: TableState, seat: int | None) -> dict[str, Json]:
    """What a terminal serving `seat` should show now: the seat's open prompt, else idle (also unbound)."""
    message = None if seat is None else state.prompts.get(seat)
    return dict(message) if message is not None else dict(IDLE)
