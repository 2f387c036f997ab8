"""Views: the public projection and what one seat may add; nothing hidden reaches the public view."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.games.boss_wallet.config import HOURGLASSES, ROUNDS, Config
from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, RoundResult, State, Verdict
from companion.games.memo import Memo
from companion.games.rules import LogEntry

LOG_SLOT = "boss_wallet.log"
"""Memo slot of the round's public log and the entries of the cards it names (key: log, round start, config,
the log's length)."""
CARD_INFO_SLOT = "boss_wallet.card_info"
"""Memo slot of the public view's catalogue entries (key: config, cards shown, the log's entries)."""
LAST_ROUND_SLOT = "boss_wallet.last_round"
"""Memo slot of the latest judged round as shown and the cards its hands name (key: the round's result)."""
ROUND_PLAYERS_SLOT = "boss_wallet.round_players"
"""Memo slot of the latest round's players and the cards they name (key: the round's coins, hands, credit
draws and verdicts)."""
PLAYERS_SLOT = "boss_wallet.players"
"""Memo slot of the public players list, each seat's inputs and the cards shown hands name (key: the fields
`_player` reads)."""
PARTS_SLOT = "boss_wallet.parts"
"""Memo slot of every seat's part of the view and each seat's inputs (key: the public catalogue entries, the
config and the per-seat fields `seat_own` reads)."""
_ASKING = frozenset({Phase.ROUND_END_SPECIALS, Phase.CREDIT, Phase.CREDIT_DRAW, Phase.INVESTIGATE})
"""Phases whose queue the view shows as `asked`."""


