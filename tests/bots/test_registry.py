"""`get_bot(game)` finds every registered game's bot by the game's id; any other name is refused in words."""

from __future__ import annotations

import pytest

from companion.bots import KINDS, Player, UnknownBot, get_bot, get_player, player_kinds, sides, team_player
from companion.errors import CompanionError
from companion.games.registry import game_names


def test_every_registered_game_has_a_bot() -> None:
    missing = []
    for game in game_names():
        try:
            bot = get_bot(game)
        except UnknownBot as exc:
            missing.append(f"{game} ({exc.message})")
            continue
        assert isinstance(bot, Player) and bot.game == game and bot.kind == "bot"
    assert not missing, "games without a bot in companion/bots/: " + ", ".join(missing)


@pytest.mark.parametrize("name", ["chess", "", "secret_hitler ", "../games", None, 3])
def test_an_unknown_game_is_unknown_bot(name: object) -> None:
    with pytest.raises(UnknownBot) as caught:
        get_bot(name)  # type: ignore[arg-type]
    assert caught.value.code == "unknown_bot"
    assert isinstance(caught.value, LookupError) and isinstance(caught.value, CompanionError)
    assert "not a game of this table" in caught.value.message


@pytest.mark.parametrize("game", game_names())
def test_every_kind_of_player(game: str) -> None:
    assert player_kinds(game)[:2] == ["bot", "random"]
    for kind in player_kinds(game):
        player = get_player(game, kind)
        assert player.game == game and kind in KINDS
    with pytest.raises(UnknownBot) as caught:
        get_player(game, "genius")
    assert caught.value.code == "unknown_bot" and "genius" in caught.value.message


def test_the_trust_baseline_is_secret_hitlers_only() -> None:
    assert get_player("secret_hitler", "trust").kind == "trust"
    for game in game_names():
        if game != "secret_hitler":
            with pytest.raises(UnknownBot):
                get_player(game, "trust")


def test_teams_only_where_the_game_deals_them() -> None:
    assert sides("secret_hitler") == ("liberal", "fascist")
    bot, trust = get_bot("secret_hitler"), get_player("secret_hitler", "trust")
    assert team_player("secret_hitler", {"liberal": bot, "fascist": trust}).kind == "bot/trust"
    for game in game_names():
        if not sides(game):
            with pytest.raises(UnknownBot):
                team_player(game, {"liberal": get_bot(game)})
