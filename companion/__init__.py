"""Table companion: judges a physical board-game table by the rules of the game being played."""

__version__ = "0.1.0"
