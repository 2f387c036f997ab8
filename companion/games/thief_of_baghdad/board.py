"""Thief of Baghdad's fixed components and per-seat-count parameters (docs/RULES.md, Thief of Baghdad)."""

from __future__ import annotations

from typing import Final

COLORS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow", "purple", "white")
"""Palace colours in the fixed order every view uses; also the palace ids."""

DANCER: Final = "dancer"
"""The wild card."""

CARD_NAMES: Final[tuple[str, ...]] = (*COLORS, DANCER)
"""Card names by index: six palace colours, then the dancer (index 6)."""

CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}
"""Card name -> index into a hand's count tuple; read-only."""

DANCER_INDEX: Final = 6
NEUTRAL: Final = "neutral"
"""How a neutral guard's owner shows in views."""

PALACES: Final = len(COLORS)
GUARD_SPACES: Final = 4
CHESTS: Final[tuple[int, ...]] = (4, 5, 6, 7)
"""Chest values on each palace, top first."""

CARDS_PER_COLOUR: Final = 17
PALACE_CARDS: Final = CARDS_PER_COLOUR * PALACES
DANCERS: Final = 8
THIEVES_PER_SEAT: Final = 12

GUARDS_PER_SEAT: Final[dict[int, int]] = {2: 4, 3: 3, 4: 2}
WIN_CHESTS: Final[dict[int, int]] = {2: 6, 3: 5, 4: 4}
HAND_SIZES: Final[tuple[int, ...]] = (6, 7, 8, 9)
"""Starting hands by seat order; option `first_hand` replaces only the first."""

THIEF_MOVES_PER_TURN: Final = 3
DRAW: Final = 3
DRAW_IDLE: Final = 4
"""Cards drawn after a turn with an action / with none (3 + a dancer when one is taken)."""


def hand_sizes(seats: int, first_hand: int) -> tuple[int, ...]:
    """Starting hand size of each seat."""
    return (first_hand, *HAND_SIZES[1:seats])
