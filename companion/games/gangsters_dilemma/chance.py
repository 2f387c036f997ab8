"""Chance: sampling the setup, the patrol the lookout sees and the demands revealed (applying them is in
`handlers`, like every action)."""

from __future__ import annotations

import random
from typing import Any

from companion.games.contract import CHANCE
from companion.games.gangsters_dilemma import handlers
from companion.games.gangsters_dilemma.codes import Phase
from companion.games.gangsters_dilemma.state import State


def sample(state: State, rng: random.Random) -> dict[str, Any]:
    """The chance action due now, drawn with its odds: the setup, the lookout's peek or a demand revealed."""
    cfg = state.config
    if state.phase is Phase.SETUP:
        n = state.seats
        police = rng.randrange(n)
        chars = rng.sample(cfg.characters, n) if cfg.characters else [None] * n
        drawn = rng.sample([c.id for c in cfg.cards], 6 if "elite" in chars else 3)
        return {"type": "setup", "seat": CHANCE, "police": police, "characters": chars,
                "demands": drawn[:3], "elite_demands": drawn[3:]}
    if state.phase is Phase.PEEK:
        return {"type": "reveal_patrol", "seat": CHANCE, "location": rng.choice(state.patrols),
                "target": handlers.lookout_seat(state)}
    return {"type": "reveal_demand", "seat": CHANCE, "demand": rng.choice(state.deck)}
