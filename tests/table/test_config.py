"""Table config: TOML into frozen dataclasses, errors with stable codes and did-you-mean, check-config."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import (ConfigError, TableConfig, demo_config, describe, load_config, loads_config,
                              with_overrides)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "hardware" / "tables").glob("*.toml"))


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        loads_config(text)
    return err.value


@pytest.mark.parametrize("text, code, where, hint", [
    ("[web]\nprot = 80\n", "config_unknown_key", "web.prot", "did you mean 'port'"),
    ("backnd = 'mock'\n", "config_unknown_key", "backnd", "did you mean 'backend'"),
    ("[[readers]]\nname = 'a'\nzone = 'board'\nbuss = 1\n", "config_unknown_key", "readers[0].buss", "'bus'"),
    ("[[leds.zones]]\nzone = 'board'\nstart = 0\ncont = 1\n", "config_unknown_key", "leds.zones[0].cont", "'count'"),
    ("backend = 'mok'\n", "config_bad_value", "backend", "did you mean 'mock'"),
    ("[web]\nport = 'eighty'\n", "config_type", "web.port", "integer"),
    ("[web]\nport = true\n", "config_type", "web.port", "integer"),
    ("[web]\nport = 70000\n", "config_bad_value", "web.port", "out of range"),
    ("[web]\nthreads = 4\n", "config_bad_value", "web.threads", "8..64"),
    ("[web]\nthreads = 65\n", "config_bad_value", "web.threads", "8..64"),
    ("[web]\nstreams = 0\n", "config_bad_value", "web.streams", "1..256"),
    ("[web]\nhost_pin = '12'\n", "config_bad_value", "web.host_pin", "6 to 12 digits"),
    ("[web]\nhost_pin = '12345'\n", "config_bad_value", "web.host_pin", "6 to 12 digits"),
    ("[web]\nhost = '256.1.1.1'\n", "config_bad_value", "web.host", "not an IPv4 address"),
    ("[web]\nhost = 'a b'\n", "config_bad_value", "web.host", "not an address"),
    ("[leds]\npixels = 100000\n", "config_bad_value", "leds.pixels", "0..2048"),
    ("a = " + "[" * 400 + "]" * 400 + "\n", "config_syntax", "", "nested"),
    ("[web]\npublic_ur = 'http://t.local'\n", "config_unknown_key", "web.public_ur", "did you mean 'public_url'"),
    ("[web]\npublic_url = 'table.local:8000'\n", "config_bad_value", "web.public_url",
     "did you mean 'http://table.local:8000'"),
    ("[web]\npublic_url = 'ftp://table.local'\n", "config_bad_value", "web.public_url", "http:// or https://"),
    ("[web]\npublic_url = 'http://'\n", "config_bad_value", "web.public_url", "host name"),
    ("[web]\npublic_url = 'http://table local:8000'\n", "config_bad_value", "web.public_url", "no spaces"),
    ("[web]\npublic_url = 'http://table.local:99999'\n", "config_bad_value", "web.public_url", "not a valid address"),
    ("[web]\npublic_url = 8000\n", "config_type", "web.public_url", "string"),
    ("[[readers]]\nname = 'a'\n", "config_missing_key", "readers[0]", "zone"),
    ("[[readers]]\nname = 'a'\nzone = 'Seat 1'\n", "config_bad_value", "readers[0].zone", "bad zone"),
    ("[leds]\npixels = 4\n[[leds.zones]]\nzone = 'board'\nstart = 2\ncount = 3\n", "config_bad_value",
     "leds.zones[0]", "do not fit"),
    ("[[seats]]\nname = 'A'\ncolour = 'red'\n", "config_bad_value", "seats[0].colour", "#rrggbb"),
    ("[[seats]]\nname='A'\nterminal='T'\n[[seats]]\nname='B'\nterminal='T'\n", "config_duplicate", "seats", "terminal"),
    ("[[buttons]]\npin = 4\nseat = 3\nkey = 'ja'\n", "config_bad_value", "buttons[0].seat", "no seat 3"),
    ("seats = 3\n", "config_type", "seats", "array of tables"),
    ("[polling]\nconfirm_polls = 0\n", "config_bad_value", "polling.confirm_polls", "1..5"),
    ("[polling]\nconfirm_polls = 6\n", "config_bad_value", "polling.confirm_polls", "1..5"),
    ("[polling]\nconfirm_polls = true\n", "config_type", "polling.confirm_polls", "integer"),
    ("[game\n", "config_syntax", "", ""),
])
def test_bad_configs_have_a_code_a_place_and_a_hint(text: str, code: str, where: str, hint: str) -> None:
    err = error_of(text)
    assert (err.code, err.where) == (code, where)
    assert hint in err.message


def test_config_is_frozen_and_the_demo_has_ten_seat_zones_and_shared_zones() -> None:
    cfg = demo_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.backend = "pi"  # type: ignore[misc]
    zones = set(cfg.reader_zones().values())
    assert {f"seat:{i}" for i in range(10)} <= zones and {"board", "center"} <= zones
    assert cfg.backend == "mock" and cfg.data_dir is None and cfg.web.host == "127.0.0.1" and cfg.web.port == 8000
    assert len(cfg.terminal_seats()) == 10
    led_zones = {z.zone for z in cfg.leds.zones}
    assert {"track:liberal", "track:fascist", "track:election"} <= led_zones


def test_public_url_is_kept_as_written_and_described() -> None:
    cfg = loads_config("[web]\npublic_url = 'https://table.local:8443/companion'\n")
    assert cfg.web.public_url == "https://table.local:8443/companion"
    assert "seat QR codes: https://table.local:8443/companion" in describe(cfg)
    assert demo_config().web.public_url is None


def test_flags_override_the_config() -> None:
    cfg = with_overrides(demo_config(), host="0.0.0.0", port=9000, data_dir="/tmp/x")
    assert (cfg.web.host, cfg.web.port, cfg.data_dir) == ("0.0.0.0", 9000, "/tmp/x")
    with pytest.raises(ConfigError):
        with_overrides(demo_config(), port=0)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_configs_load(path: Path) -> None:
    cfg = load_config(path)
    assert isinstance(cfg, TableConfig) and cfg.seats and cfg.readers


def test_examples_exist() -> None:
    assert {p.name for p in EXAMPLES} >= {"mock-10-seats.toml", "pi-7-seats.toml"}


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "missing.toml")
    assert err.value.code == "config_unreadable"
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError) as err:
        load_config(bad)
    assert err.value.code == "config_unreadable"


def test_check_config_command(tmp_path: Path) -> None:
    good = subprocess.run([sys.executable, "-m", "companion.cli", "check-config", str(EXAMPLES[0])],
                          capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and "backend" in good.stdout and "reader" in good.stdout
    bad_file = tmp_path / "bad.toml"
    bad_file.write_text("[web]\nprot = 1\n")
    bad = subprocess.run([sys.executable, "-m", "companion.cli", "check-config", str(bad_file)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert "config_unknown_key: web.prot: unknown key (did you mean 'port'?)" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_terminals_ports_and_discovery_on_any_backend(tmp_path: Path) -> None:
    from companion.hal.mock import MockTerminalHub, terminal_hub
    from companion.hal.terminal_link import SerialTerminalHub

    cfg = loads_config('backend = "mock"\n[terminals]\nports = ["/dev/ttyACM*", "/tmp/term0"]\ndiscover = false\n')
    assert cfg.terminals.ports == ("/dev/ttyACM*", "/tmp/term0") and cfg.terminals.discover is False
    assert "terminals: ports /dev/ttyACM*, /tmp/term0; discovery by USB id off" in describe(cfg)
    assert isinstance(terminal_hub(cfg), SerialTerminalHub)  # a Pico on a laptop against the simulated table
    assert isinstance(terminal_hub(loads_config('backend = "mock"\n')), MockTerminalHub)
    for bad, message in (('ports = "/dev/ttyACM0"', "array of port paths"), ("discover = 1", "true or false"),
                         ('port = ["x"]', "did you mean 'ports'")):
        with pytest.raises(ConfigError) as info:
            loads_config(f"[terminals]\n{bad}\n")
        assert message in str(info.value) and info.value.code in ("config_type", "config_unknown_key")


def test_configured_globs_are_expanded_on_every_rescan(tmp_path: Path) -> None:
    from companion.hal.terminal_link import SerialTerminalHub

    (tmp_path / "ttyACM0").write_text("")
    hub = SerialTerminalHub([str(tmp_path / "ttyACM*"), "/dev/fixed"], discover=None)
    assert hub._configured() == [str(tmp_path / "ttyACM0"), "/dev/fixed"]  # noqa: SLF001
    (tmp_path / "ttyACM1").write_text("")
    assert hub._configured()[:2] == [str(tmp_path / "ttyACM0"), str(tmp_path / "ttyACM1")]  # noqa: SLF001
