"""Hidden information: twin games differing only in hidden facts show equal public views; seat views show
only what a seat may know."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import CHANCE, Refusal, get_rules
from companion.games.playout import random_playout
from tests.games.harness import assert_same_public_views

RULES = get_rules("secret_hitler")
SEATS = range(5, 11)
SEEDS = range(12)


def actions_of(seats: int, seed: int) -> list[dict[str, Any]]:
    """The actions of one random game."""
    return list(random_playout(RULES, seats, random.Random(seed)).actions)


def common_prefix(seats: int, a: list[dict], b: list[dict]) -> int:
    """How many leading steps both games take while neither is over nor refuses the step."""
    sa, sb = RULES.initial_state(seats), RULES.initial_state(seats)
    for step, (x, y) in enumerate(zip(a, b)):
        try:
            sa, sb = RULES.apply(sa, x), RULES.apply(sb, y)
        except Refusal:
            return step
        if RULES.outcome(sa) or RULES.outcome(sb):
            return step
    return min(len(a), len(b))


@pytest.mark.parametrize("seats", SEATS)
def test_twin_deals_differing_only_in_roles(seats: int) -> None:
    checked = 0
    for seed in SEEDS:
        actions = actions_of(seats, seed)
        roles = list(actions[0]["roles"])
        other = roles[:]
        while other == roles:
            random.Random(seed).shuffle(other)
        twin = [dict(actions[0], roles=other)] + actions[1:]
        n = common_prefix(seats, actions, twin)
        assert_same_public_views(RULES, seats, None, actions[:n], twin[:n])
        checked += n
    assert checked > 50 * len(SEEDS)


def vote_rounds(actions: list[dict]) -> list[tuple[int, int]]:
    """(first, last) indexes of each round of votes."""
    rounds, start = [], None
    for i, a in enumerate(actions):
        if a["type"] == "vote" and start is None:
            start = i
        if a["type"] != "vote" and start is not None:
            rounds.append((start, i - 1))
            start = None
    return rounds


@pytest.mark.parametrize("seats", SEATS)
def test_twin_votes_before_the_reveal(seats: int) -> None:
    """Until the last vote is in, different votes leave the public view unchanged."""
    checked = 0
    for seed in SEEDS[:4]:
        actions = actions_of(seats, seed)
        for first, last in vote_rounds(actions)[:6]:
            flipped = [
                dict(a, vote="nein" if a["vote"] == "ja" else "ja") if first <= i < last else a
                for i, a in enumerate(actions[:last])
            ]
            assert_same_public_views(RULES, seats, None, actions[:last], flipped)
            checked += 1
    assert checked >= 16


def alternative_sessions(actions: list[dict]) -> list[tuple[int, list[str], str, str]]:
    """Sessions (draw index) that ended with an enactment, with every other draw that could enact the same."""
    found = []
    for i in range(len(actions) - 2):
        draw, discard, enact = actions[i:i + 3]
        if draw["type"] == "draw" and len(draw["policies"]) == 3 and discard["type"] == "discard" \
                and enact["type"] == "enact":
            for x in "LF":
                for y in "LF":
                    alt = sorted([enact["policy"], x, y])
                    if alt != sorted(draw["policies"]):
                        found.append((i, alt, x, y))
    return found


@pytest.mark.parametrize("seats", SEATS)
def test_twin_draws_and_discards(seats: int) -> None:
    """Different tiles drawn and discarded, the same policy enacted: equal public views."""
    checked = 0
    for seed in SEEDS[:6]:
        actions = actions_of(seats, seed)
        for i, alt, x, _ in alternative_sessions(actions)[:8]:
            twin = list(actions)
            twin[i] = dict(actions[i], policies=alt)
            twin[i + 1] = dict(actions[i + 1], policy=x)
            n = common_prefix(seats, actions, twin)
            if n <= i + 2:
                continue  # the pile could not have held the alternative draw
            assert_same_public_views(RULES, seats, None, actions[:n], twin[:n])
            checked += 1
    assert checked >= 10


def allowed_knowledge(roles: list[str], seat: int, other: int) -> bool:
    """Whether `seat` may know the role of `other` while the game runs."""
    if seat == other:
        return True
    mine, theirs = roles[seat], roles[other]
    if mine == "fascist":
        return theirs in ("fascist", "hitler")
    if mine == "hitler" and len(roles) <= 6:
        return theirs == "fascist"
    return False


@pytest.mark.parametrize("seats", SEATS)
def test_seat_views_show_only_what_the_seat_may_know(seats: int) -> None:
    for seed in SEEDS[:6]:
        rng = random.Random(seed)
        state = RULES.initial_state(seats)
        investigated: set[tuple[int, int]] = set()
        while RULES.to_act(state):
            roles = list(state.roles)
            public = RULES.view(state)
            assert "roles" not in public and "hand" not in public and "peek" not in public
            for seat in range(seats):
                view = RULES.view(state, seat)
                if not roles:
                    assert view["known"] == [None] * seats and view["role"] is None
                    continue
                assert view["role"] == roles[seat]
                assert view["party"] == ("liberal" if roles[seat] == "liberal" else "fascist")
                for other, known in enumerate(view["known"]):
                    if allowed_knowledge(roles, seat, other):
                        assert known == roles[other]
                    else:
                        assert known is None
                for other, party in enumerate(view["investigations"]):
                    assert (party is not None) == ((seat, other) in investigated)
                holder = state.president if public["phase"] == "discard" else state.chancellor
                if view["hand"]:
                    assert public["phase"] in ("discard", "enact", "veto_reply") and seat == holder
            acting = RULES.to_act(state)
            if acting == frozenset({CHANCE}):
                action = RULES.sample_chance(state, rng)
            else:
                action = rng.choice(RULES.legal_actions(state, rng.choice(sorted(acting))))
            if action["type"] == "investigate":
                investigated.add((action["seat"], action["target"]))
            state = RULES.apply(state, action)
        over = RULES.view(state, 0)
        assert over["known"] == list(state.roles) and RULES.view(state)["roles"] == list(state.roles)


@pytest.mark.parametrize("seats", (5, 6))
def test_twin_peeks(seats: int) -> None:
    """Different tiles shown by a peek: equal public views up to the draw that must match them."""
    checked = 0
    for seed in range(40):
        actions = actions_of(seats, seed)
        peeks = [i for i, a in enumerate(actions) if a["type"] == "peek"]
        for i in peeks:
            for alt in (["L", "L", "F"], ["F", "F", "F"], ["F", "L", "F"]):
                if sorted(alt) == sorted(actions[i]["policies"]):
                    continue
                twin = list(actions)
                twin[i] = dict(actions[i], policies=alt)
                n = common_prefix(seats, actions, twin)
                if n <= i:
                    continue  # the pile could not have held those tiles
                assert_same_public_views(RULES, seats, None, actions[:n], twin[:n])
                checked += 1
    assert checked >= 5


def test_refusals_name_no_tiles() -> None:
    """A refused draw, peek or enactment says why by code and a fixed message, never which tiles were read."""
    messages: dict[str, set[str]] = {}
    combos = [[a, b, c] for a in "LF" for b in "LF" for c in "LF"]
    for seats in (5, 6, 10):
        for seed in range(8):
            state = RULES.initial_state(seats)
            for action in actions_of(seats, seed):
                if state.phase.value in ("draw", "peek"):
                    for combo in combos:
                        try:
                            RULES.apply(state, {"type": state.phase.value, "seat": CHANCE, "policies": combo})
                        except Refusal as exc:
                            messages.setdefault(exc.code, set()).add(exc.message)
                if state.phase.value == "enact":
                    for policy in "LF":
                        try:
                            RULES.apply(state, {"type": "enact", "seat": state.chancellor, "policy": policy})
                        except Refusal as exc:
                            messages.setdefault(exc.code, set()).add(exc.message)
                state = RULES.apply(state, action)
    assert {"impossible_draw", "policy_not_in_hand"} <= set(messages)
    assert all(len(texts) == 1 for texts in messages.values()), messages


@pytest.mark.parametrize("seats", (5, 7, 10))
def test_liberal_seat_view_ignores_the_other_roles(seats: int) -> None:
    """A liberal's whole view is the same whatever the other seats were dealt, until it investigates someone."""
    checked = 0
    for seed in SEEDS[:6]:
        actions = actions_of(seats, seed)
        roles = list(actions[0]["roles"])
        me = roles.index("liberal")
        others = [r for i, r in enumerate(roles) if i != me]
        random.Random(seed).shuffle(others)
        twin_roles = others[:me] + ["liberal"] + others[me:]
        twin = [dict(actions[0], roles=twin_roles)] + actions[1:]
        a, b = RULES.initial_state(seats), RULES.initial_state(seats)
        for x, y in zip(actions, twin):
            if x["type"] == "investigate" and x["seat"] == me:
                break
            a, b = RULES.apply(a, x), RULES.apply(b, y)
            if RULES.outcome(a) or RULES.outcome(b):
                break
            assert RULES.view(a, me) == RULES.view(b, me), x
            checked += 1
    assert checked > 100
