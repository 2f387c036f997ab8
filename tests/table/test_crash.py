"""kill -9 of a running `companion run` mid-game, then a restart: the same state, no acknowledged action lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         opener: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with (opener or urllib.request.build_opener()).open(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def start(config: Path, data: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data",
                             str(data), "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if call(port, "GET", "/healthz")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("companion run did not come up")


def host_session(port: int) -> tuple[Any, dict[str, str]]:
    import http.cookiejar
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    status, body = call(port, "POST", "/api/host/login", {"pin": "123456"}, opener=opener)
    assert status == 200
    return opener, {"X-CSRF-Token": body["csrf"]}


def test_kill_9_mid_game_loses_no_acknowledged_action(tmp_path: Path) -> None:
    text = (ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text()
    config = tmp_path / "table.toml"
    config.write_text(text.replace("[web]\n", '[web]\nhost_pin = "123456"\n', 1))
    data, port = tmp_path / "data", free_port()
    proc = start(config, data, port)
    acked: list[dict[str, Any]] = []
    try:
        opener, csrf = host_session(port)
        tokens = [t["token"] for t in call(port, "GET", "/api/host/state", opener=opener)[1]["game"]["seat_tokens"]]
        rng = random.Random(7)
        last_view = None
        while len(acked) < 30:
            state = call(port, "GET", "/api/state")[1]
            if state["game"]["outcome"] is not None:
                break
            seat = rng.choice(state["game"]["to_act"])
            prompt = call(port, "GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]
            action = rng.choice(prompt["options"])["action"]
            status, body = call(port, "POST", "/api/action", {"token": tokens[seat], "action": action})
            assert status == 200, body
            acked.append(action)
            last_view = call(port, "GET", "/api/state")[1]["game"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

        db = sqlite3.connect(str(data / "table.db"))
        rows = [json.loads(a) for a, s in db.execute(
            "SELECT action, source FROM actions WHERE undone = 0 ORDER BY idx") if s.startswith("seat_page")]
        db.close()
        assert rows == acked

        proc = start(config, data, port)
        after = call(port, "GET", "/api/state")[1]
        assert after["table"]["status"] == "resume_check"
        assert after["game"]["view"] == last_view["view"]  # type: ignore[index]
        assert after["game"]["actions"] == last_view["actions"]  # type: ignore[index]
        assert after["game"]["id"] == last_view["id"]  # type: ignore[index]
        opener, csrf = host_session(port)
        assert call(port, "POST", "/api/host/resume", {}, csrf, opener)[0] == 200
        seat = after["game"]["to_act"][0]
        prompt = call(port, "GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]  # tokens survive the restart
        status, _ = call(port, "POST", "/api/action", {"token": tokens[seat], "action": prompt["options"][0]["action"]})
        assert status == 200
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
