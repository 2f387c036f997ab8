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


KIOSK = ROOT / "systemd" / "companion-kiosk.service"
KIOSK_EXEC = "/usr/bin/cage"


def verify(unit_path: Path, real_exec: str, tmp_path: Path) -> None:
    """systemd-analyze verify, with the one thing it cannot see here (the executable) replaced by a stand-in."""
    stub = tmp_path / "stand-in"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    copy = tmp_path / unit_path.name
    text = unit_path.read_text(encoding="utf-8")
    assert real_exec in text
    copy.write_text(text.replace(real_exec, str(stub)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if unit_path.name in line]
    assert result.returncode == 0 and complaints == [], result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verifies_the_unit_without_a_single_warning(tmp_path: Path) -> None:
    verify(UNIT, EXEC, tmp_path)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verifies_the_kiosk_unit_without_a_single_warning(tmp_path: Path) -> None:
    verify(KIOSK, KIOSK_EXEC, tmp_path)


def test_every_unit_in_systemd_is_verified_here() -> None:
    assert sorted(p.name for p in (ROOT / "systemd").glob("*.service")) == sorted((UNIT.name, KIOSK.name))


def test_the_unit_is_a_watched_notify_service_with_device_access() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2", "a config error or a busy GPIO must not restart-loop"
    assert "LG_WD=/var/lib/companion" in service["Environment"].split()
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
    for needed in ("apt-get update", "python3-lgpio", "python3-spidev", "useradd --system",
                   "usermod -a -G gpio,spi,dialout", "python3 -m venv --system-site-packages",
                   'pip" install --progress-bar off "$PREFIX/src[$EXTRAS]"', "systemctl enable companion.service",
                   "99-companion-terminals.rules", "dtoverlay=spi1-3cs", "core_freq=500", "core_freq_min=500",
                   "host_pin", "Host PIN: $HOST_PIN", "--with-ws281x", "--kiosk", "companion-kiosk.service"):
        assert needed in script, needed
    assert "swig" not in script and ">/dev/null" not in script.split("apt-get install")[1].split("\n")[0]
    assert "--quiet" not in script, "progress stays visible"
    for path in ("hardware/udev/99-companion-terminals.rules", "hardware/tables/pi-5-seats.toml", "systemd/companion.service"):
        assert (ROOT / path).exists(), path


def test_install_script_writes_a_persistent_host_pin_into_the_web_table(tmp_path: Path) -> None:
    """The config block of install.sh, run on a copy of the example: a PIN the config loader accepts, kept on rerun."""
    script = INSTALL.read_text(encoding="utf-8")
    block = script[script.index('step "config in'):script.index("PORT=${PORT:-8000}")]
    block = "\n".join(line for line in block.splitlines() if "chown" not in line and "check-config" not in line)
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "hardware" / "tables" / "pi-5-seats.toml").read_text(encoding="utf-8"), encoding="utf-8")
    runner = tmp_path / "run.sh"
    runner.write_text(f'set -eu\nstep() {{ echo "== $*"; }}\nCONFIG={config}\nCONFIG_DIR={tmp_path}\nPREFIX=/nonexistent\n'
                      f'USER_NAME=companion\n{block}\necho "PIN=$HOST_PIN"\n', encoding="utf-8")
    first = subprocess.run(["sh", str(runner)], capture_output=True, text=True, timeout=30)
    assert first.returncode == 0, first.stderr
    from companion.config import load_config

    pin = load_config(config).web.host_pin
    assert pin is not None and len(pin) == 6 and f"PIN={pin}" in first.stdout
    second = subprocess.run(["sh", str(runner)], capture_output=True, text=True, timeout=30)
    assert f"PIN={pin}" in second.stdout and config.read_text(encoding="utf-8").count("host_pin") == 1
