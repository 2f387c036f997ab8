"""Requests against a real `companion run`: the simulator and host sessions, PIN backoff per client address,
body and action limits, private answers not cached, and clean one-line errors for bad configs and files."""

from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.server.table import PIN, Table, companion, free_port, write_config


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """One table for the module's request tests."""
    directory = tmp_path_factory.mktemp("requests")
    running = Table(write_config(directory), directory / "data")
    yield running
    running.stop()


def _request(table: Table, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", table.port, timeout=10, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _login(table: Table, source: str = "127.0.0.1", pin: str = PIN) -> tuple[int, dict[str, Any], str]:
    status, headers, body = _request(table, "POST", "/api/host/login", {"pin": pin}, source=source)
    return status, json.loads(body), headers.get("set-cookie", "").split(";")[0]


def test_the_simulator_tells_nothing_without_the_host(table: Table) -> None:
    for path in ("/api/sim/terminal/T1", "/api/sim/readers", "/api/sim/leds"):
        status, _, body = _request(table, "GET", path)
        assert (status, json.loads(body)["code"]) == (401, "unauthorised"), path
    status, _, body = _request(table, "POST", "/api/sim/terminal", {"terminal": "T1", "op": "connect"})
    assert status == 401
    status, _, page = _request(table, "GET", "/sim")
    assert status == 200 and b'id="login-form"' in page and b'id="zones"' not in page
    status, answer, cookie = _login(table)
    assert status == 200
    status, _, body = _request(table, "GET", "/api/sim/readers", headers={"Cookie": cookie})
    assert status == 200 and len(json.loads(body)["readers"]) == 12
    status, _, body = _request(table, "POST", "/api/sim/terminal", {"terminal": "T1", "op": "connect"},
                               headers={"Cookie": cookie})
    assert (status, json.loads(body)["code"]) == (403, "csrf")
    status, _, _ = _request(table, "POST", "/api/sim/terminal", {"terminal": "T1", "op": "connect"},
                            headers={"Cookie": cookie, "X-CSRF-Token": answer["csrf"]})
    assert status == 200


def test_logout_revokes_a_copied_cookie(table: Table) -> None:
    status, answer, cookie = _login(table)
    assert status == 200
    host = {"Cookie": cookie, "X-CSRF-Token": answer["csrf"]}
    assert _request(table, "GET", "/api/host/state", headers=host)[0] == 200
    assert _request(table, "POST", "/api/host/logout", {}, headers=host)[0] == 200
    assert _request(table, "GET", "/api/host/state", headers=host)[0] == 401  # the same cookie, replayed
    assert _request(table, "POST", "/api/host/undo", {}, headers=host)[0] == 401


def test_a_guesser_is_slowed_alone_and_the_host_still_logs_in(table: Table) -> None:
    codes = [_login(table, "127.0.0.66", "000000")[1]["code"] for _ in range(12)]
    assert codes[:5] == ["bad_pin"] * 5 and set(codes[5:]) == {"pin_locked"}
    assert _login(table, "127.0.0.66")[1]["code"] == "pin_locked"  # even the right PIN waits, from there
    assert _login(table, "127.0.0.1")[0] == 200  # the host's own phone is never refused


def test_host_and_seat_answers_are_not_cached(table: Table) -> None:
    status, answer, cookie = _login(table)
    _, headers, body = _request(table, "GET", "/api/host/state", headers={"Cookie": cookie})
    assert headers["cache-control"] == "no-store"
    token = json.loads(body)["game"]["seat_tokens"][0]["token"]
    for path in (f"/api/seat/{token}", f"/seat/{token}", "/host"):
        assert _request(table, "GET", path, headers={"Cookie": cookie})[1]["cache-control"] == "no-store", path


def test_a_huge_body_is_refused_before_it_is_read(table: Table) -> None:
    with socket.create_connection(("127.0.0.1", table.port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 419430400\r\n\r\n" + b"x" * 65536)
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert time.monotonic() - started < 2
    assert table.call("GET", "/healthz")[0] == 200


def test_an_action_is_journaled_without_its_junk(table: Table) -> None:
    opener, csrf = table.host()
    state = table.call("GET", "/api/state")[1]
    seat = state["game"]["to_act"][0]
    token = table.call("GET", "/api/host/state", opener=opener)[1]["game"]["seat_tokens"][seat]["token"]
    action = table.call("GET", f"/api/seat/{token}")[1]["prompt"]["options"][0]["action"]
    status, body = table.call("POST", "/api/action", {"token": token, "action": {**action, "junk": "j" * 900_000}})
    assert status == 200, body
    db = sqlite3.connect(f"file:{table.data / 'table.db'}?mode=ro", uri=True)
    try:
        (stored, longest) = db.execute("SELECT (SELECT action FROM actions ORDER BY rowid DESC LIMIT 1), "
                                       "MAX(LENGTH(action)) FROM actions").fetchone()
    finally:
        db.close()
    assert json.loads(stored) == action and longest < 4096


@pytest.mark.parametrize("web, code", [
    ('host = "256.1.1.1"', "config_bad_value: web.host"), ("threads = 1000", "config_bad_value: web.threads"),
    ('host_pin = "12345"', "config_bad_value: web.host_pin")])
def test_bad_web_settings_are_one_line_errors(tmp_path: Path, web: str, code: str) -> None:
    text = write_config(tmp_path).read_text().replace('host = "127.0.0.1"\n', "").replace(
        f'host_pin = "{PIN}"', "").replace("threads = 16", "")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("[web]\n", f"[web]\n{web}\n"))
    for args in (("check-config", str(bad)), ("run", "--config", str(bad), "--data", str(tmp_path / "d"),
                                              "--port", str(free_port()))):
        out = companion(*args, timeout=30)
        assert out.returncode == 2 and out.stderr.startswith(f"error: {code}: "), (args, out.stderr)
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "d").exists()


def test_a_deeply_nested_config_and_a_non_utf8_deck_are_one_line_errors(tmp_path: Path) -> None:
    nested = tmp_path / "nested.toml"
    nested.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    out = companion("check-config", str(nested))
    assert out.returncode == 2 and out.stderr.startswith("error: config_syntax: ") and "Traceback" not in out.stderr
    huge = tmp_path / "pixels.toml"
    huge.write_text(write_config(tmp_path).read_text().replace("pixels = 80", "pixels = 10000000"))
    out = companion("check-config", str(huge))
    assert out.returncode == 2 and out.stderr.startswith("error: config_bad_value: leds.pixels: ")
    deck = tmp_path / "deck.json"
    deck.write_bytes(b'{"format": "companion-deck", "cards": ["\xff\xfe caf\xe9"]}')
    out = companion("cards", "import", str(deck), "--data", str(tmp_path / "data"))
    assert out.returncode == 2 and out.stderr == f"error: unreadable: {deck}: not UTF-8 text\n", out.stderr
