"""A bot decides only from what its seat may know: change any hidden fact its view does not show, and every
decision stays the same.

For every game, seeded games are played with the bot in one seat and random players elsewhere (game A).
Then twin games (B) replay A while changing, now and then, something the bot cannot see: a chance action
drawn anew or with two of its values swapped between hands or seats (another deal of the roles, other tiles
drawn by another president, other cards in another hand), or another seat's different secret choice. A
change is kept only if the bot's view and legal actions stay exactly A's up to its next decision; when a
later step would show the bot a difference (a vote revealed) or cannot be taken, the twin drops the
difference (it continues from A's state there), so the bot is never shown anything A did not show it. At every decision the bot makes in B, its
state differs from A's in what it cannot see, and it must choose exactly what it chose in A from the same
seed. The test counts those decisions and requires many per game, so it cannot pass by changing nothing.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Iterator

import pytest

from companion.bots import Seated, get_bot
from companion.games import CHANCE, Refusal, Rules
from companion.games.registry import game_names
from tests.bots.playing import bot_against, match, seat_counts

TWINS = 3
"""Twin games per played game."""
TRY_CHANGE = 0.3
"""How often a twin tries to change a step that is not the bot's."""
LOOKAHEAD = 40
"""How many of A's next steps a change is tried against before it is kept."""
MIN_CHECKED = 25
"""Decisions under changed hidden facts each game must reach over its seeds (the measured counts are many
times more)."""


def swapped(action: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Variants of a chance action with two values swapped: two items of a list field, or an item between two
    lists of a list-of-lists field (two hands, two seats' roles)."""
    for key, value in action.items():
        if key in ("type", "seat") or not isinstance(value, list) or len(value) < 2:
            continue
        if all(isinstance(v, list) for v in value):
            pairs = [(i, j) for i in range(len(value)) for j in range(len(value)) if i < j and value[i] and value[j]]
            rng.shuffle(pairs)
            for i, j in pairs[:4]:
                out = copy.deepcopy(action)
                a, b = rng.randrange(len(value[i])), rng.randrange(len(value[j]))
                out[key][i][a], out[key][j][b] = value[j][b], value[i][a]
                yield out
        else:
            for _ in range(4):
                i, j = rng.sample(range(len(value)), 2)
                out = copy.deepcopy(action)
                out[key][i], out[key][j] = value[j], value[i]
                yield out


def alternatives(rules: Rules, state: Any, action: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Other actions the same actor could have taken here."""
    actor = action.get("seat")
    if actor == CHANCE:
        for _ in range(3):
            yield rules.sample_chance(state, rng)
        yield from swapped(action, rng)
    elif actor in rules.to_act(state):
        legal = rules.legal_actions(state, actor)
        for choice in rng.sample(legal, min(4, len(legal))):
            yield dict(choice)


def unseen(rules: Rules, state: Any, twin: Any, seat: int) -> bool:
    """Whether `seat` is shown the same in both states: its view, who is to act, and its legal actions (a bot's
    input too: Boss's Wallet offers only the extra IDs nobody took, which the view counts but does not name)."""
    return (rules.view(state, seat) == rules.view(twin, seat) and rules.to_act(state) == rules.to_act(twin)
            and rules.legal_actions(state, seat) == rules.legal_actions(twin, seat))


def holds(rules: Rules, actions: Any, states: list[Any], start: int, twin: Any, seat: int,
          decisions: dict[int, int]) -> bool:
    """Whether A's next actions, up to the bot's next decision, still apply to the twin without showing the bot
    a difference (a change that would be undone before the bot decides again is not worth making)."""
    for index in range(start, min(len(actions), start + LOOKAHEAD)):
        if index in decisions:
            return True
        try:
            twin = rules.apply(twin, actions[index])
        except Refusal:
            return False
        if not unseen(rules, states[index + 1], twin, seat):
            return False
    return True


def twin_checks(game: str, seats: int, seed: int) -> int:
    """Play game A and its twins; assert every twin decision equals A's; return how many were made in a state
    that differed from A's."""
    bot_seat = seed % seats
    rules, played = match(game, bot_against(game, seats, bot_seat), seed)
    states = [rules.initial_state(seats)]
    for action in played.actions:
        states.append(rules.apply(states[-1], action))
    seeds = {move.index: move.seed for move in played.moves if move.seat == bot_seat}
    checked = 0
    for twin_no in range(TWINS):
        rng = random.Random(seed * 1000 + twin_no)
        state, seated = states[0], Seated.sit(get_bot(game), bot_seat)
        for index, action in enumerate(played.actions):
            if index in seeds:
                decision, seated = seated.decide(rules, state, seeds[index])
                assert dict(decision.action) == action, (
                    f"{game}/{seats} seed {seed}: the bot in seat {bot_seat} chose {decision.action} where A chose "
                    f"{action}, from the same view and seed; what differs is hidden from it")
                checked += state != states[index]
                state = rules.apply(state, decision.action)
                if not unseen(rules, states[index + 1], state, bot_seat):
                    state = states[index + 1]  # its own action would show the difference (the last vote, say)
                continue
            changed = None
            if rng.random() < TRY_CHANGE:
                for other in alternatives(rules, state, action, rng):
                    if other == action:
                        continue
                    try:
                        after = rules.apply(state, other)
                    except Refusal:
                        continue
                    if unseen(rules, states[index + 1], after, bot_seat) and holds(
                            rules, played.actions, states, index + 1, after, bot_seat, seeds):
                        changed = after
                        break
            if changed is None:
                try:
                    changed = rules.apply(state, action)
                except Refusal:
                    changed = states[index + 1]  # A's step cannot be taken in the twin
                if not unseen(rules, states[index + 1], changed, bot_seat):
                    changed = states[index + 1]  # the difference would now show
            state = changed
    return checked


@pytest.mark.parametrize("game", game_names())
def test_hidden_facts_never_change_a_decision(game: str) -> None:
    checked = 0
    for seats in seat_counts(game):
        for seed in range(2):
            checked += twin_checks(game, seats, seed)
    assert checked >= MIN_CHECKED, f"{game}: only {checked} decisions were made under changed hidden facts"

