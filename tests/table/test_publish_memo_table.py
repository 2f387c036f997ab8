"""A whole publish through the table core with the game's memo carried from tap to tap (undos and new games
included) says exactly what the same publish says with an empty memo: the snapshot, the LED scene, every
seat's prompt and what is sent to terminals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.bench.publish import table_states
from companion.config import demo_config
from companion.games.memo import Memo
from companion.games.registry import game_names, get_rules
from companion.table.core.outputs import publish
from companion.table.core.state import Context
from tests.games.test_publish_memo import walk
from tests.table.test_publish_prompts import _NoCards, _NoJournal


@pytest.mark.parametrize("game", game_names())
def test_a_publish_with_the_carried_memo_equals_one_with_an_empty_memo(game: str) -> None:
    rules = get_rules(game)
    cfg = demo_config()
    ctx = Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(3), boot="test",
                  reader_zones=cfg.reader_zones())
    first = rules.initial_state(rules.max_seats)
    table = table_states(game, rules.max_seats, [first], ctx)[0]
    for step, state in enumerate(walk(game, 11, 400)):
        assert table.session is not None
        session = replace(table.session, state=state, seats=rules.seat_count(state))  # the memo carries on
        table = replace(table, session=session)
        warm, warm_effects = publish(table, ctx)
        cold, cold_effects = publish(replace(table, session=replace(session, memo=Memo())), ctx)
        assert warm_effects == cold_effects, f"{game} step {step}: what the publish sends"
        assert warm.prompts == cold.prompts and warm.ballots == cold.ballots, f"{game} step {step}: prompts"
        table = warm
    assert table.session is not None and len(table.session.memo) > 0
