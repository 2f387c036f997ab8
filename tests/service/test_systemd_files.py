"""systemd/companion.service and systemd/install.sh: verified by systemd itself where it is installed."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC = "/opt/companion/venv/bin/companion"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT, encoding="utf-8")
    return parser


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verifies_the_unit_without_a_single_warning(tmp_path: Path) -> None:
    # The one thing verify cannot see here is the venv: point ExecStart at a stand-in executable.
    stub = tmp_path / "companion"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    copy = tmp_path / "companion.service"
    text = UNIT.read_text(encoding="utf-8")
    assert EXEC in text
    copy.write_text(text.replace(EXEC, str(stub)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "companion.service" in line]
    assert result.returncode == 0 and complaints == [], result.stdout + result.stderr


def test_the_unit_is_a_watched_notify_service_with_device_access() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "dialout"}
    assert service["User"] == "companion"
    assert service["StateDirectory"] == "companion"
    assert "PrivateDevices" not in service, "it would hide /dev/spidev*, /dev/gpiochip* and /dev/ttyACM*"
    assert service["ExecStart"].startswith(EXEC + " run ")
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_install_script_parses_and_does_what_the_issue_asks() -> None:
    result = subprocess.run(["sh", "-n", str(INSTALL)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    script = INSTALL.read_text(encoding="utf-8")
    for needed in ("useradd --system", "usermod -a -G gpio,spi,dialout", "python3 -m venv --system-site-packages",
                   'pip" install --quiet "$PREFIX/src[pi]"', "systemctl enable companion.service",
                   "99-companion-terminals.rules", "dtoverlay=spi1-3cs"):
        assert needed in script, needed
    for path in ("hardware/udev/99-companion-terminals.rules", "hardware/tables/pi-5-seats.toml", "systemd/companion.service"):
        assert (ROOT / path).exists(), path
