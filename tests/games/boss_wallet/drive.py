"""Small drivers for Boss's Wallet unit tests: play the turns out, scan given hands, settle a round."""

from __future__ import annotations

from typing import Any

from companion.games import CHANCE
from companion.games.boss_wallet import RULES


def act(state: Any, kind: str, seat: int, **fields: Any) -> Any:
    """Apply one action."""
    return RULES.apply(state, {"type": kind, "seat": seat, **fields})


def flip_to_round_end(state: Any, actions: list[dict] | None = None) -> Any:
    """Every seat flips in turn until the round ends (recording the actions when asked)."""
    while RULES.phase(state) == "turns":
        (seat,) = RULES.to_act(state)
        action = {"type": "flip", "seat": seat}
        state = RULES.apply(state, action)
        if actions is not None:
            actions.append(action)
    return state


def scan(state: Any, hands: dict[int, list[str]], actions: list[dict] | None = None) -> Any:
    """The table scans the given hands (seat -> cards)."""
    for target, cards in hands.items():
        action = {"type": "reveal_hand", "seat": CHANCE, "target": target, "cards": cards}
        state = RULES.apply(state, action)
        if actions is not None:
            actions.append(action)
    return state


def settle(state: Any, awards: list[list[int]], returns: dict[int, int] | None = None,
           actions: list[dict] | None = None) -> Any:
    """Pass on credit cards, investigate the next seat, return the given chips, award the given chips."""
    awards = list(awards)
    while RULES.to_act(state) and RULES.phase(state) not in ("setup", "game_over"):
        phase = RULES.phase(state)
        acting = sorted(RULES.to_act(state))
        if phase == "credit":
            action = {"type": "pass", "seat": acting[0]}
        elif phase == "investigate":
            action = {"type": "investigate", "seat": acting[0], "target": (acting[0] + 1) % RULES.seat_count(state)}
        elif phase == "return_chips":
            seat = acting[0]
            action = {"type": "return_chip", "seat": seat, "chip": (returns or {})[seat]}
        elif phase == "award":
            view = RULES.view(state)
            action = {"type": "award", "seat": CHANCE, "target": view["awards_due"][0]["seat"],
                      "chips": awards.pop(0)}
        else:  # pragma: no cover - the test names the phase
            raise AssertionError(f"settle() cannot play phase {phase}")
        state = RULES.apply(state, action)
        if actions is not None:
            actions.append(action)
    return state
