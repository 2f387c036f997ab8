"""Views: the public projection of a state, and what one seat may add to it."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from companion.games.gangsters_dilemma.board import LOCATION_NAMES
from companion.games.gangsters_dilemma.options import Config
from companion.games.gangsters_dilemma.state import Entry, Player, State
from companion.games.memo import Memo
from companion.games.rules import private_part

LOG_SLOT = "gangsters_dilemma.log"
"""Memo slot of the public log since the latest reveal (key: the log and where it starts)."""
CARDS_SLOT = "gangsters_dilemma.cards"
"""Memo slot of the public view's demand cards (key: the config and the visible ids)."""
PLAYER_SLOT = "gangsters_dilemma.player"
"""Memo slot (with the seat) of a seat's public entry (key: its Player and the config)."""
PART_SLOT = "gangsters_dilemma.part"
"""Memo slot (with the seat) of a seat's part of the view (key: everything `seat_own` and `private_part` read)."""


def log_view(log: Sequence[Entry], seat: int | None, start: int = 0) -> list[dict[str, Any]]:
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
    return [bool(state.patrols) if s == state.police else state.choices[s] is not None for s in range(state.seats)]


def _player(p: Player, cfg: Config) -> dict[str, Any]:
    """One seat's public entry: money, loot, victory points, fulfilled demands, character."""
    return {"money": p.money, "crate": p.loot[0], "art": p.loot[1], "jewel": p.loot[2], "liquor": p.loot[3],
            "vp": p.vp(cfg), "demands": list(p.fulfilled), "character": p.character,
            "private_demand_count": len(p.private)}


def _cards(cfg: Config, ids: Iterable[str]) -> dict[str, Any]:
    """The demand cards of these ids as the page draws them."""
    return {d: cfg.by_id[d].as_json(cfg.sample) for d in ids}


def public_log(state: State, memo: Memo) -> list[dict[str, Any]]:
    """`log_view(state.log, None, state.log_from)`, only the entries new since the last publish rendered."""
    return memo.rendered_log(LOG_SLOT, state.log, state.log_from, lambda new: log_view(new, None))


def view(state: State, seat: int | None, memo: Memo | None = None) -> dict[str, Any]:
    """Public view (seat None) or a seat's view; depends on hidden facts only for that seat's own (`memo`:
    the table's, for the public view's players, cards and log)."""
    cfg = state.config
    revealed = state.revealed
    patrols = state.patrols if revealed else ()
    locations = [
        {
            "id": loc,
            "name": LOCATION_NAMES[loc - 1] if not (loc == 5 and state.locations == 5) else "black_market+speakeasy",
            "money": state.money[loc - 1],
            "closed": loc in state.closed,
            "patrolled": loc in patrols,
            "visitors": [s for s, c in enumerate(state.choices) if c == loc] if revealed else [],
        }
        for loc in range(1, state.locations + 1)
    ]
    cached = memo is not None and seat is None
    if memo is not None and cached:
        players = [memo.get((PLAYER_SLOT, i), (p, cfg), lambda: _player(p, cfg)) for i, p in enumerate(state.players)]
    else:
        players = [_player(p, cfg) for p in state.players]
    visible = list(state.row) + [d for p in state.players for d in p.fulfilled]
    out: dict[str, Any] = {
        "round": state.round,
        "police": None if state.phase == "setup" else state.police,
        "phase": state.phase.value,
        "locations": locations,
        "players": players,
        "demands": list(state.row),
        "demand_cards": memo.get(CARDS_SLOT, (cfg, tuple(visible)), lambda: _cards(cfg, visible))
        if memo is not None and cached else _cards(cfg, visible),
        "deck": len(state.deck),
        "sample_deck": cfg.sample,
        "market_price": cfg.market_price,
        "lone_gangster_may_bribe": cfg.lone_bribe,
        "patrols": list(patrols),
        "chosen": _chosen(state),
        "responded": [r is not None for r in state.responses] if state.responses else [False] * state.seats,
        "resolving": state.current or None,
        "peeked": state.peeked,
        "to_act": sorted(state.acting),
        "winners": sorted(state.winners) if state.winners is not None else None,
        # From the latest reveal on (one round's worth): the journal keeps the whole game, and a view
        # that grew with it would make every view (and so every tap) slower as the game goes on.
        "log": public_log(state, memo) if memo is not None and cached else log_view(state.log, seat, state.log_from),
    }
    if seat is not None:
        out.update(seat_own(state, seat, out))
    return out


def seat_own(state: State, seat: int, public: Mapping[str, Any]) -> dict[str, Any]:
    """What this seat adds to the public view `public`: its private demands (and their cards), its choice,
    the patrols when it is the police, its response and the lookout's peek."""
    cfg = state.config
    mine = state.players[seat]
    own: dict[str, Any] = {
        "demand_cards": {**public["demand_cards"], **_cards(cfg, mine.private)},
        "seat": seat,
        "private_demands": list(mine.private),
        "choice": state.choices[seat] if state.choices else None,
    }
    if seat == state.police and state.phase != "setup":
        own["patrols"] = list(state.patrols)
    own["response"] = state.responses[seat][0] if state.responses and state.responses[seat] else None
    own["peek"] = state.peek if mine.character == "lookout" else None
    return own


def seat_parts(state: State, public: Mapping[str, Any], memo: Memo) -> tuple[dict[str, Any], ...]:
    """Every seat's part of the view (`private_part` of its seat view), each reused while what `seat_own`
    reads for it and the public fields it is compared with (demand cards, patrols) are the same."""
    police = state.police if state.phase != "setup" else None
    base = (public["demand_cards"], public["patrols"], state.config, police, state.patrols, state.peek)
    parts = []
    for seat, mine in enumerate(state.players):
        key = (base, mine, state.choices[seat] if state.choices else None,
               state.responses[seat] if state.responses else None)
        parts.append(memo.get((PART_SLOT, seat), key, lambda: private_part(seat_own(state, seat, public), public)))
    return tuple(parts)
