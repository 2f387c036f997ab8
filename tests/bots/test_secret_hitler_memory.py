"""Secret Hitler's bot memory: what it folds from its views, and the beliefs it draws."""

from __future__ import annotations

import random

from companion.bots import Seated, get_bot
from companion.bots.secret_hitler.memory import Memory, observe, start
from companion.bots.window import new_entries
from companion.games import CHANCE, get_rules
from companion.games.playout import choose_action
from tests.bots.playing import bot_against, match


def test_new_entries() -> None:
    a, b, c, d = ({"code": x, "params": {}} for x in "abcd")
    assert new_entries([], [a, b]) == (a, b)
    assert new_entries([a, b], [a, b]) == ()
    assert new_entries([a, b], [a, b, c]) == (c,)
    assert new_entries([a, b, c], [b, c, d]) == (d,)
    assert new_entries([a, b, c], [c, d]) == (d,)
    assert new_entries([a, b], [c, d]) == (c, d)  # no overlap: all new (a window that restarted)


def test_the_folded_log_is_the_seats_whole_log() -> None:
    """Shown every state, a seat's memory of entries is every entry of the game it may read, in order."""
    rules = get_rules("secret_hitler")
    for seed in range(20):
        rng = random.Random(seed)
        state = rules.initial_state(7)
        seen, window = [], []
        while rules.to_act(state):
            state = rules.apply(state, choose_action(rules, state, rng))
            view = rules.view(state, 3)
            if view["phase"] != "game_over":
                seen += new_entries(window, view["log"])
                window = view["log"]
        readable = [{"code": e.code, "params": {k: list(v) if isinstance(v, tuple) else v
                                                 for k, v in e.params.items()}}
                    for e in state.log if e.to is None or 3 in e.to][:len(seen)]
        assert seen == readable


def test_between_two_decisions_the_window_never_overflows() -> None:
    """Looking only when asked to decide, a living seat still sees every entry: fewer than the window's ten
    are written between its decisions (it votes every round)."""
    for seed in range(30):
        rules, played = match("secret_hitler", bot_against("secret_hitler", 10, seed % 10), seed)
        state = rules.initial_state(10)
        window = None
        for action in played.actions:
            if action.get("seat") == seed % 10:
                log = rules.view(state, seed % 10)["log"]
                if window is not None and len(window) == 10:
                    assert any(window[k:] == log[:10 - k] for k in range(1, 10)) or window == log, seed
                window = log
            state = rules.apply(state, action)


def test_a_liberal_president_learns_what_its_chancellor_chose() -> None:
    memory = observe(start(0), {
        "phase": "nominate", "alive": [True] * 5, "role": "liberal", "known": ["liberal", None, None, None, None],
        "investigations": [None] * 5, "log": []})
    log = [{"code": "nominated", "params": {"president": 0, "chancellor": 2}},
           {"code": "votes", "params": {"votes": ["ja"] * 5, "passed": True, "election_tracker": 0}},
           {"code": "president_discard", "params": {"drew": ["L", "F", "F"], "policy": "F"}}]
    memory = observe(memory, {"phase": "enact", "alive": [True] * 5, "investigations": [None] * 5, "log": log})
    before = memory.belief[2]
    memory = observe(memory, {"phase": "nominate", "alive": [True] * 5, "investigations": [None] * 5,
                              "log": log + [{"code": "enacted", "params": {"policy": "F"}}]})
    assert memory.passed == () and memory.fascist_enacted == 1
    assert memory.belief[2] > 0.9 > before  # handed L+F, it enacted F
    assert memory.record[2] == memory.record[0] == "F"
    assert abs(sum(memory.belief) - 2) < 0.01  # two fascists among the other four


def test_observing_a_view_twice_changes_nothing() -> None:
    rules, bot = get_rules("secret_hitler"), get_bot("secret_hitler")
    rng = random.Random(5)
    state = rules.initial_state(7)
    seated = Seated.sit(bot, 2)
    while rules.to_act(state):
        if rules.to_act(state) != {CHANCE} and 2 in rules.to_act(state):
            seated = seated.seen(rules, state)
            assert seated.seen(rules, state).memory == seated.memory
        state = rules.apply(state, choose_action(rules, state, rng))
    assert isinstance(seated.memory, Memory) and seated.memory.role is not None
