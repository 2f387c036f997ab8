"""Views: the public projection and what one seat may add; nothing hidden reaches the public view."""

from __future__ import annotations

from typing import Any, Sequence

from companion.games.boss_wallet.config import HOURGLASSES, ROUNDS
from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, RoundResult, State, Verdict
from companion.games.rules import LogEntry
from companion.games.json_value import Json, JsonObject

ASKING = frozenset({Phase.ROUND_END_SPECIALS, Phase.CREDIT, Phase.CREDIT_DRAW, Phase.INVESTIGATE})
"""Phases whose queue the view shows as `asked`."""


def log_view(log: Sequence[LogEntry], seat: int | None, reveal_all: bool = False) -> list[dict[str, Json]]:
    """The log as this viewer may read it (LogEntry.visible_to, inlined), tuple params given back as JSON lists."""
    return [
        {"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}}
        for e in log
        if reveal_all or e.to is None or (seat is not None and seat in e.to)
    ]


def _judged(hand: tuple[str, ...], drawn: tuple[str, ...], v: Verdict) -> dict[str, Json]:
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
                    players: list[dict[str, Json]] | None = None) -> dict[str, Json] | None:
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


def round_players(result: RoundResult) -> list[dict[str, Json]]:
    """Each seat's results in a judged round: coin, hand, wealth, verdict and why."""
    return [{"seat": s, "coin": result.coins[s], **_judged(result.hands[s], result.credit_drawn[s], v)}
            for s, v in enumerate(result.verdicts)]


def player(state: State, seat: int, reveal: bool) -> dict[str, Json]:
    """One seat's public entry: chip count, hand size; after the verdicts also hand, wealth, verdict."""
    out: dict[str, Json] = {
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


def public_view(state: State, seat: int | None = None) -> dict[str, Json]:
    """The view every seat and the table page may see (plus `seat`'s private log lines when given)."""
    over = state.phase is Phase.GAME_OVER
    players = ([player(state, s, over) for s in range(state.seats)] if state.verdicts or over
               else plain_players(state))
    last = last_round_view(state.last_round)
    shown = [p for p in (*players, *(last["players"] if last else ())) if "hand" in p]
    # every card the view names (hands shown, the log's lines) can be drawn in words
    named = [c for p in shown for c in (*p["hand"], *p["credit_drawn"])]
    log = log_view(state.log if over else state.log[state.round_log:], seat, reveal_all=over)
    named += [c for entry in log for c in card_ids(entry["params"])]
    return view_fields(state, players, last, log, state.cfg.entries(named))


def view_fields(state: State, players: list[dict[str, Json]], last: dict[str, Json] | None, log: list[dict[str, Json]],
            card_info: dict[str, dict[str, Json]]) -> dict[str, Json]:
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
        "asked": list(state.queue) if state.phase in ASKING else [],
        "officers": list(state.officers),
        # most states have neither: no comprehension run for nothing
        "investigations": [{"seat": o, "target": t} for o, t in state.investigations] if state.investigations else [],
        "awards_due": [{"seat": s, "chips": n} for s, n in state.award_queue] if state.award_queue else [],
        "players": players,
        "last_round": last,
        "log": log,
        "card_info": card_info,
    }


def plain_players(state: State) -> list[dict[str, Json]]:
    """`player` of every seat before the verdicts and the game's end, in one pass."""
    none = (None,) * state.seats
    return [{"chips": len(chips), "hand_size": size, "scanned": hand is not None, "coin": coin}
            for chips, size, hand, coin in zip(state.chips, state.hand_sizes or (0,) * state.seats,
                                               state.hands or none, state.coins or none)]


def card_ids(params: Any) -> list[str]:
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
            out += card_ids(p)
    return out


def own_hand(state: State, seat: int) -> tuple[list[str], bool]:
    """A seat's own hand as far as the table knows it, and whether that is the whole hand: with known hands the
    hand from the deal on; else its bought extra IDs until its scan, then the scanned hand."""
    if state.cfg.known_hands:
        return (list(state.held[seat]), True) if state.held else ([], False)
    scanned = state.hands[seat] if state.hands else None
    if scanned is not None:
        return list(scanned), True
    return list(state.extras[seat] if state.extras else ()), False


def private_cards(state: State, seat: int) -> list[str]:
    """The cards this round's log lines private to `seat` name (a card put back, a payment): its view's
    catalogue entries cover them (once the game is over the public log names them all)."""
    if state.phase is Phase.GAME_OVER:
        return []
    out: list[str] = []
    for e in state.log.tail(len(state.log) - state.round_log):
        to = e.to
        if to is not None and seat in to:
            for v in e.params.values():  # private params are flat: a card id, or a tuple of ids (or of chips)
                kind = type(v)
                if kind is str:
                    out.append(v)
                elif kind is tuple:
                    out += v
    return out


def seat_own(state: State, seat: int, public: JsonObject) -> dict[str, Json]:
    """What this seat adds to the public view `public`: its chip values, its own hand as far as the table
    knows it, and those cards' catalogue entries."""
    known, complete = own_hand(state, seat)
    drawn = list(state.credit_drawn[seat]) if state.credit_drawn else []
    entries = state.cfg.entries(private_cards(state, seat) + known + drawn)
    return {
        # and the cards its choices name: the extra IDs on offer and the representative payment for one
        # (the same keys in the same order as the entries of known + drawn + extra IDs + payment)
        "card_info": {**public["card_info"], **entries, **state.cfg.choice_entries},
        "seat": seat,
        "chip_values": list(state.chips[seat]),
        "hand": known,
        "hand_complete": complete,
        "credit_drawn": drawn,
    }


def seat_view(state: State, seat: int) -> dict[str, Json]:
    """The public view plus this seat's chip values and its own hand as far as the table knows it."""
    view = public_view(state, seat)
    view.update(seat_own(state, seat, view))
    return view
