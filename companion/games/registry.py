"""The game registry: names to engine modules, imported lazily."""

from __future__ import annotations

import importlib

from companion.games.rules import Rules

GAMES: dict[str, str] = {
    "secret_hitler": "companion.games.secret_hitler",
    "boss_wallet": "companion.games.boss_wallet",
    "gangsters_dilemma": "companion.games.gangsters_dilemma",
    "thief_of_baghdad": "companion.games.thief_of_baghdad",
    "mafia": "companion.games.mafia",
}
"""Game id -> module exposing `RULES` (a Rules instance); read-only."""


def game_names() -> list[str]:
    """Every registered game id."""
    return list(GAMES)


def get_rules(name: str) -> Rules:
    """The rules object for a game id; an unknown id raises ValueError."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(GAMES[name]).RULES
