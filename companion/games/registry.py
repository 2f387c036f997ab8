"""The game registry: every package under companion/games/ is a game, found by its name and imported lazily; its
`__init__.py` declares `GAME = Game(...)` (companion/games/README.md, "Adding a game")."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from companion.games.declaration import Game
    from companion.games.rules import Rules


def discover(folder: Path = Path(__file__).resolve().parent, package: str = __package__ or "companion.games"
             ) -> dict[str, str]:
    """Game id -> module, one per subpackage of `folder` (found without importing them), in name order."""
    return {m.name: f"{package}.{m.name}" for m in sorted(pkgutil.iter_modules([str(folder)]), key=lambda m: m.name)
            if m.ispkg}


GAMES: Mapping[str, str] = discover()
"""Game id -> its package, found once at import; read-only (tests add a game of their own with monkeypatch)."""


def game_names() -> list[str]:
    """Every registered game id."""
    return list(GAMES)


def get_game(name: str) -> Game:
    """A game's declaration by id; an unknown id raises ValueError, a package without `GAME` DeclarationError."""
    from companion.games.declaration import DeclarationError, Game

    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    game = getattr(importlib.import_module(GAMES[name]), "GAME", None)
    if not isinstance(game, Game) or game.id != name:
        raise DeclarationError(f"{GAMES[name]} must declare GAME = Game(...) with rules named {name!r}")
    return game


def get_rules(name: str) -> Rules:
    """The rules object for a game id; an unknown id raises ValueError."""
    return get_game(name).rules


def all_games() -> list[Game]:
    """Every registered game's declaration (imports every game package)."""
    return [get_game(name) for name in GAMES]
