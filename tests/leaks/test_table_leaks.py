"""Leak checks through the whole mock table over random games of every registered game.

At every step, what each seat may know beyond the public view (its `private_part`: role, hand, own vote...) is
a set of secret (key, value) pairs. The public outputs (/api/state, every SSE event, the LED frame's scene,
log lines) must carry none of them, and each seat's outputs (/api/seat/<token>, its terminal messages) none of
another seat's secrets that the seat does not see itself. Once a game is over, views may show everything.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import WebConfig
from companion.games.registry import game_names, get_rules
from companion.table.prompts import private_part
from companion.table.runtime import Runtime
from tests.table.conftest import table_config
from tests.table.helpers import host_call, hw

Pair = tuple[str, str]
VIEWER_KEYS = {"seat", "viewer", "you"}
"""Keys naming who is looking: the viewer's own seat number is no secret."""


def pairs(value: Any) -> set[Pair]:
    """Every (key, canonical JSON value) of every object nested in `value`."""
    out: set[Pair] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add((str(k), json.dumps(v, sort_keys=True)))
            out |= pairs(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= pairs(v)
    return out


def secrets_of(private: dict[str, Any]) -> set[Pair]:
    """A seat's secret pairs, leaving out values too plain to be evidence (None, false, 0, empty)."""
    return {(k, json.dumps(v, sort_keys=True)) for k, v in private.items()
            if v not in (None, False, 0, "", [], {}) and k not in VIEWER_KEYS}


def _step(rt: Runtime, client: Any, tokens: list[str], seats: int, log_text: str) -> None:
    session = rt.loop.session
    assert session is not None
    rules, state = session.rules, session.state
    if rules.outcome(state) is not None:
        return
    public = rules.view(state, None)
    shown = pairs(public)  # a fact the public view already shows (a round-end reveal) is no secret any more
    private = {s: secrets_of(private_part(rules.view(state, s), public)) - shown for s in range(seats)}
    everyone = set().union(*private.values())
    public_out = {"api_state": client.get("/api/state").get_json(),
                  "sse": [{"type": e.type, "data": e.data} for e in rt.loop.bus.recent()[-6:]],
                  "scene": {z: repr(light) for z, light in session.binding.scene(public, seats).items()}}
    leaked = pairs(public_out) & everyone
    assert not leaked, f"public outputs carry secrets {leaked}"
    for k, v in everyone:
        assert f'"{k}": {v}' not in log_text and f"'{k}': {v}" not in log_text, f"log lines carry {k}={v}"
    hub = hw(rt).mock_terminals
    for s in range(seats):
        # what the seat sees itself, and the choices it is offered (an option "silence" is vocabulary, not a secret)
        own = pairs(rules.view(state, s)) | pairs(public) | pairs(rules.legal_actions(state, s))
        forbidden = set().union(*(private[o] for o in range(seats) if o != s)) - own
        seat_out = {"page": client.get(f"/api/seat/{tokens[s]}").get_json(), "terminal": hub.last_prompt(f"T{s}")}
        leaked = pairs(seat_out) & forbidden
        assert not leaked, f"seat {s}'s outputs carry another seat's secrets {leaked}"


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture()
def log_lines() -> Iterator[_Capture]:
    handler = _Capture()
    logger = logging.getLogger("companion")
    old = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old)


@pytest.mark.parametrize("game", game_names())
def test_no_output_of_the_table_leaks_a_secret_over_random_games(game: str, tmp_path: Path,
                                                                 log_lines: _Capture) -> None:
    rules = get_rules(game)
    seats = min(rules.max_seats, max(rules.min_seats, 5))
    cfg = replace(table_config(tmp_path / "data", game=game, seats=seats), web=WebConfig(host_pin="9999"))
    rt = Runtime(cfg, rng=random.Random(11)).start()
    try:
        client = rt.app(TESTING=True).test_client()
        hub = hw(rt).mock_terminals
        for s in range(seats):
            hub.connect(f"T{s}")
        rt.loop.wait_idle()
        rng = random.Random(game)
        steps = 0
        while steps < 120:
            session = rt.loop.session
            assert session is not None
            tokens = list(session.tokens)
            _step(rt, client, tokens, seats, "\n".join(log_lines.lines))
            acting = sorted(session.rules.to_act(session.state))
            if not acting:
                break
            seat = rng.choice(acting)
            action = rng.choice(session.rules.legal_actions(session.state, seat))
            if rng.random() < 0.1:  # now and then a refused action: its public echo must not leak either
                refused = host_call(rt.loop, "submit", seat=seat, action={**action, "type": "peek_at_everything"}, source="test")
                assert getattr(refused, "code", None) == "malformed"
            result = client.post("/api/action", json={"token": tokens[seat], "action": action})
            assert result.status_code == 200, result.get_json()
            rt.loop.wait_idle()
            steps += 1
        assert steps >= 10
    finally:
        rt.stop()


def test_the_check_catches_a_planted_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.table.handle import TableHandle
    cfg = replace(table_config(tmp_path / "data", game="secret_hitler", seats=5), web=WebConfig(host_pin="9999"))
    rt = Runtime(cfg, rng=random.Random(1)).start()
    try:
        client = rt.app(TESTING=True).test_client()
        session = rt.loop.session
        assert session is not None
        _step(rt, client, list(session.tokens), 5, "")  # clean as shipped
        honest = TableHandle.public_state
        monkeypatch.setattr(TableHandle, "public_state", lambda self: {
            **honest(self), "debug": {"players": [self.loop.session.rules.view(self.loop.session.state, 3)]}})
        with pytest.raises(AssertionError, match="public outputs carry secrets"):
            _step(rt, client, list(session.tokens), 5, "")
    finally:
        rt.stop()
