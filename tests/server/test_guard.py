"""Issue #30's attacks, rerun against a real `companion run` (tests/server/attacks.py scripts them): a page that
rebinds its name to the table, PIN guessing from thousands of addresses, sockets held open, streams hogged, bad
input, the data directory removed under the table. `-s` prints the figures docs/SECURITY.md quotes."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from tests.server import attacks
from tests.server.attacks import EVIL, PIN, Started, attacker, code_of, request
from tests.table.test_journal_files import journaled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    """One table for the module's attacks that leave it as it was."""
    running = Started(ROOT, tmp_path_factory.mktemp("guard"), extra_web='allowed_hosts = ["table.example"]\n')
    yield running
    running.stop()


def test_a_rebound_name_gets_nothing_and_a_foreign_page_cannot_act(table: Started) -> None:
    found = attacks.rebinding(table.port)
    print("\nrebinding:", found)
    assert found["login"] == [421, "foreign_host"]
    assert found["host_state"] == [421, "foreign_host", 0]  # no seat token
    assert found["seat_view"] == [421, "foreign_host"] and found["seat_page"] == [421]
    assert found["foreign_origin_post"] == [403, "foreign_origin"]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", f"localhost:{0}", "table.example", "TABLE.EXAMPLE.",
                                  "[::1]", "127.0.0.2"])
def test_the_tables_own_names_and_addresses_are_served(table: Started, host: str) -> None:
    status, _, body = request(table.port, "GET", "/api/state", headers={"Host": host.replace(":0", f":{table.port}")})
    assert status == 200, body


@pytest.mark.parametrize("host", [EVIL, "192.0.2.7", "table.example.evil.example", "localhost.evil.example", ""])
def test_any_other_host_is_refused_with_a_code(table: Started, host: str) -> None:
    status, _, body = request(table.port, "GET", "/api/state", headers={"Host": host})
    assert (status, code_of(body)) == (421, "foreign_host"), body


def test_a_state_changing_request_from_another_origin_is_refused(table: Started) -> None:
    for origin in (f"http://{EVIL}", "null", f"http://127.0.0.1:{table.port + 1}", "https://127.0.0.1"):
        status, _, body = request(table.port, "POST", "/api/action", {"token": "x", "action": {}},
                                  {"Origin": origin})
        assert (status, code_of(body)) == (403, "foreign_origin"), origin
    status, _, body = request(table.port, "POST", "/api/action", {"token": "x", "action": {}},
                              {"Sec-Fetch-Site": "cross-site"})
    assert code_of(body) == "foreign_origin"
    status, _, body = request(table.port, "POST", "/api/action", {"token": "x", "action": {}},
                              {"Origin": f"http://127.0.0.1:{table.port}"})
    assert (status, code_of(body)) == (401, "unauthorised")  # its own origin goes on to the usual checks


def test_idle_sockets_and_a_slowloris_from_one_address_hold_only_its_share(table: Started) -> None:
    found = attacks.connection_flood(table.port, idle=100, slowloris=110, hold_s=3.0)
    print("\nconnections from one address:", found)
    assert found["api_during"]["failed"] == 0, found
    assert found["held_at_end"] <= 16, found


def test_sockets_from_many_addresses_beyond_the_limit_never_stop_the_api(table: Started) -> None:
    found = attacks.connection_flood(table.port, idle=150, slowloris=150, spread=True, hold_s=3.0)
    print("\nconnections from 300 addresses:", found)
    assert found["api_during"]["failed"] == 0, found
    assert found["held_at_end"] <= 2 * (16 + 64) + 64, found  # at the limit the longest idle ones make room


def test_one_device_cannot_take_every_live_update_stream(table: Started) -> None:
    found = attacks.stream_hog(table.port, streams=10)
    print("\nstreams from one address:", found)
    assert found["served"] == 6 and found["refused"] == {"stream_limit": 4}, found
    assert found["api_from_another_address"]["failed"] == 0


def test_bad_input_gets_a_4xx_with_a_code_and_a_line_of_log_at_most(table: Started) -> None:
    found = attacks.bad_inputs(table.port, table.stderr, repeat=40)
    print("\nbad input:", json.dumps(found))
    assert found["server_errors"] == 0, found
    for name, (status, code) in found["first"].items():
        if name.startswith(("last_event_id", "superscript")):
            assert status == 200, (name, status)  # not an event number of ours: a fresh stream from the state
        else:
            assert 400 <= status < 500 and code, (name, status, code)
    assert found["first"]["surrogate_pin"] == [400, "bad_json"]
    assert found["first"]["surrogate_token"] == [400, "bad_json"]
    assert found["log_bytes"] < 2000, table.stderr.read_text()[-2000:]


def test_a_terminal_sending_junk_is_counted_not_logged_line_by_line() -> None:
    found = attacks.junk_terminal(seconds=1.5)
    print("\njunk terminal:", found)
    assert found["junk_lines_sent"] > 10_000 and found["log_lines"] <= 2, found


# --- the PIN ------------------------------------------------------------------------------------------------------

