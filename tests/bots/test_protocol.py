"""Every bot answers with one of the legal actions it was given, explains itself in its declared words, and
decides the same way from the same views and seed."""

from __future__ import annotations

import random

import pytest

from companion.bots import BadChoice, Decision, Player, Seated, get_bot
from companion.bots.base import checked
from companion.games import CHANCE, get_rules
from companion.games.playout import choose_action
from tests.bots.playing import every_game_and_seats, match


@pytest.mark.parametrize(("game", "seats"), list(every_game_and_seats()))
def test_all_bot_games_end_and_every_reason_is_declared(game: str, seats: int) -> None:
    bot = get_bot(game)
    for seed in range(2):
        rules, played = match(game, [bot] * seats, seed)
        assert played.outcome is not None, f"{game} with {seats} bots did not end"
        for move in played.moves:
            assert move.reason in bot.reasons, f"{game}: reason {move.reason!r} is not declared"
            assert set(move.params) == set(bot.reasons[move.reason]), (game, move.reason, move.params)


@pytest.mark.parametrize(("game", "seats"), list(every_game_and_seats()))
def test_choose_returns_one_of_the_legal_actions(game: str, seats: int) -> None:
    """`choose(view, legal_actions, rng)` from a fresh bot at random moments of random games."""
    rules, bot = get_rules(game), get_bot(game)
    rng = random.Random(seats)
    state = rules.initial_state(seats)
    asked = 0
    while rules.to_act(state) and asked < 40:
        acting = rules.to_act(state)
        if CHANCE not in acting and rng.random() < 0.3:
            seat = min(acting)
            legal = rules.legal_actions(state, seat)
            chosen = bot.choose(rules.view(state, seat), legal, random.Random(asked))
            assert any(chosen is action for action in legal)
            asked += 1
        state = rules.apply(state, choose_action(rules, state, rng))


def test_the_same_seed_and_views_give_the_same_decision() -> None:
    rules = get_rules("secret_hitler")
    _, played = match("secret_hitler", [get_bot("secret_hitler")] * 7, 3)
    again = match("secret_hitler", [get_bot("secret_hitler")] * 7, 3)[1]
    assert played.actions == again.actions and played.moves == again.moves
    assert rules.outcome(played.state) == rules.outcome(again.state)


class Cheat(Player[None]):
    """A broken bot: it invents an action."""

    game = "secret_hitler"

    def decide(self, view, legal_actions, rng, memory=None):  # type: ignore[no-untyped-def]
        return Decision({"type": "vote", "seat": 0, "vote": "maybe"})


def test_a_bot_that_invents_an_action_is_refused() -> None:
    rules = get_rules("secret_hitler")
    state = rules.initial_state(5)
    state = rules.apply(state, rules.sample_chance(state, random.Random(1)))
    seat = min(rules.to_act(state))
    with pytest.raises(BadChoice) as caught:
        Seated.sit(Cheat(), seat).decide(rules, state, 1)
    assert caught.value.code == "bot_bad_choice" and isinstance(caught.value, ValueError)
    legal = rules.legal_actions(state, seat)
    assert checked(Decision(dict(legal[0])), legal).action == legal[0]  # an equal copy is one of them too


def test_a_thief_with_none_left_in_supply_moves_those_on_the_board() -> None:
    """A game where the bot once sent all twelve thieves out, hoarded every card and then only ended its turns
    (the game never ended): now it carries its thieves together and takes chests."""
    from companion.bench.strength import Setup, play_chunk
    _, wins, played, _, unfinished = play_chunk((Setup("thief_of_baghdad", 2, seat_kind="bot"), 1, 276, 1))
    assert (wins, played, unfinished) == (1, 1, 0)
