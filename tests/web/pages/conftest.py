"""Fixtures: a real table (mock hardware, temporary database) with its Flask app, and a host session."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import BotsConfig, GameConfig, PollingConfig, demo_config
from companion.games import registry
from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import chromium, serve

PIN = "246813"


@pytest.fixture(scope="module")
def tiny_game() -> Iterator[None]:
    """Register the table tests' small game (a hidden deal and a simultaneous vote) for one test module."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GAMES, "tiny", "tests.table.tinygame")
        yield


def start_table(data: Path, game: str = "tiny", seats: int = 3, bots: BotsConfig | None = None) -> Runtime:
    """The demo table on mock hardware with a known host PIN (and its bots' pause, when given)."""
    base = demo_config()
    cfg = replace(base, data_dir=str(data), game=GameConfig(game, seats, "digital"),
                  polling=PollingConfig(interval_ms=5, removal_ms=25), web=replace(base.web, host_pin=PIN),
                  bots=bots or base.bots)
    return Runtime(cfg, rng=random.Random(7)).start()


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory, tiny_game: None) -> Iterator[Runtime]:
    """A started table shared by a test module (stopping mock hardware takes over a second)."""
    rt = start_table(tmp_path_factory.mktemp("table"))
    yield rt
    rt.stop()


@pytest.fixture(scope="module")
def base_url(runtime: Runtime) -> Iterator[str]:
    """The module's table served by waitress as `companion run` serves it (heartbeats every second)."""
    with serve(runtime.app(SSE_HEARTBEAT_S=1.0)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a test module."""
    with chromium() as b:
        yield b


@pytest.fixture(autouse=True)
def fresh_table(request: pytest.FixtureRequest) -> None:
    """Each test starts with enrollment off (the table is shared by the module)."""
    if "runtime" in request.fixturenames:
        host_call(request.getfixturevalue("runtime").loop, "enroll_mode", on=False)


@pytest.fixture()
def app(runtime: Runtime) -> Flask:
    """A fresh app (own session key and PIN guard) for that table; SSE streams end after one event."""
    return runtime.app(SSE_MAX_MESSAGES=1, SSE_HEARTBEAT_S=0.2, TESTING=True)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def login(client: FlaskClient, pin: str = PIN) -> str:
    """Log in as host; returns the CSRF token."""
    res = client.post("/api/host/login", json={"pin": pin})
    assert res.status_code == 200, res.get_json()
    return res.get_json()["csrf"]


def host_post(client: FlaskClient, csrf: str, command: str, body: dict[str, Any]) -> Any:
    """A host command with the CSRF header."""
    return client.post(f"/api/host/{command}", json=body, headers={"X-CSRF-Token": csrf})


def new_game(client: FlaskClient, csrf: str, game: str = "tiny", seats: int = 3, **extra: Any) -> list[str]:
    """Start a game (replacing a running one); returns the seat tokens in seat order."""
    res = host_post(client, csrf, "new_game", {"game": game, "seats": seats, "components": "digital",
                                               "replace": True, **extra})
    assert res.status_code == 200, res.get_json()
    state = client.get("/api/host/state").get_json()
    return [t["token"] for t in state["game"]["seat_tokens"]]