def log_view(log: Sequence[LogEntry], seat: int | None, reveal_all: bool = False) -> list[dict[str, Any]]:
    """The log as this viewer may read it (LogEntry.visible_to, inlined), tuple params given back as JSON lists."""
    return [
        {"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}}
        for e in log
        if reveal_all or e.to is None or (seat is not None and seat in e.to)
    ]


def _judged(hand: tuple[str, ...], drawn: tuple[str, ...], v: Verdict) -> dict[str, Any]:
    """What the verdicts make public about one seat: hand, wealth, verdict and why."""
    return {
        "hand": list(hand),
        "wealth_cents": v.wealth_cents,
        "guilt_cents": v.guilt_cents,
        "verdict": "guilty" if v.guilty else "innocent",
        "reasons": list(v.reasons),
        "identity": v.identity,
        "on_duty": v.on_duty,
        "credit_drawn": list(drawn),
        "credit_bill": v.credit_bill,
        "confiscated_by": v.confiscated_by,
        "confiscated_cents": v.confiscated_cents,
    }


def last_round_view(result: RoundResult | None,
                    players: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The latest judged round as it was shown: per-seat results, investigations, ranking, chip counts drawn
    (`players`: its `round_players`, when already built)."""
    if result is None:
        return None
    return {
        "round": result.round,
        "start_seat": result.start_seat,
        "finished": result.finished,
        "players": round_players(result) if players is None else players,
        "investigations": [{"seat": o, "target": t, "guilty": result.verdicts[t].guilty}
                           for o, t in result.investigations],
        "ranking": list(result.ranking),
        "returned": list(result.returned),
        "awards": [{"seat": s, "chips": n} for s, n in result.awards],
    }


def round_players(result: RoundResult) -> list[dict[str, Any]]:
    """Each seat's results in a judged round: coin, hand, wealth, verdict and why."""
    return [{"seat": s, "coin": result.coins[s], **_judged(result.hands[s], result.credit_drawn[s], v)}
            for s, v in enumerate(result.verdicts)]


def _player(state: State, seat: int, reveal: bool) -> dict[str, Any]:
    """One seat's public entry: chip count, hand size; after the verdicts also hand, wealth, verdict."""
    out: dict[str, Any] = {
        "chips": len(state.chips[seat]),
        "hand_size": state.hand_sizes[seat] if state.hand_sizes else 0,
        "scanned": bool(state.hands) and state.hands[seat] is not None,
        "coin": state.coins[seat] if state.coins else None,
    }
    if state.verdicts:
        out.update(_judged(state.hands[seat] or (), state.credit_drawn[seat], state.verdicts[seat]))
    if reveal:
        out["chip_values"] = list(state.chips[seat])
    return out


def public_view(state: State, seat: int | None = None, memo: Memo | None = None) -> dict[str, Any]:
    """The view every seat and the table page may see (plus `seat`'s private log lines when given; `memo`:
    the table's, for the public view of a running game)."""
    over = state.phase is Phase.GAME_OVER
    if memo is not None and seat is None and not over:
        return _memo_view(state, memo)
    players = ([_player(state, s, over) for s in range(state.seats)] if state.verdicts or over
               else _plain_players(state))
    last = last_round_view(state.last_round)
    shown = [p for p in (*players, *(last["players"] if last else ())) if "hand" in p]
    # every card the view names (hands shown, the log's lines) can be drawn in words
    named = [c for p in shown for c in (*p["hand"], *p["credit_drawn"])]
    log = log_view(state.log if over else state.log[state.round_log:], seat, reveal_all=over)
    named += [c for entry in log for c in _card_ids(entry["params"])]
    return _fields(state, players, last, log, state.cfg.entries(named))


def _fields(state: State, players: list[dict[str, Any]], last: dict[str, Any] | None, log: list[dict[str, Any]],
            card_info: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The public view, given its players, latest round, log and catalogue entries (one dict built whole: a
    key added later would grow it)."""
    return {
        "game": "boss_wallet",
        "sample_deck": state.cfg.sample_deck,
        "phase": str(state.phase),  # a str enum's value, without Enum.value's property call
        "round": state.round,
        "rounds": ROUNDS,
        "turn": state.turn,
        "start_seat": state.start_seat,
        "hourglasses": state.hourglasses,
        "hourglasses_total": HOURGLASSES,
        "wallet": state.wallet,
        "extra_ids_left": len(state.cfg.extra_ids) - len(extras_taken(state)),
        "chip_pool": sum(state.pool),
        "size_check": state.size_check,
        "specials_used": list(state.specials_used),
        "asked": list(state.queue) if state.phase in _ASKING else [],
        "officers": list(state.officers),
        # most states have neither: no comprehension run for nothing
        "investigations": [{"seat": o, "target": t} for o, t in state.investigations] if state.investigations else [],
        "awards_due": [{"seat": s, "chips": n} for s, n in state.award_queue] if state.award_queue else [],
        "players": players,
        "last_round": last,
        "log": log,
        "card_info": card_info,
    }


def _memo_view(state: State, memo: Memo) -> dict[str, Any]:
    """`public_view(state)` of a running game, reusing through `memo` what an earlier publish built from the
    same inputs: the players, the latest round, the log rendered so far and the catalogue entries."""
    players, named = _players(state, memo)
    key = (state.last_round,)
    stored = memo.last(LAST_ROUND_SLOT)
    if stored is not None and stored[0] == key:
        last, named_last = stored[1]
    else:
        last, named_last = _last_round(state.last_round, memo)
        memo.put(LAST_ROUND_SLOT, key, (last, named_last))
    log, in_log = round_log(state, memo)
    cfg = state.cfg
    key = (cfg, named, named_last, in_log)
    stored = memo.last(CARD_INFO_SLOT)
    if stored is not None and stored[0] == key:
        card_info = stored[1]
    else:
        card_info = _card_info(cfg, [*named, *named_last], in_log)
        memo.put(CARD_INFO_SLOT, key, card_info)
    return _fields(state, players, last, log, card_info)


def _last_round(result: RoundResult | None, memo: Memo) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """`last_round_view(result)` and the cards its hands and credit draws name, in order, with its players
    reused while their results are the same (an award or a returned chip changes only the round's tail)."""
    if result is None:
        return None, ()
    key = (result.coins, result.hands, result.credit_drawn, result.verdicts)
    stored = memo.last(ROUND_PLAYERS_SLOT)
    if stored is not None and stored[0] == key:
        players, named = stored[1]
    else:
        players = round_players(result)
        named = tuple([c for p in players for c in (*p["hand"], *p["credit_drawn"])])
        memo.put(ROUND_PLAYERS_SLOT, key, (players, named))
    return last_round_view(result, players), named


def _players(state: State, memo: Memo) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The public players of a running game and the cards their shown hands name: the last list while every
    field `_player` reads is the same; after the verdicts a new list reuses each seat's entry while its own
    inputs are (a judged entry is large; an unjudged one costs no more to build than to check)."""
    key = (state.chips, state.hand_sizes, state.hands, state.coins, state.verdicts, state.credit_drawn)
    last = memo.last(PLAYERS_SLOT)
    if last is not None and last[0] == key:
        return last[1][0], last[1][1]
    if not state.verdicts:
        was = None if last is None or last[1][2] is not None else last[0]
        if (was is not None and was[0] is state.chips and was[2] is state.hands and was[3] is state.coins
                and was[1] and len(was[1]) == len(state.hand_sizes)):
            # only hand sizes changed (a draw, a put): every other entry stays as it is
            players = [p if old == size else {**p, "hand_size": size}
                       for p, old, size in zip(last[1][0], was[1], state.hand_sizes)]  # type: ignore[index]
        else:
            players = _plain_players(state)
        memo.put(PLAYERS_SLOT, key, (players, (), None))
        return players, ()
    none = (None,) * state.seats
    seat_keys = tuple(zip(state.chips, state.hand_sizes or none, state.hands, state.coins or none,
                          state.verdicts, state.credit_drawn))
    if last is not None and last[1][2] is not None and len(last[1][2]) == len(seat_keys):
        players = [old if mine == was else _player(state, s, False)
                   for s, (mine, was, old) in enumerate(zip(seat_keys, last[1][2], last[1][0]))]
    else:
        players = [_player(state, s, False) for s in range(state.seats)]
    if last is not None and last[1][2] is not None and last[0][2] is state.hands and last[0][5] is state.credit_drawn:
        named = last[1][1]  # the same hands and credit draws shown (an award or a returned chip changed)
    else:
        named = tuple([c for p in players for c in (*p["hand"], *p["credit_drawn"])])
    memo.put(PLAYERS_SLOT, key, (players, named, seat_keys))
    return players, named


def _plain_players(state: State) -> list[dict[str, Any]]:
    """`_player` of every seat before the verdicts and the game's end, in one pass."""
    none = (None,) * state.seats
    return [{"chips": len(chips), "hand_size": size, "scanned": hand is not None, "coin": coin}
            for chips, size, hand, coin in zip(state.chips, state.hand_sizes or (0,) * state.seats,
                                               state.hands or none, state.coins or none)]


def round_log(state: State, memo: Memo) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """This round's public log as `log_view` renders it, and the catalogue entries of the cards it names (in
    the order first named), extended from what the last publish rendered when the log grew from its log."""
    log, start, cfg = state.log, state.round_log, state.cfg
    last = memo.last(LOG_SLOT)
    size = len(log)
    if last is not None and last[0][1] == start and last[0][2] is cfg and log.starts_with(last[0][0]):
        done, (rendered, in_log) = last[0][3], last[1]
        if size == done:  # nothing new: the stored log is still this one's whole prefix
            return rendered, in_log  # type: ignore[no-any-return]
    else:
        done, rendered, in_log = start, [], {}
    new = log_view(log.tail(size - done), None) if size > done else []
    if new:
        rendered = rendered + new
        catalogue = cfg.catalogue
        added: dict[str, Any] = {}
        for entry in new:
            for c in _card_ids(entry["params"]):
                if c in catalogue and c not in in_log and c not in added:
                    added[c] = catalogue[c]
        if added:
            in_log = {**in_log, **added}
    memo.put(LOG_SLOT, (log, start, cfg, size), (rendered, in_log))
    return rendered, in_log


def _card_info(cfg: Config, named: list[str], in_log: Mapping[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """`cfg.entries(named + every card id the log names)`, given the log's entries in the order first named."""
    out = cfg.entries(named)
    for card_id, entry in in_log.items():
        out.setdefault(card_id, entry)
    return out


def _card_ids(params: Any) -> list[str]:
    """The strings in a log entry's params (the catalogue keeps those that are card ids), in order."""
    if isinstance(params, str):
        return [params]
    if isinstance(params, dict):
        params = params.values()
    elif not isinstance(params, (list, tuple)):
        return []
    out: list[str] = []
    for p in params:
        if type(p) is str:  # most params are flat: a card id or a list of them
            out.append(p)
        elif type(p) is not int and p is not None:
            out += _card_ids(p)
    return out


def seat_own(state: State, seat: int, public: Mapping[str, Any]) -> dict[str, Any]:
    """What this seat adds to the public view `public`: its chip values, its own hand as far as the table
    knows it, and those cards' catalogue entries."""
    scanned = state.hands[seat] if state.hands else None
    known = list(scanned) if scanned is not None else list(state.extras[seat] if state.extras else ())
    drawn = list(state.credit_drawn[seat]) if state.credit_drawn else []
    return {
        # and the cards its choices name: the extra IDs on offer and the representative payment for one
        # (the same keys in the same order as the entries of known + drawn + extra IDs + payment)
        "card_info": {**public["card_info"], **state.cfg.entries(known + drawn), **state.cfg.choice_entries},
        "seat": seat,
        "chip_values": list(state.chips[seat]),
        "hand": known,
        "hand_complete": scanned is not None,
        "credit_drawn": drawn,
    }


def seat_parts(state: State, public: Mapping[str, Any], memo: Memo) -> tuple[dict[str, Any], ...]:
    """Every seat's part of the view (`private_part` of its seat view): the last parts while the public
    catalogue entries, the config and every seat's hand, extra IDs, credit draw and chips are the same, else
    new parts reusing each seat's while its own inputs are."""
    card_info, cfg = public["card_info"], state.cfg
    key = (card_info, cfg, state.hands, state.extras, state.credit_drawn, state.chips)
    last = memo.last(PARTS_SLOT)
    if last is not None and last[0] == key:
        return last[1][0]  # type: ignore[no-any-return]
    none, empty = (None,) * state.seats, ((),) * state.seats
    seat_keys = tuple(zip(state.hands or none, state.extras or empty, state.credit_drawn or empty, state.chips))
    if last is not None and len(last[1][1]) == len(seat_keys) and last[0][:2] == (card_info, cfg):
        parts = tuple([old if mine == was else _part(state, s, public)
                       for s, (mine, was, old) in enumerate(zip(seat_keys, last[1][1], last[1][0]))])
    else:
        parts = tuple([_part(state, s, public) for s in range(state.seats)])
    memo.put(PARTS_SLOT, key, (parts, seat_keys))
    return parts


def _part(state: State, seat: int, public: Mapping[str, Any]) -> dict[str, Any]:
    """`private_part(seat_own(state, seat, public), public)`: of a seat's own fields the public view has only
    the catalogue entries, dropped where they are the same."""
    own = seat_own(state, seat, public)
    if own["card_info"] == public["card_info"]:
        del own["card_info"]
    return own


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus this seat's chip values and its own hand as far as the table knows it."""
    view = public_view(state, seat)
    view.update(seat_own(state, seat, view))
    return view
