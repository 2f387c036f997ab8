"""Config input the guard cares about: a byte-order mark, `[web] allowed_hosts`, weak and example host PINs, and
no example config shipping a PIN."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import ConfigError, config_warnings, load_config, loads_config, pin_weakness

ROOT = Path(__file__).resolve().parents[2]


def test_a_byte_order_mark_opening_the_file_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_bytes(b"\xef\xbb\xbf[web]\nport = 8123\n")
    assert load_config(path).web.port == 8123
    assert loads_config("\ufeff[web]\nport = 8124\n").web.port == 8124


def test_a_byte_order_mark_inside_the_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_bytes(b"[web]\n\xef\xbb\xbfport = 8123\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.code == "config_syntax" and "line 2" in str(caught.value) and "U+FEFF" in str(caught.value)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "check-config", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("hosts, ok", [
    (["table.example", "10.0.0.5", "fe80::1", "pi-table.local"], True),
    (["http://table.example"], False), (["table.example:8000"], False), (["a b"], False), ([""], False),
    ("table.example", False), ([7], False),
])
def test_allowed_hosts_are_bare_names_or_addresses(hosts: object, ok: bool) -> None:
    text = f"[web]\nallowed_hosts = {hosts!r}\n".replace("'", '"')
    if ok:
        assert loads_config(text).web.allowed_hosts == tuple(hosts)  # type: ignore[arg-type]
    else:
        with pytest.raises(ConfigError) as caught:
            loads_config(text)
        assert caught.value.code in ("config_bad_value", "config_type") and "web.allowed_hosts" in str(caught.value)


@pytest.mark.parametrize("pin, weak", [
    ("246813", True), ("123456", True), ("000000", True), ("987654", True), ("901234", True), ("121212", True),
    ("123123", True), ("112233", True), ("100100", True), ("739205", False), ("80417362", False)])
def test_weak_and_example_pins_are_named(pin: str, weak: bool) -> None:
    assert (pin_weakness(pin) is not None) is weak


def test_check_config_warns_on_a_weak_pin_and_still_accepts_it(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[web]\nhost_pin = "246813"\n')
    done = subprocess.run([sys.executable, "-m", "companion.cli", "check-config", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.startswith("warning: weak_pin: web.host_pin: "), done.stderr
    assert "246813" not in done.stderr  # a warning names no PIN
    assert config_warnings(loads_config('[web]\nhost_pin = "739205"\n')) == []


@pytest.mark.parametrize("path", sorted((ROOT / "hardware" / "tables").glob("*.toml")), ids=lambda p: p.name)
def test_no_example_config_ships_a_pin(path: Path) -> None:
    assert load_config(path).web.host_pin is None
    assert not [line for line in path.read_text().splitlines() if "host_pin" in line and any(c.isdigit() for c in line)]