def test_guessing_from_many_addresses_meets_the_table_wide_limit_and_host_link_still_gets_in(
        tmp_path: Path) -> None:
    table = Started(ROOT, tmp_path)
    try:
        found = attacks.pin_flood(table.port, seconds=30, addresses=60, per_address=1)
        print("\nPIN guesses from 60 addresses:", found)
        assert found["checked"] == 20 and found["locked"] == 40, found  # the burst, then nothing is checked
        assert found["right_pin_after"] == 429  # the right PIN too: a guesser learns nothing
        status, _, body = request(table.port, "POST", "/api/host/login", {"pin": PIN}, source=attacker(5, 7))
        assert code_of(body) == "pin_table_locked"

        done = subprocess.run([sys.executable, "-m", "companion.cli", "host-link", "--config", str(table.config),
                               "--data", str(table.data), "--port", str(table.port)], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        links = [w for w in done.stdout.split() if "/host/link/" in w]
        assert links and all(link.startswith("http://127.0.0.1:") for link in links), done.stdout
        path = links[0].split(str(table.port), 1)[1]
        status, _, page = request(table.port, "GET", path)  # opening it uses nothing up
        assert status == 200 and b'id="use-link"' in page
        status, headers, _ = request(table.port, "POST", path, b"", {"Content-Type": "application/x-www-form-"
                                                                    "urlencoded"})
        assert (status, headers.get("location")) == (303, "/host")
        cookie = headers["set-cookie"].split(";")[0]
        status, _, body = request(table.port, "GET", "/api/host/state", headers={"Cookie": cookie})
        assert status == 200 and json.loads(body)["game"]["seat_tokens"], body
        status, _, page = request(table.port, "POST", path, b"", {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 403 and b"codes.bad_link" in page  # once only
        assert not list(table.data.glob("*host-link*"))  # nothing of it left in the data directory
    finally:
        table.stop()


def test_the_pin_goes_to_a_terminal_and_never_into_a_log(tmp_path: Path) -> None:
    """Under systemd the output is the journal: the PIN must not be in it; at a terminal it is shown."""
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text())  # a random PIN
    logged = tmp_path / "out.txt"
    for tty in (False, True):
        port = attacks.free_port()
        master, slave = pty.openpty() if tty else (None, None)
        with logged.open("w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data",
                                     str(tmp_path / f"data-{tty}"), "--port", str(port)], cwd=ROOT,
                                    stdout=slave if tty else out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    if request(port, "GET", "/healthz", timeout=2)[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            shown = os.read(master, 4096).decode() if tty else logged.read_text()
        finally:
            proc.terminate()
            proc.wait(10)
            if tty:
                os.close(master)
                os.close(slave)
        line = next(li for li in shown.splitlines() if li.startswith("table "))
        if tty:
            assert "host PIN " in line and line.split("host PIN ")[1][:6].isdigit(), line
        else:
            assert "host PIN not shown" in line and not any(w.isdigit() and len(w) == 6 for w in line.split()), line


# --- the data directory -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["rm -rf", "mv"])
def test_a_removed_data_directory_acknowledges_nothing_more_and_locks_out_a_second_table(
        tmp_path: Path, how: str) -> None:
    table = Started(ROOT, tmp_path)
    moved = tmp_path / "moved"
    try:
        if how == "mv":
            opener, csrf = attacks.host(table.port)
            before = journaled(table.data / "table.db")
            shutil.move(table.data, moved)
            status, body = _vote(table.port, opener)
            assert (status, body.get("code")) == (409, "journal_gone"), body
            assert journaled(moved / "table.db") == before  # the refused action is in no file
        else:
            found = attacks.removed_data(table.config, table.data, table.port, ROOT, actions=10)
            print("\nrm -rf of the data directory:", found)
            assert found["acked_before"] == 8 and found["acked_after_rm"] == 0, found
            assert found["codes_after_rm"] == ["journal_gone"], found
            assert found["second_table_exit"] == 2 and "data_locked" in found["second_table_said"][0], found
        opener, _ = attacks.host(table.port)
        state = json.loads(request(table.port, "GET", "/api/host/state",
                                   headers={"Cookie": _cookie(opener)})[2])
        assert state["journal"]["problem"] == "journal_gone", state["journal"]
    finally:
        table.stop()


def _cookie(opener: object) -> str:
    jar = next(h.cookiejar for h in opener.handlers if hasattr(h, "cookiejar"))  # type: ignore[attr-defined]
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def _vote(port: int, opener: object) -> tuple[int, dict[str, object]]:
    """One legal action from the seat to act, through its seat token."""
    from tests.table.test_crash import call
    state = call(port, "GET", "/api/host/state", opener=opener)[1]
    tokens = [t["token"] for t in state["game"]["seat_tokens"]]
    seat = call(port, "GET", "/api/state")[1]["game"]["to_act"][0]
    prompt = call(port, "GET", f"/api/seat/{tokens[seat]}")[1]["prompt"]
    return call(port, "POST", "/api/action", {"token": tokens[seat], "action": prompt["options"][0]["action"]})


def test_host_link_names_the_port_the_running_table_serves(table: Started) -> None:
    """A table started with `--port` (not in its config) announces it; `host-link` without `--port` uses it."""
    done = subprocess.run([sys.executable, "-m", "companion.cli", "host-link", "--config", str(table.config),
                           "--data", str(table.data)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    links = [w for w in done.stdout.split() if "/host/link/" in w]
    assert links and all(f":{table.port}/host/link/" in link for link in links), done.stdout
    status, _, page = request(table.port, "GET", links[0].split(str(table.port), 1)[1])
    assert status == 200 and b'id="use-link"' in page
