"""`companion venue init` (the broker's files, with passwords hashed by mosquitto_passwd and `%u` ACL patterns),
the dashboard command's refusals, and `companion venue simulate` end to end on a small venue."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.venue.store import VenueStore
from tests.table.test_crash import ROOT
from tests.venue.broker import free_port, mosquitto_binary


def companion(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_venue_init_writes_the_broker_accounts_and_acl(tmp_path: Path) -> None:
    mosquitto_binary()
    data = tmp_path / "venue"
    done = companion("venue", "init", "--data", str(data), "--tables", "3", "--port", "18830")
    assert done.returncode == 0, done.stderr
    assert "t01..t03" in done.stdout and "staff login: staff / " in done.stdout
    passwd = (data / "mosquitto" / "passwd").read_text()
    users = [line.split(":", 1)[0] for line in passwd.splitlines()]
    assert users == ["venue", "t01", "t02", "t03"]
    for name in users:  # hashed by mosquitto_passwd, never the password itself
        password = (data / "accounts" / f"{name}.password").read_text().strip()
        assert password not in passwd and "$7$" in passwd
        assert stat.S_IMODE(os.stat(data / "accounts" / f"{name}.password").st_mode) == 0o600
    acl = (data / "mosquitto" / "acl").read_text()
    assert "pattern write companion/v1/tables/%u/#" in acl and "pattern read companion/v1/venue/announcement" in acl
    conf = (data / "mosquitto" / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "listener 18830" in conf
    store = VenueStore(data)
    assert store.tables() == ["t01", "t02", "t03"] and store.has_staff()
    store.close()
    again = companion("venue", "init", "--data", str(data), "--tables", "3")
    assert again.returncode == 2 and "venue_exists" in again.stderr
    assert (data / "mosquitto" / "passwd").read_text() == passwd  # nothing changed


def test_the_dashboard_command_refuses_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "accounts").mkdir()
    (tmp_path / "accounts" / "venue.password").write_text("pw\n")
    assert main(["venue", "--broker", "http://x", "--data", str(tmp_path)]) == 2
    assert "error: bad_broker_url: " in capsys.readouterr().err
    assert main(["venue", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--data", str(tmp_path),
                 "--port", str(free_port())]) == 2
    assert "error: broker_unreachable: " in capsys.readouterr().err
    assert main(["venue", "--broker", "mqtt://x", "--data", str(tmp_path / "empty")]) == 2
    assert "error: password_unreadable: " in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["venue", "init", "--data", str(tmp_path), "--tables", "0"])
    assert "must be at least 1" in capsys.readouterr().err


def test_simulate_measures_a_small_venue(tmp_path: Path) -> None:
    data = tmp_path / "venue"
    assert companion("venue", "init", "--data", str(data), "--tables", "2", "--port", str(free_port()), "--bind",
                     "127.0.0.1").returncode == 0
    done = companion("venue", "simulate", "--data", str(data), "--tables", "2", "--seconds", "1", "--rate", "5",
                     "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["tables"] == 2 and figures["actions"] > 0 and figures["updates_missing"] == 0
    assert figures["updates_measured"] == figures["actions"] and figures["update_ms_p99"] > 0
    assert figures["broker_cpu_pct"] is not None and figures["messages_published_per_s"] > 0
