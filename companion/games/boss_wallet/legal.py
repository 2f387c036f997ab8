"""Who acts now, which action types each phase allows, and the listed legal actions."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from companion.games.boss_wallet.config import SPECIALS_PER_SEAT, Timing
from companion.games.boss_wallet.flow import extras_taken
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import CHANCE

ALLOWED: Mapping[Phase, frozenset[str]] = MappingProxyType({
    Phase.SETUP: frozenset({"setup"}),
    Phase.TURNS: frozenset({"draw", "put", "buy_id", "flip", "special"}),
    Phase.ROUND_END_SPECIALS: frozenset({"special", "pass"}),
    Phase.SCAN: frozenset({"reveal_hand"}),
    Phase.CREDIT: frozenset({"credit", "pass"}),
    Phase.CREDIT_DRAW: frozenset({"credit_draw"}),
    Phase.INVESTIGATE: frozenset({"investigate"}),
    Phase.RETURN_CHIPS: frozenset({"return_chip"}),
    Phase.AWARD: frozenset({"award"}),
    Phase.GAME_OVER: frozenset(),
})

_CHANCE_PHASES = frozenset({Phase.SETUP, Phase.SCAN, Phase.CREDIT_DRAW, Phase.AWARD})
_CHANCE = frozenset({CHANCE})
# Members read once: `Phase.TURNS` looks the member up through the enum's metaclass on every read (~0.2 us),
# and these are read for every acting seat on every publish.
_TURNS, _RETURN_CHIPS, _GAME_OVER = Phase.TURNS, Phase.RETURN_CHIPS, Phase.GAME_OVER
_ROUND_END_SPECIALS, _CREDIT, _INVESTIGATE = Phase.ROUND_END_SPECIALS, Phase.CREDIT, Phase.INVESTIGATE
_TURN_START, _ROUND_END = Timing.TURN_START, Timing.ROUND_END


def to_act(state: State) -> frozenset[int]:
    """{CHANCE}, the seat(s) asked now, or nobody once the game is over."""
    phase = state.phase
    if phase in _CHANCE_PHASES:
        return _CHANCE
    if phase is _TURNS:
        return frozenset({state.turn}) if state.turn is not None else frozenset()
    if phase is _RETURN_CHIPS:
        return frozenset(state.to_return)
    if phase is _GAME_OVER or not state.queue:
        return frozenset()
    return frozenset({state.queue[0]})


def _specials(state: State, seat: int, timing: Timing) -> list[dict[str, Any]]:
    if state.specials_by_seat[seat] >= SPECIALS_PER_SEAT:
        return []
    return [{"type": "special", "seat": seat, "card": s.id} for s in state.cfg.specials.values()
            if s.timing is timing and s.id not in state.specials_used]


def turn_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions of the seat whose turn it is."""
    out: list[dict[str, Any]] = []
    check = state.size_check
    if state.wallet > 0 or not check:
        out.append({"type": "draw", "seat": seat})
    cards = state.hand_sizes[seat] - len(state.extras[seat])  # `play_cards`, inlined
    if cards > 0 or not check:
        out.append({"type": "put", "seat": seat})
    payment = state.cfg.payment
    if payment is not None and (len(payment) <= cards or not check):
        taken = extras_taken(state) if any(state.extras) else ()  # most turns: no extra ID bought yet
        # One representative payment per extra ID: the engine cannot know which cards the hand holds.
        out += [{"type": "buy_id", "seat": seat, "paid": list(payment), "id_card": i}
                for i in state.cfg.extra_ids if i not in taken]
    out.append({"type": "flip", "seat": seat})
    return out + _specials(state, seat, _TURN_START) if state.cfg.specials else out


def acting(state: State, seat: int) -> bool:
    """Whether `seat` is in `to_act(state)` (a turn's seat without building the set)."""
    if state.phase is _TURNS:
        return state.turn is not None and state.turn == seat
    return seat in to_act(state)


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions this acting seat may take now."""
    phase = state.phase
    if phase is _TURNS:
        return turn_actions(state, seat)
    if phase is _ROUND_END_SPECIALS:
        return [{"type": "pass", "seat": seat}] + _specials(state, seat, _ROUND_END)
    if phase is _CREDIT:
        return [{"type": "credit", "seat": seat}, {"type": "pass", "seat": seat}]
    if phase is _INVESTIGATE:
        return [{"type": "investigate", "seat": seat, "target": t} for t in range(state.seats) if t != seat]
    if phase is _RETURN_CHIPS:
        return [{"type": "return_chip", "seat": seat, "chip": v} for v in sorted(set(state.chips[seat]))]
    return []
