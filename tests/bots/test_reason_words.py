"""Every reason a bot gives has words in both languages, naming only the params the bot sends."""

from __future__ import annotations

import copy

from companion.bots import get_bot
from companion.games.registry import game_names
from companion.web import texts


def test_every_reason_has_words_in_both_languages() -> None:
    needed = {f"games.{game}.bot_reasons.{code}" for game in game_names() for code in get_bot(game).reasons}
    assert not texts.missing(texts.all_texts(), needed)


def test_a_reason_naming_a_param_the_bot_never_sends_is_caught() -> None:
    data = copy.deepcopy(texts.all_texts())
    data["ko"]["games"]["secret_hitler"]["bot_reasons"]["nein_fascist_record"] = "반대: {target}."
    assert texts.placeholder_problems(data) == [
        "ko: games.secret_hitler.bot_reasons.nein_fascist_record names {target}, which its entries never carry"]
