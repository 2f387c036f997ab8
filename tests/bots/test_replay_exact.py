"""A bot's randomness is a recorded input: given the journaled actions and each decision's seed, a replay
decides again exactly what the bot decided, from memory rebuilt out of the journal alone."""

from __future__ import annotations

import pytest

from companion.bots import Seated, get_bot
from tests.bots.playing import every_game_and_seats, match


@pytest.mark.parametrize(("game", "seats"), list(every_game_and_seats()))
def test_a_replay_redecides_every_bot_action(game: str, seats: int) -> None:
    bot = get_bot(game)
    rules, played = match(game, [bot] * seats, seed=seats)
    state = rules.initial_state(seats)
    moves = {move.index: move for move in played.moves}
    for index, action in enumerate(played.actions):
        move = moves.get(index)
        if move is not None:
            # a table restarted here knows only the journal: the actions so far and this decision's seed
            seated = Seated.sit(bot, move.seat).rebuild(rules, seats, None, played.actions[:index])
            decision, _ = seated.decide(rules, state, move.seed)
            assert dict(decision.action) == action, f"{game}: action {index} replayed differently"
            assert (decision.reason, dict(decision.params)) == (move.reason, dict(move.params))
        state = rules.apply(state, action)
    assert rules.outcome(state) == played.outcome


def test_another_seed_may_decide_otherwise() -> None:
    """The seed is really an input: over a game's decisions, other seeds change some of them."""
    bot = get_bot("gangsters_dilemma")
    rules, played = match("gangsters_dilemma", [bot] * 5, seed=1)
    state, changed = rules.initial_state(5), 0
    moves = {move.index: move for move in played.moves}
    for index, action in enumerate(played.actions):
        move = moves.get(index)
        if move is not None:
            seated = Seated.sit(bot, move.seat).rebuild(rules, 5, None, played.actions[:index])
            changed += dict(seated.decide(rules, state, move.seed + 1)[0].action) != action
        state = rules.apply(state, action)
    assert changed > 0
