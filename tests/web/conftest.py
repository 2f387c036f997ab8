"""Fixtures: the Flask app over a real table on mock hardware (test-only game)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import WebConfig
from companion.games import registry
from companion.table.runtime import Runtime
from tests.table.conftest import table_config

PIN = "432198"


@pytest.fixture()
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    monkeypatch.setitem(registry.GAMES, "tiny", "tests.table.tinygame")
    cfg = table_config(tmp_path / "data")
    cfg = replace(cfg, web=WebConfig(host_pin=PIN))
    rt = Runtime(cfg, rng=random.Random(3)).start()
    yield rt
    rt.stop()


@pytest.fixture()
def app(runtime: Runtime) -> Flask:
    return runtime.app(SSE_HEARTBEAT_S=0.05, SSE_MAX_MESSAGES=3, TESTING=True)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def login(client: FlaskClient) -> dict[str, str]:
    """Log in as host; returns the CSRF header to send with host POSTs."""
    r = client.post("/api/host/login", json={"pin": PIN})
    assert r.status_code == 200, r.json
    return {"X-CSRF-Token": r.json["csrf"]}


def sse_events(raw: str) -> list[dict[str, Any]]:
    """Parse a text/event-stream body into [{id, event, data}] (comments kept as {'comment': ...})."""
    import json
    out: list[dict[str, Any]] = []
    for block in raw.split("\n\n"):
        if not block.strip():
            continue
        item: dict[str, Any] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                item["comment"] = line[1:].strip()
            else:
                key, _, value = line.partition(": ")
                item[key] = json.loads(value) if key == "data" else value
        out.append(item)
    return out
