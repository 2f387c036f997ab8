"""VP: fulfilled demands plus the crate table (1/2/3/4+ crates -> 2/5/9/14)."""

from __future__ import annotations

import pytest

from companion.games.gangsters_dilemma.state import Player
from tests.games.gangsters_dilemma.helpers import HARD, RULES


@pytest.mark.parametrize(("crates", "vp"), [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 14), (9, 14)])
def test_crate_table(crates: int, vp: int) -> None:
    config = RULES.initial_state(3, {"demands": HARD, "characters": []}).config
    assert Player(0, (crates, 0, 0, 0), None).vp(config) == vp
    assert Player(0, (crates, 3, 3, 3), None, ("h1", "h3")).vp(config) == vp + 4 + 10
