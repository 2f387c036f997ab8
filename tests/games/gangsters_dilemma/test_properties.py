"""Properties over random games: nothing negative, loot and money conserved but for the bank, no leaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.games import CHANCE
from companion.games.gangsters_dilemma.board import LOOT, TRADES
from companion.games.playout import random_playout
from tests.games.gangsters_dilemma.helpers import HARD, RULES, play, setup_action
from tests.games.harness import assert_same_public_views, check_playout

SEATS = range(3, 8)


def totals(state: Any) -> tuple[list[int], int]:
    """Loot per kind held by all seats, and money held by seats and locations."""
    loot = [sum(p.loot[k] for p in state.players) for k in range(4)]
    return loot, sum(p.money for p in state.players) + sum(state.money)


def bank_flows(state: Any, entries: list[Any]) -> tuple[list[int], int]:
    """What the bank paid (+) or took (-) according to this step's log entries."""
    loot, money = [0, 0, 0, 0], 0
    price = state.config.market_price
    for e in entries:
        p = e.params
        if e.code == "success" and p["loot"] is not None:
            loot[LOOT.index(p["loot"])] += len(p["seats"])
        elif e.code == "traded" and p["trade"] != "none":
            slot, tokens = TRADES[p["trade"]]
            loot[slot] += tokens
            money -= tokens * price
        elif e.code == "fulfilled":
            needs = list(state.config.by_id[p["demand"]].needs)
            if p["substitute"] is not None:
                needs[LOOT.index(p["substitute"])] -= 1
                if p["pay"] == "liquor":
                    needs[3] += 1
                else:
                    money -= 2 if state.players[p["seat"]].character == "right_hand" else 3
            loot = [a - b for a, b in zip(loot, needs)]
        elif e.code == "enforcer_paid":
            money += p["money"]
        elif (e.code == "round" and p["round"] > 1) or e.code == "game_over":
            money += state.locations  # +$1 on every location at the end of a round
    return loot, money


@pytest.mark.parametrize("seats", SEATS)
def test_nothing_negative_and_conservation(seats: int) -> None:
    rng = random.Random(seats)
    for _ in range(8):
        playout = random_playout(RULES, seats, rng)
        state = RULES.initial_state(seats)
        for action in playout.actions:
            before = state
            state = RULES.apply(state, action)
            for p in state.players:
                assert p.money >= 0 and min(p.loot) >= 0, (action, p)
            assert min(state.money) >= 0
            new = list(state.log[len(before.log):])
            flows = bank_flows(state, new)
            (l0, m0), (l1, m1) = totals(before), totals(state)
            if before.phase == "setup":
                continue
            assert [b - a for a, b in zip(l0, l1)] == flows[0], (action, [e.code for e in new])
            assert m1 - m0 == flows[1], (action, [e.code for e in new])


def _still_hidden(before: Any, after: Any) -> bool:
    """Whether a secret choice left the choices unrevealed (the group is still collecting)."""
    if before.phase == "plan":
        return after.phase in ("plan", "peek") and after.round == before.round
    return after.phase == "respond" and after.current == before.current


@pytest.mark.parametrize("seats", SEATS)
def test_public_views_ignore_unrevealed_choices(seats: int) -> None:
    """Change one secret choice that is not the last of its group: every public view up to the reveal is equal."""
    rng = random.Random(100 + seats)
    checked = 0
    for _ in range(3):
        actions = list(random_playout(RULES, seats, rng).actions)
        states = [RULES.initial_state(seats)]
        for a in actions:
            states.append(RULES.apply(states[-1], a))
        # A sample of positions: each check replays the game's prefix with views at every step.
        for i in sorted(rng.sample(range(len(actions)), min(len(actions), 12))):
            a, before = actions[i], states[i]
            if before.phase not in ("plan", "respond") or a["seat"] == CHANCE or a["type"] == "peek":
                continue
            if not _still_hidden(before, states[i + 1]):
                continue
            end = next(j for j in range(i + 1, len(actions)) if not _still_hidden(states[j], states[j + 1])
                       and actions[j]["type"] not in ("peek", "reveal_patrol"))
            between = actions[i + 1:end]
            if a["type"] == "patrol" and any(b["type"] == "reveal_patrol" for b in between):
                continue  # the revealed patrol must match the patrols chosen
            others = [b for b in RULES.legal_actions(before, a["seat"]) if b["type"] == a["type"] and b != a]
            if not others:
                continue
            altered = actions[:i] + [rng.choice(others)] + between
            assert_same_public_views(RULES, seats, None, actions[:end], altered)
            checked += 1
    assert checked >= 4


