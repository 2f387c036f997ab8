"""Chance with its odds: coins (and, with known hands, the deal and each card drawn), the hands at the scan
(plausible ones consistent with the counts, or the known ones), credit draws, blind chips."""

from __future__ import annotations

import random
from typing import Any

from companion.games.boss_wallet.config import CHIP_VALUES, COINS, HAND
from companion.games.boss_wallet.flow import is_bill, wallet_cards
from companion.games.boss_wallet.roundend import chips_due
from companion.games.boss_wallet.state import Phase, State
from companion.games.contract import CHANCE


def sample_setup(state: State, rng: random.Random) -> dict[str, Any]:
    """Each seat takes one coin blind from the seven; with known hands the shuffled play cards deal 5 a seat."""
    action: dict[str, Any] = {"type": "setup", "seat": CHANCE, "coins": rng.sample(COINS, state.seats)}
    if state.cfg.known_hands:
        deck = rng.sample(state.cfg.in_use, HAND * state.seats)
        action["hands"] = [deck[s * HAND:(s + 1) * HAND] for s in range(state.seats)]
    return action


def sample_draw_card(state: State, rng: random.Random) -> dict[str, Any]:
    """The card a known hand draws: any play card in the wallet, all alike likely."""
    held = {c for hand in state.held for c in hand}
    wallet = [c for c in state.cfg.in_use if c not in held]
    return {"type": "draw_card", "seat": CHANCE, "target": state.drawing, "card": rng.choice(wallet)}


def sample_hand(state: State, rng: random.Random) -> dict[str, Any]:
    """The next unscanned hand: the known one, else its bought extra IDs plus random unscanned play cards, the
    counted size."""
    target = next(s for s, h in enumerate(state.hands) if h is None)
    if state.cfg.known_hands:
        return {"type": "reveal_hand", "seat": CHANCE, "target": target, "cards": list(state.held[target])}
    scanned = {c for h in state.hands if h for c in h}
    free = [c for c in state.cfg.in_use if c not in scanned]
    mine = state.extras[target]
    # Other unscanned hands keep enough cards for their own counts (matters only once specials broke the count).
    reserve = sum(max(0, state.hand_sizes[s] - len(state.extras[s]))
                  for s, h in enumerate(state.hands) if h is None and s != target)
    want = max(0, state.hand_sizes[target] - len(mine))
    if not state.size_check:
        want = max(0, min(want, len(free) - reserve))
    cards = list(mine) + rng.sample(free, want)
    rng.shuffle(cards)
    return {"type": "reveal_hand", "seat": CHANCE, "target": target, "cards": cards}


def sample_credit_draw(state: State, rng: random.Random) -> dict[str, Any]:
    """Shuffle the wallet and draw until the first bill."""
    wallet = list(wallet_cards(state))
    rng.shuffle(wallet)
    drawn: list[str] = []
    for card_id in wallet:
        drawn.append(card_id)
        if is_bill(state, card_id):
            break
    return {"type": "credit_draw", "seat": CHANCE, "target": state.queue[0], "cards": drawn}


def sample_award(state: State, rng: random.Random) -> dict[str, Any]:
    """Draw the due chips blind from the pool."""
    pool = [v for v, n in zip(CHIP_VALUES, state.pool) for _ in range(n)]
    chips = sorted(rng.sample(pool, chips_due(state)))
    return {"type": "award", "seat": CHANCE, "target": state.award_queue[0][0], "chips": chips}


def sample(state: State, rng: random.Random) -> dict[str, Any]:
    """The chance action of the current phase."""
    if state.phase is Phase.SETUP:
        return sample_setup(state, rng)
    if state.phase is Phase.TURNS:
        return sample_draw_card(state, rng)
    if state.phase is Phase.SCAN:
        return sample_hand(state, rng)
    if state.phase is Phase.CREDIT_DRAW:
        return sample_credit_draw(state, rng)
    return sample_award(state, rng)
