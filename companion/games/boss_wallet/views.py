"""Views: the public projection and what one seat may add; nothing hidden reaches the public view."""

from __future__ import annotations

from typing import Any

from companion.games.boss_wallet.config import HOURGLASSES, ROUNDS
from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, State
from companion.games.rules import LogEntry


def log_view(log: tuple[LogEntry, ...], seat: int | None, reveal_all: bool = False) -> list[dict[str, Any]]:
    """The log as this viewer may read it (LogEntry.visible_to, inlined), tuple params given back as JSON lists."""
    return [
        {"code": e.code, "params": {k: list(v) if type(v) is tuple else v for k, v in e.params.items()}}
        for e in log
        if reveal_all or e.to is None or (seat is not None and seat in e.to)
    ]


def _player(state: State, seat: int, reveal: bool) -> dict[str, Any]:
    """One seat's public entry: chip count, hand size; after the verdicts also hand, wealth, verdict."""
    out: dict[str, Any] = {
        "chips": len(state.chips[seat]),
        "hand_size": state.hand_sizes[seat] if state.hand_sizes else 0,
        "scanned": bool(state.hands) and state.hands[seat] is not None,
        "coin": state.coins[seat] if state.coins else None,
    }
    if state.verdicts:
        v = state.verdicts[seat]
        out.update(
            hand=list(state.hands[seat] or ()),
            wealth_cents=v.wealth_cents,
            guilt_cents=v.guilt_cents,
            verdict="guilty" if v.guilty else "innocent",
            reasons=list(v.reasons),
            identity=v.identity,
            on_duty=v.on_duty,
            credit_drawn=list(state.credit_drawn[seat]),
            credit_bill=v.credit_bill,
            confiscated_by=v.confiscated_by,
            confiscated_cents=v.confiscated_cents,
        )
    if reveal:
        out["chip_values"] = list(state.chips[seat])
    return out


def public_view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The view every seat and the table page may see (plus `seat`'s private log lines when given)."""
    over = state.phase is Phase.GAME_OVER
    players = [_player(state, s, over) for s in range(state.seats)]
    return {
        "game": "boss_wallet",
        "sample_deck": state.cfg.sample_deck,
        "phase": state.phase.value,
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
        "asked": list(state.queue) if state.phase in (Phase.ROUND_END_SPECIALS, Phase.CREDIT,
                                                        Phase.CREDIT_DRAW, Phase.INVESTIGATE) else [],
        "officers": list(state.officers),
        "investigations": [{"seat": o, "target": t} for o, t in state.investigations],
        "awards_due": [{"seat": s, "chips": n} for s, n in state.award_queue],
        "players": players,
        "card_info": state.cfg.entries(
            [c for p in players for c in (*p.get("hand", ()), *p.get("credit_drawn", ()))]),
        "log": log_view(state.log if over else state.log[state.round_log:], seat, reveal_all=over),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus this seat's chip values and its own hand as far as the table knows it."""
    view = public_view(state, seat)
    scanned = state.hands[seat] if state.hands else None
    known = list(scanned) if scanned is not None else list(state.extras[seat] if state.extras else ())
    drawn = list(state.credit_drawn[seat]) if state.credit_drawn else []
    view["card_info"].update(state.cfg.entries(known + drawn))
    view.update(
        seat=seat,
        chip_values=list(state.chips[seat]),
        hand=known,
        hand_complete=scanned is not None,
        credit_drawn=drawn,
    )
    return view