def test_public_views_ignore_patrols_and_the_lookouts_peek() -> None:
    chars = ["lookout", "bootlegger", "lady", "hitman"]
    base = [setup_action(0, chars[::-1], ["sample-01", "sample-02", "sample-03"])]
    seat_lookout = chars[::-1].index("lookout")
    a = base + [{"type": "patrol", "seat": 0, "locations": [1, 2]}, {"type": "peek", "seat": seat_lookout},
                {"type": "reveal_patrol", "seat": CHANCE, "location": 2, "target": seat_lookout},
                {"type": "choose", "seat": 1, "location": 3}]
    b = base + [{"type": "patrol", "seat": 0, "locations": [4, 5]}, {"type": "peek", "seat": seat_lookout},
                {"type": "reveal_patrol", "seat": CHANCE, "location": 5, "target": seat_lookout},
                {"type": "choose", "seat": 1, "location": 4}]
    assert_same_public_views(RULES, 4, None, a, b)
    sa, sb = play(4, None, a), play(4, None, b)
    assert RULES.view(sa, seat_lookout)["peek"] == 2 and RULES.view(sb, seat_lookout)["peek"] == 5
    for other in (0, 1, 2):
        if other != seat_lookout:
            assert RULES.view(sa, other)["peek"] is None
    assert "patrol_seen" not in json.dumps(RULES.view(sa)) and "patrol_seen" in json.dumps(RULES.view(sa, seat_lookout))


def test_the_elites_demands_stay_private() -> None:
    deck = HARD + [{"id": f"x{i}", "vp": 4, "needs": {"art": 1}} for i in range(4)]
    chars = ["elite", "lady", "hitman"]
    opts = {"demands": deck, "characters": ["elite", "lady", "hitman"]}
    rest = [{"type": "patrol", "seat": 1, "locations": [1, 2]}, {"type": "choose", "seat": 0, "location": 3}]
    a = [setup_action(1, chars, ["h1", "h2", "h3"], ["x0", "x1", "x2"])] + rest
    b = [setup_action(1, chars, ["h1", "h2", "h3"], ["x3", "x1", "h4"])] + rest
    assert_same_public_views(RULES, 3, opts, a, b)
    state = play(3, opts, a)
    public = json.dumps(RULES.view(state))
    assert not any(f'"x{i}"' in public for i in range(3))
    for seat in (1, 2):
        assert '"x0"' not in json.dumps(RULES.view(state, seat))
    mine = RULES.view(state, 0)
    assert mine["private_demands"] == ["x0", "x1", "x2"] and set(mine["demand_cards"]) >= {"x0", "x1", "x2"}
    assert RULES.view(state)["players"][0]["private_demand_count"] == 3


def test_private_log_entries_reach_their_seat_only() -> None:
    state = play(3, {"demands": HARD, "characters": []}, [
        setup_action(0, [None] * 3, ["h1", "h2", "h3"]),
        {"type": "patrol", "seat": 0, "locations": [1, 2]},
        {"type": "choose", "seat": 1, "location": 4},
    ])
    codes = lambda seat: [e["code"] for e in RULES.view(state, seat)["log"]]  # noqa: E731
    assert "chose" not in codes(None) and "patrolled" not in codes(None)
    assert "chose" in codes(1) and "patrolled" not in codes(1)
    assert "patrolled" in codes(0) and "chose" not in codes(0)
    assert [e for e in RULES.view(state, 1)["log"] if e["code"] == "chose"] == [
        {"code": "chose", "params": {"seat": 1, "location": 4}}]


@pytest.mark.parametrize(
    "options",
    [
        {"characters": [], "lone_gangster_may_bribe": True, "market_price": 2},
        {"characters": ["elite", "lookout", "hitman", "flapper", "lady", "bootlegger", "right_hand"]},
        {"demands": HARD + [{"id": f"e{i}", "vp": 4 + 3 * (i % 3), "needs": {"liquor": 1, "art": i % 2}}
                            for i in range(8)], "lone_gangster_may_bribe": True},
    ],
    ids=["no-characters", "seven-characters", "enrolled-deck"],
)
def test_playouts_with_house_rules(options: dict) -> None:
    """The shared harness over non-default options (the default options run in test_playouts)."""
    for seats in (3, 7):
        for seed in range(4):
            check_playout(RULES, seats, seed, options=options, try_every_legal=seed == 0)
