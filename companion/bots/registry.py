"""Players by game and kind: the bot of each game lives in `companion.bots.<game>`, found by the game's id."""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.bots.base import Player, RandomPlayer, UnknownBot
from companion.games.registry import game_names

KINDS = ("bot", "random", "trust")
"""Every kind of player `get_player` knows: the game's bot and the two baselines it is measured against."""


def _module(game: str) -> ModuleType:
    if not isinstance(game, str) or game not in game_names():
        raise UnknownBot(message=f"no bot for {game!r}: not a game of this table ({', '.join(game_names())})",
                         params={"game": str(game)})
    try:
        return importlib.import_module(f"companion.bots.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.bots.{game}":
            raise
        raise UnknownBot(message=f"the game {game!r} has no bot yet (companion/bots/{game})",
                         params={"game": game}) from None


def get_bot(game: str) -> Player:
    """The bot of a registered game (its module's `BOT`); UnknownBot (also a LookupError) for any other name."""
    bot = getattr(_module(game), "BOT", None)
    if not isinstance(bot, Player):
        raise UnknownBot(message=f"companion.bots.{game} declares no BOT", params={"game": game})
    return bot


def get_player(game: str, kind: str) -> Player:
    """A player of `kind` for `game`: `bot`, `random` (any legal action) or a baseline the game's bot module
    declares in `BASELINES` (Secret Hitler's `trust`); UnknownBot for anything else."""
    if kind == "bot":
        return get_bot(game)
    module = _module(game)
    if kind == "random":
        return RandomPlayer(game)
    baseline = dict(getattr(module, "BASELINES", {})).get(kind)
    if baseline is None:
        raise UnknownBot(message=f"no {kind!r} player for {game} (known: "
                                 f"{', '.join(player_kinds(game))})", params={"game": game, "kind": str(kind)})
    return baseline


def player_kinds(game: str) -> list[str]:
    """The kinds of player `get_player` gives for this game."""
    return ["bot", "random", *dict(getattr(_module(game), "BASELINES", {}))]


def sides(game: str) -> tuple[str, ...]:
    """The teams a game's bot module can seat a player for (`by_side`); () where seats play for themselves."""
    return tuple(getattr(_module(game), "SIDES", ()))


def team_player(game: str, players: "dict[str, Player]") -> Player:
    """One player for every seat that plays `players[team]` for the team the seat is dealt into."""
    by_side = getattr(_module(game), "by_side", None)
    if by_side is None or set(players) != set(sides(game)):
        raise UnknownBot(message=f"{game} has no teams to seat players by", params={"game": game})
    return by_side(players)
