"""Views: the public projection of a state, and what one seat may add to it."""

from __future__ import annotations

from itertools import compress
from operator import attrgetter, is_, is_not, ne
from typing import Any, Iterable, Sequence

from companion.games.gangsters_dilemma.board import LOCATION_NAMES
from companion.games.gangsters_dilemma.options import Config
from companion.games.gangsters_dilemma.state import Entry, Player, State
from companion.games.publishing import Published, Reuse, Views
from companion.games.rules import Rules
from companion.games.json_value import Json, JsonObject

_FULFILLED = attrgetter("fulfilled")


def log_view(log: Sequence[Entry], seat: int | None = None, start: int = 0) -> list[dict[str, Json]]:
    """The log from `start` as this viewer may read it: `{code, params}`, others' private entries dropped."""
    return [
        {"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}}
        for e in log[start:]
        if e.to is None or (seat is not None and seat in e.to)
    ]


def _chosen(state: State) -> list[bool]:
    """Per seat: whether its plan choice (patrols, or location) is in — never what it is."""
    if state.revealed:
        return [True] * state.seats
    if not state.choices:
        return [False] * state.seats
    police, patrolled = state.police, bool(state.patrols)
    return [patrolled if s == police else c is not None for s, c in enumerate(state.choices)]


def _player(p: Player, cfg: Config) -> dict[str, Json]:
    """One seat's public entry: money, loot, victory points, fulfilled demands, character."""
    return {"money": p.money, "crate": p.loot[0], "art": p.loot[1], "jewel": p.loot[2], "liquor": p.loot[3],
            "vp": p.vp(cfg), "demands": list(p.fulfilled), "character": p.character,
            "private_demand_count": len(p.private)}


def _cards(cfg: Config, ids: Iterable[str]) -> dict[str, Json]:
    """The demand cards of these ids as the page draws them (each the config's own: shared)."""
    shown = cfg.shown
    return {d: shown[d] for d in ids}


def _locations(state: State) -> list[dict[str, Json]]:
    """Every location: name, money, closed, patrolled and visitors (the last two once revealed)."""
    revealed, count, money, closed = state.revealed, state.locations, state.money, state.closed
    patrols = state.patrols if revealed else ()
    visitors: list[list[int]] = [[] for _ in range(count + 1)]
    if revealed:
        for s, c in enumerate(state.choices):
            if c is not None and 1 <= c <= count:
                visitors[c].append(s)
    return [
        {
            "id": loc,
            "name": LOCATION_NAMES[loc - 1] if not (loc == 5 and count == 5) else "black_market+speakeasy",
            "money": money[loc - 1],
            "closed": loc in closed,
            "patrolled": loc in patrols,
            "visitors": visitors[loc],
        }
        for loc in range(1, count + 1)
    ]


def _players(state: State, before: State, was: JsonObject) -> list[dict[str, Json]]:
    """Every seat's public entry, each the one built from `before` while its Player is the same object."""
    cfg = state.config
    built = list(was["players"])
    for i in compress(range(state.seats), map(is_not, before.players, state.players)):
        built[i] = _player(state.players[i], cfg)
    return built


def public_view(state: State) -> dict[str, Any]:
    """The public view, built whole."""
    return _public(state)


def views(state: State, last: Published[State] | None) -> tuple[Views, tuple[dict[str, Any], int, Any]]:
    """The public view and every seat's part, from `last` (the last publish: its state, and its public view,
    log length and parts): the view with only the fields whose state fields changed built again (the others
    are that publish's, shared: never mutated) and the log extended by its new entries; each seat's part the
    last one while what it reads is the same (`_stale`). Also what the next publish reuses."""
    if last is not None and last.state.config is state.config and last.state.seats == state.seats:
        before, (was, logged, was_parts) = last.state, last.carried
        public = _changed(before, was, logged, state)
        stale = _stale(before, was, state, public)
        if stale:
            parts = list(was_parts)
            for seat in stale:
                parts[seat] = seat_own(state, seat, public, True)
            out = tuple(parts)
        else:
            out = was_parts
    else:
        public = _public(state)
        out = tuple(seat_own(state, seat, public, True) for seat in range(state.seats))
    return (public, out), (public, len(state.log), out)


def _public(state: State) -> dict[str, Json]:
    """The public view built whole."""
    cfg = state.config
    return {
        "round": state.round,
        "police": None if state.phase == "setup" else state.police,
        "phase": state.phase._value_,
        "locations": _locations(state),
        "players": [_player(p, cfg) for p in state.players],
        "demands": list(state.row),
        "demand_cards": _cards(cfg, state.row + tuple(d for p in state.players for d in p.fulfilled)),
        "deck": len(state.deck),
        "sample_deck": cfg.sample,
        "market_price": cfg.market_price,
        "lone_gangster_may_bribe": cfg.lone_bribe,
        "patrols": list(state.patrols if state.revealed else ()),
        "chosen": _chosen(state),
        "responded": [r is not None for r in state.responses] if state.responses else [False] * state.seats,
        "resolving": state.current or None,
        "peeked": state.peeked,
        "to_act": sorted(state.acting),
        "winners": sorted(state.winners) if state.winners is not None else None,
        # From the latest reveal on (one round's worth): the journal keeps the whole game, and a view that
        # grew with it would make every view (and so every tap) slower as the game goes on.
        "log": log_view(state.log, None, state.log_from),
    }


def _changed(before: State, was: dict[str, Json], logged: int, state: State) -> dict[str, Json]:
    """The public view of `state` from `was`, `before`'s (of the same config and seats, whose log had
    `logged` entries): a copy with only the fields whose state fields are not the very same objects built."""
    out = was.copy()
    phase, revealed = state.phase, state.revealed
    if before.acting is not state.acting:
        out["to_act"] = sorted(state.acting)
    log = state.log
    if before.log is not log or before.log_from != state.log_from:
        if before.log_from == state.log_from and log.starts_with(before.log):
            # the log only grew: render its new entries (an entry for some seats only renders to nothing)
            more = [{"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}}
                    for e in log.tail(len(log) - logged) if e.to is None]
            if more:
                out["log"] = was["log"] + more
        else:
            out["log"] = log_view(log, None, state.log_from)
    if before.phase is not phase:
        out["phase"] = phase._value_
        out["police"] = None if phase == "setup" else state.police
    elif before.police != state.police:
        out["police"] = None if phase == "setup" else state.police
    shown = before.revealed == revealed
    if before.choices is not state.choices or before.police != state.police or not shown \
            or bool(before.patrols) != bool(state.patrols):
        out["chosen"] = _chosen(state)
    if not shown or before.money is not state.money or before.closed is not state.closed or (revealed and (
            before.patrols is not state.patrols or before.choices is not state.choices)):
        out["locations"] = _locations(state)
    if not shown or (revealed and before.patrols is not state.patrols):
        out["patrols"] = list(state.patrols if revealed else ())
    players = state.players
    if before.players is not players:
        out["players"] = _players(state, before, was)
    if before.row is not state.row:
        out["demands"] = list(state.row)
    if before.row is not state.row or (before.players is not players and not all(
            map(is_, map(_FULFILLED, before.players), map(_FULFILLED, players)))):
        out["demand_cards"] = _cards(state.config, state.row + tuple(d for p in players for d in p.fulfilled))
    if before.deck is not state.deck:
        out["deck"] = len(state.deck)
    if before.responses is not state.responses:
        out["responded"] = [r is not None for r in state.responses] if state.responses else [False] * state.seats
    if before.current != state.current:
        out["resolving"] = state.current or None
    if before.peeked != state.peeked:
        out["peeked"] = state.peeked
    if before.round != state.round:
        out["round"] = state.round
    if before.winners is not state.winners:
        out["winners"] = sorted(state.winners) if state.winners is not None else None
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Public view (seat None) or a seat's view; depends on hidden facts only for that seat's own."""
    if seat is None:
        return public_view(state)
    out = {**public_view(state), "log": log_view(state.log, seat, state.log_from)}
    out.update(seat_own(state, seat, out))
    return out


def seat_own(state: State, seat: int, public: JsonObject, new_only: bool = False) -> dict[str, Json]:
    """What this seat adds to the public view `public`: its private demands (and their cards), its choice,
    the patrols when it is the police, its response and the lookout's peek (`new_only`: only the fields
    that differ from `public`'s, i.e. `private_part` of the seat's view, built without the others)."""
    mine = state.players[seat]
    own: dict[str, Json] = {}
    if mine.private or not new_only:
        cards = {**public["demand_cards"], **_cards(state.config, mine.private)}
        if not new_only or cards != public["demand_cards"]:
            own["demand_cards"] = cards
    own["seat"] = seat
    own["private_demands"] = list(mine.private)
    own["choice"] = state.choices[seat] if state.choices else None
    if seat == state.police and state.phase != "setup":
        patrols = list(state.patrols)
        if not new_only or patrols != public["patrols"]:
            own["patrols"] = patrols
    own["response"] = state.responses[seat][0] if state.responses and state.responses[seat] else None
    own["peek"] = state.peek if mine.character == "lookout" else None
    return own


def _stale(before: State, before_public: JsonObject, state: State, public: JsonObject) -> list[int]:
    """The seats whose part may differ from the one built from `before` (and its public view): where the
    seat's demands, character, choice or response changed, or where they show, the demand cards (a seat
    holding private demands), the patrols (the police, then and now) or the peek (the lookout)."""
    old, players = before.players, state.players
    seats = state.seats
    stale = [] if old is players else [i for i in compress(range(seats), map(is_not, old, players))
                                       if old[i].private is not players[i].private
                                       or old[i].character != players[i].character]
    if before.choices is not state.choices:
        stale += compress(range(seats), map(ne, before.choices or (None,) * seats, state.choices or (None,) * seats))
    if before.responses is not state.responses:
        stale += compress(range(seats), map(ne, before.responses or (None,) * seats,
                                            state.responses or (None,) * seats))
    if before_public["demand_cards"] is not public["demand_cards"]:
        stale += [i for i, p in enumerate(players) if p.private]
    police = None if state.phase == "setup" else state.police
    was_police = None if before.phase == "setup" else before.police
    if police != was_police or before.patrols is not state.patrols or before_public["patrols"] is not public["patrols"]:
        stale += [s for s in (police, was_police) if s is not None]
    if before.peek != state.peek:
        stale += [i for i, p in enumerate(players) if p.character == "lookout"]
    return stale


class GangstersDilemmaReuse(Reuse[State]):
    """Each publish's views rebuilt from the last one's pieces (`views`)."""

    def views_since(self, rules: Rules[State], state: State, last: Published[State] | None) -> tuple[Views, Any]:
        """`views(state, last)`."""
        return views(state, last)


REUSE = GangstersDilemmaReuse()
"""How the table's publish reuses the last one's views."""
