"""Win rates with their 95% intervals (Wilson's score interval: sound at rates near 0 or 1 and small counts)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Rate:
    """`wins` out of `games`, with the Wilson 95% interval."""

    wins: int
    games: int

    @property
    def value(self) -> float:
        """The observed rate (0 with no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95%."""
        return wilson(self.wins, self.games)

    def beats(self, other: "Rate") -> bool:
        """Whether this rate is above `other` with the intervals apart (this one's low above the other's high)."""
        return self.interval[0] > other.interval[1]

    def to_json(self) -> dict[str, float | int]:
        """{wins, games, rate, low, high}, rates rounded to 4 places."""
        low, high = self.interval
        return {"wins": self.wins, "games": self.games, "rate": round(self.value, 4), "low": round(low, 4),
                "high": round(high, 4)}

    def text(self) -> str:
        """`73.4% [72.5, 74.3]`."""
        low, high = self.interval
        return f"{100 * self.value:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for `wins` successes in `games` trials ((0, 1) with no trials)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
