"""Secret Hitler engine facts beyond single scenarios: tables, options, phases, codes, chance odds, shortcuts."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from types import MappingProxyType

import pytest

from companion.games import CHANCE, LogEntry, Outcome, Refusal, get_rules
from companion.games.contract import COMMON_CODES
from companion.games.log import Log
from companion.games.playout import random_playout
from companion.games.secret_hitler.state import POWERS, ROLE_MIX, Phase, Power, State, evolve
from companion.games.secret_hitler.views import LOG_WINDOW

RULES = get_rules("secret_hitler")
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "secret_hitler"


def test_role_mix_table() -> None:
    assert dict(ROLE_MIX) == {5: (3, 1, 1), 6: (4, 1, 1), 7: (4, 2, 1), 8: (5, 2, 1), 9: (5, 3, 1), 10: (6, 3, 1)}
    for seats, (libs, fascists, hitlers) in ROLE_MIX.items():
        deal = RULES.sample_chance(RULES.initial_state(seats), random.Random(seats))
        assert Counter(deal["roles"]) == {"liberal": libs, "fascist": fascists, "hitler": hitlers}
        assert 0 <= deal["first_president"] < seats


def test_power_table() -> None:
    small = [None, None, None, Power.PEEK, Power.EXECUTE, Power.EXECUTE]
    medium = [None, None, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE]
    large = [None, Power.INVESTIGATE, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE]
    assert {n: list(p) for n, p in POWERS.items()} == {5: small, 6: small, 7: medium, 8: medium, 9: large, 10: large}


def test_rebalance_option_is_checked() -> None:
    with pytest.raises(ValueError, match="rebalance"):
        RULES.initial_state(7, {"rebalance": "yes"})
    with pytest.raises(ValueError, match="rebalance"):
        RULES.initial_state(7, {"rebalance": 1})
    assert RULES.view(RULES.initial_state(7, {"rebalance": True}))["draw_pile"] == 16


def test_every_phase_and_log_code_is_documented_and_reached() -> None:
    seen: set[str] = set()
    logged: set[str] = set()
    rng = random.Random(4)
    for seats in range(5, 11):
        for _ in range(40):
            playout = random_playout(RULES, seats, rng)
            state = RULES.initial_state(seats)
            for action in playout.actions:
                seen.add(RULES.phase(state))
                state = RULES.apply(state, action)
            seen.add(RULES.phase(state))
            logged.update(e.code for e in state.log)
    assert seen == set(RULES.phases) == {p.value for p in Phase}
    assert logged == set(RULES.log_codes)


def test_every_own_code_is_exercised_by_a_scenario() -> None:
    refused = set()
    for path in SCENARIOS.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            record = json.loads(line)
            if "refuse" in record:
                refused.add(record["code"])
    assert set(RULES.own_codes) <= refused
    assert refused <= set(RULES.codes)


def test_sampled_draws_follow_the_pile() -> None:
    """Three tiles from the fresh 6 L / 11 F pile: expected L = 3 * 6 / 17."""
    state = RULES.initial_state(5)
    for action in ({"type": "deal", "seat": CHANCE, "roles": ["liberal"] * 3 + ["fascist", "hitler"],
                    "first_president": 0},
                   {"type": "nominate", "seat": 0, "target": 1}):
        state = RULES.apply(state, action)
    for seat in range(5):
        state = RULES.apply(state, {"type": "vote", "seat": seat, "vote": "ja"})
    rng = random.Random(7)
    counts = Counter(RULES.sample_chance(state, rng)["policies"].count("L") for _ in range(6000))
    mean = sum(k * n for k, n in counts.items()) / 6000
    assert abs(mean - 18 / 17) < 0.04
    # P(3 L) = C(6,3) / C(17,3) = 20 / 680
    assert abs(counts[3] / 6000 - 20 / 680) < 0.01


def some_states() -> list[State]:
    """States of every phase (some with votes cast, some with dead seats) from random games."""
    found = []
    rng = random.Random(3)
    for seats in (5, 6, 7, 10):
        for _ in range(6):
            playout = random_playout(RULES, seats, rng)
            state = RULES.initial_state(seats)
            for action in playout.actions:
                found.append(state)
                state = RULES.apply(state, action)
            found.append(state)
    return found


def variants(state: State) -> list[object]:
    """Well-formed and malformed actions of every type the shortcuts handle, from right and wrong seats."""
    out: list[object] = []
    seats = (-1, 0, 1, 4, 9, 10, True, "1", None, 2.0)
    for seat in seats:
        out += [{"type": "vote", "seat": seat, "vote": v} for v in ("ja", "nein", "JA", True, None)]
        out += [{"type": "nominate", "seat": seat, "target": t} for t in (0, 3, -1, 10, True, None)]
        out += [{"type": k, "seat": seat, "policy": p} for k in ("discard", "enact") for p in ("L", "F", "X", 1)]
    for seat in (-1, 0, True, None):
        for pols in (["L"], ["F"], ["L", "F", "F"], ["F", "F", "F"], ["L", "L", "L"], ["L", "X", "F"], [], "LFF",
                     ("L", "F", "F"), ["L", "F"]):
            out.append({"type": "draw", "seat": seat, "policies": pols})
    out += [{"type": "vote", "seat": 2, "vote": "ja", "extra": 1}, {"type": "vote", "seat": 2},
            {"type": "nominate", "seat": state.president}, {"type": "enact", "seat": state.chancellor},
            {"type": "discard", "seat": state.president, "policy": "F", "extra": [1]}]
    return out


def test_prechecked_actions_match_the_general_path() -> None:
    """Actions SecretHitler._prechecked lets past the kit's checks give exactly what the checks give, result
    or refusal code (and public flag); the precheck says yes only to actions the checks accept."""
    general = copy.copy(RULES)
    general._has_precheck = False  # type: ignore[misc]  # this instance takes the kit's checks every time
    compared = applied = prechecked = 0
    for state in some_states()[::15]:
        for action in variants(state):
            results = []
            for rules in (RULES, general):
                try:
                    results.append(rules.apply(state, action))
                except Refusal as exc:
                    results.append((exc.code, exc.public))
            assert results[0] == results[1], action
            if RULES._prechecked(state, action):
                prechecked += 1
                assert not (isinstance(results[0], tuple) and results[0][0] in COMMON_CODES), \
                    f"prechecked, yet the kit's checks refuse it: {action}"
            compared += 1
            applied += not isinstance(results[0], tuple)
    assert compared > 20000 and applied > 100 and prechecked > 100, (compared, applied, prechecked)


IMMUTABLE_ATOMS = (int, str, bool, type(None), Phase)


def assert_deeply_immutable(value: object) -> None:
    """Only immutable values: what State.__deepcopy__ relies on to share them."""
    if isinstance(value, IMMUTABLE_ATOMS):
        return
    if isinstance(value, (tuple, frozenset, Log)):
        for item in value:
            assert_deeply_immutable(item)
    elif isinstance(value, LogEntry):
        assert isinstance(value.params, MappingProxyType)
        assert value.to is None or isinstance(value.to, frozenset)
        for item in value.params.values():
            assert_deeply_immutable(item)
    elif isinstance(value, Outcome):
        assert isinstance(value.winners, frozenset)
    else:
        raise AssertionError(f"mutable value in the state: {value!r}")


def test_state_is_deeply_immutable() -> None:
    rng = random.Random(9)
    for seats in range(5, 11):
        playout = random_playout(RULES, seats, rng)
        state = RULES.initial_state(seats)
        for action in playout.actions:
            state = RULES.apply(state, action)
            for name in State.__dataclass_fields__:
                assert_deeply_immutable(getattr(state, name))


def test_view_log_is_the_latest_window() -> None:
    playout = random_playout(RULES, 10, random.Random(2))
    state = RULES.initial_state(10)
    for action in playout.actions[:-1]:
        state = RULES.apply(state, action)
    public = [e for e in state.log if e.to is None]
    assert len(public) > LOG_WINDOW
    log = RULES.view(state)["log"]
    assert [e["code"] for e in log] == [e.code for e in public[-LOG_WINDOW:]]


def test_views_are_fresh_copies() -> None:
    """Changing a returned view never changes the state."""
    playout = random_playout(RULES, 7, random.Random(1))
    state = RULES.initial_state(7)
    for action in playout.actions[:30]:
        state = RULES.apply(state, action)
    before = RULES.view(state, 0)
    view = RULES.view(state, 0)
    for entry in view["log"]:
        entry["params"].clear()
    view["alive"].clear()
    assert RULES.view(state, 0) == before


PUBLIC_FIELDS = {"phase", "president", "chancellor", "liberal_policies", "fascist_policies", "election_tracker",
                 "alive", "draw_pile", "discard_pile", "voted", "votes", "term_limited", "veto_unlocked", "log"}
SEAT_FIELDS = {"role", "party", "known", "hand", "peek", "investigations"}


def test_view_fields_and_types() -> None:
    """Every field docs/RULES.md lists, per-seat fields as lists indexed by seat."""
    playout = random_playout(RULES, 8, random.Random(5))
    state = RULES.initial_state(8)
    for action in playout.actions[:60]:
        state = RULES.apply(state, action)
    public = RULES.view(state)
    assert PUBLIC_FIELDS <= set(public) and not SEAT_FIELDS & set(public)
    for name in ("alive", "voted", "votes", "investigated"):
        assert isinstance(public[name], list) and len(public[name]) == 8
    for name in ("liberal_policies", "fascist_policies", "election_tracker", "draw_pile", "discard_pile"):
        assert type(public[name]) is int
    assert public["term_limited"] == sorted(public["term_limited"])
    seat = RULES.view(state, 2)
    assert PUBLIC_FIELDS | SEAT_FIELDS <= set(seat)
    assert len(seat["known"]) == 8 and len(seat["investigations"]) == 8
    assert all(set(entry) == {"code", "params"} for entry in seat["log"])


def test_evolve_refuses_unknown_fields() -> None:
    state = RULES.initial_state(5)
    with pytest.raises(TypeError):
        evolve(state, no_such_field=1)
    assert evolve(state, tracker=2).tracker == 2 and state.tracker == 0
