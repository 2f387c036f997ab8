"""Over random games played through the API: the public endpoints never carry a seat's secrets, and a seat's
endpoint carries only that seat's view."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from companion.config import demo_config
from companion.games import CHANCE, game_names, get_rules
from companion.table.runtime import Runtime
from tests.web.pages.conftest import login, new_game

MAX_STEPS = 400


def keys_in(tree: Any) -> Iterator[str]:
    """Every dict key anywhere in a JSON tree."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield key
            yield from keys_in(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from keys_in(value)


def private_keys(rules: Any, state: Any, seats: int) -> set[str]:
    """Fields some seat's view has and the public view lacks (roles, hands, ...); a view naming its own
    viewer (`seat` equal to that seat) is no secret, and `seat` is public wherever seats are numbered."""
    public = rules.view(state, None)
    return {
        k
        for seat in range(seats)
        for k, v in rules.view(state, seat).items()
        if k not in public and not (k == "seat" and v == seat)
    }


def check_public(client: FlaskClient, runtime: Runtime, table_html: str) -> None:
    """/api/state is the engine's public view and nothing private; the table page carries no game data."""
    session = runtime.loop.session
    rules, state, seats = session.rules, session.state, session.seats
    body = client.get("/api/state").get_json()
    assert body["game"]["view"] == json.loads(json.dumps(rules.view(state, None)))
    if rules.outcome(state) is None:
        # the view itself is the engine's public view (above); around it nothing may carry a seat's field
        around = {**body, "game": {k: v for k, v in body["game"].items() if k != "view"}}
        leaked = private_keys(rules, state, seats) & (set(keys_in(around)) | set(body["game"]["view"]))
        assert not leaked, f"/api/state carries {leaked}"
        assert "seat_tokens" not in set(keys_in(body)) and "token" not in set(keys_in(body))
        view = body["game"]["view"]
        if isinstance(view.get("votes"), list) and view.get("phase") == "vote":
            assert all(v is None for v in view["votes"]), "a vote shows before the reveal"
    assert client.get("/").get_data(as_text=True) == table_html


def check_seat(client: FlaskClient, runtime: Runtime, tokens: list[str], seat: int) -> None:
    """A seat's endpoint is exactly that seat's view; its prompt info is part of it."""
    session = runtime.loop.session
    body = client.get(f"/api/seat/{tokens[seat]}").get_json()
    own = json.loads(json.dumps(session.rules.view(session.state, seat)))
    assert body["seat"] == seat and body["view"] == own
    info = (body.get("prompt") or {}).get("info") or {}
    assert all(own.get(k) == v for k, v in info.items()), "prompt info outside the seat's own view"


def play(client: FlaskClient, runtime: Runtime, game: str, seats: int, seed: int) -> int:
    """One random game through seat tokens, checking every step; returns the steps played."""
    csrf = login(client)
    client.post("/api/host/end_game", json={}, headers={"X-CSRF-Token": csrf})
    tokens = new_game(client, csrf, game=game, seats=seats)
    table_html = client.get("/").get_data(as_text=True)
    rng = random.Random(seed)
    steps = 0
    while steps < MAX_STEPS:
        runtime.loop.wait_idle()
        session = runtime.loop.session
        rules, state = session.rules, session.state
        check_public(client, runtime, table_html)
        acting = rules.to_act(state)
        if not acting:
            break
        assert acting != frozenset({CHANCE}), "digital mode samples chance itself"
        seat = rng.choice(sorted(acting))
        check_seat(client, runtime, tokens, seat)
        action = rng.choice(rules.legal_actions(state, seat))
        res = client.post("/api/action", json={"token": tokens[seat], "action": action})
        assert res.status_code == 200, (action, res.get_json())
        steps += 1
    for event in runtime.loop.bus.recent():
        assert "seat_tokens" not in set(keys_in(event.data)), event
    return steps


TABLE_SEATS = len(demo_config().seats)
"""Seats of the test table: a game that takes more plays at this many."""


def cases() -> list[tuple[str, int, int]]:
    out = [("tiny", 3, 1), ("tiny", 4, 2)]
    for game in game_names():
        rules = get_rules(game)
        out += [(game, rules.min_seats, 1), (game, min(rules.max_seats, TABLE_SEATS), 2)]
    return out


@pytest.mark.parametrize(("game", "seats", "seed"), cases(), ids=[f"{g}-{s}-{n}" for g, s, n in cases()])
def test_public_endpoints_never_carry_secrets(client: FlaskClient, runtime: Runtime, game: str, seats: int,
                                              seed: int) -> None:
    steps = play(client, runtime, game, seats, seed)
    assert steps > 0


def test_the_check_catches_a_leak(client: FlaskClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the public state carried a seat's view, check_public would fail."""
    csrf = login(client)
    client.post("/api/host/end_game", json={}, headers={"X-CSRF-Token": csrf})
    new_game(client, csrf, game="tiny", seats=3)
    runtime.loop.wait_idle()
    html = client.get("/").get_data(as_text=True)
    session = runtime.loop.session
    leaky = {**runtime.handle.public_state()}
    leaky["game"] = {**leaky["game"], "extra": session.rules.view(session.state, 0)}
    monkeypatch.setattr(runtime.handle, "public_state", lambda: leaky)
    with pytest.raises(AssertionError, match="carries"):
        check_public(client, runtime, html)
