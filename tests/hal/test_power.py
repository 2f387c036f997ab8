"""The build check of `check-config`, `run` and `doctor`: the power budget from datasheet figures and the reader
bus's rise-time arithmetic; a config that exceeds a supply, a clock or a lead is refused with the figure and the
limit, and every reference build passes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import (DEFAULT_SPI_HZ, READER_GAINS_DB, ConfigError, TerminalsConfig, load_config,
                              loads_config)
from companion.hal import BackendError
from companion.hal.build import check_build
from companion.hal.mfrc522 import GAIN_DB
from companion.hal.power import (MARGIN, READER_MA, budget, feed_points, fuse_ma, pixel_ma, strip_ma,
                                 terminal_ma)
from companion.hal.spi_bus import bus_timing

ROOT = Path(__file__).resolve().parents[2]
PI_TABLES = sorted((ROOT / "hardware" / "tables").glob("pi-*.toml"))
PI = 'backend = "pi"\n'


def readers(n: int) -> str:
    devices = [("device=0", None), ("device=1", None)] + [("device=2", cs) for cs in (5, 6, 12, 13, 22, 23)]
    out = ""
    for i, (device, cs) in enumerate(devices[:n]):
        out += f'[[readers]]\nname="r{i}"\nzone="seat:{i}"\nbus=1\n{device}\n' + (f"cs={cs}\n" if cs else "")
    return out


@pytest.mark.parametrize("path", PI_TABLES, ids=[p.stem for p in PI_TABLES])
def test_every_reference_build_passes_and_check_config_prints_its_budget(path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "SPI1 timing: a MISO bit needs" in out and "power LED 5 V supply" in out and "feed 5 V in at" in out
    build = check_build(load_config(path))
    assert build.loads and all(load.ok for load in build.loads)


def test_the_10_seat_reference_build_has_its_seat_readers_in_the_terminals() -> None:
    cfg = load_config(ROOT / "hardware" / "tables" / "pi-10-seats.toml")
    assert [r.zone for r in cfg.readers] == ["board"] and cfg.terminals.count == 10 and cfg.terminals.reader
    assert cfg.power.hub_ports >= 10
    small = load_config(ROOT / "hardware" / "tables" / "pi-4-seats.toml")
    assert len([r for r in small.readers if r.zone.startswith("seat:")]) == 4 and small.spi_bus(1).lead_cm <= 50


@pytest.mark.parametrize("toml, code, figure, limit", [
    (PI + readers(3), "power_over_budget", "351 mA", "240 mA"),  # three readers on the Pi's 3V3 pins
    (PI + readers(8) + "[power]\nreader_rail_ma = 1000\n", "power_over_budget", "937 mA", "800 mA"),
    (PI + "[leds]\npixels = 300\nbrightness = 255\nmax_milliamps = 10000\n", "power_over_budget", "10000 mA",
     "3200 mA"),
    (PI + "[terminals]\ncount = 10\n[power]\nhub_ma = 2000\nhub_ports = 13\n", "power_over_budget", "2029 mA",
     "1600 mA"),
    (PI + "[terminals]\ncount = 2\npixels = 30\npixel_brightness = 255\n[power]\nhub_ma = 8000\nhub_ports = 4\n",
     "power_over_budget", "1971 mA", "500 mA (what a USB 2.0 port gives)"),  # one terminal's pixels beyond its USB port
    (PI + "[terminals]\ncount = 10\n[power]\nhub_ma = 6000\nhub_ports = 7\n", "hub_too_small", "10 terminals",
     "7"),
    (PI + readers(2) + "[[spi]]\nbus = 1\nspi_hz = 8000000\nlead_cm = 40\n", "spi_too_fast", "8000000",
     f"{bus_timing(2, 40).max_hz / 1e6:.2f} MHz"),
    (PI + readers(2) + "[[spi]]\nbus = 1\nlead_cm = 150\n", "spi_lead_too_long", "150 cm", "50 cm"),
])
def test_a_table_beyond_a_supply_clock_or_lead_is_refused_with_the_figure_and_the_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, code: str, figure: str, limit: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(toml, encoding="utf-8")
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {code}: ") and "Traceback" not in err
    assert figure in err and limit in err, err
    with pytest.raises(BackendError) as info:
        check_build(loads_config(toml))
    assert info.value.code == code


@pytest.mark.parametrize("toml, where", [
    ('[[readers]]\nname="a"\nzone="board"\ngain_db = 30\n', "readers[0].gain_db"),
    ("[[spi]]\nbus = 1\nspi_hz = 20000000\n", "spi[0].spi_hz"),
    ("[[spi]]\nbus = 3\n", "spi[0].bus"),
    ("[[spi]]\nbus = 1\n[[spi]]\nbus = 1\n", "spi"),
    ('[power]\npi = "pi3"\n', "power.pi"),
    ("[power]\nled_supply_ma = -1\n", "power.led_supply_ma"),
    ("[terminals]\npixel_brightness = 300\n", "terminals"),
    ('[[readers]]\nname="a"\nzone="board"\nantenna_switching = "yes"\n', "readers[0].antenna_switching"),
])
def test_bad_hardware_keys_are_config_errors(toml: str, where: str) -> None:
    with pytest.raises(ConfigError) as info:
        loads_config(toml)
    assert info.value.where == where


def test_the_figures_follow_the_datasheets() -> None:
    assert READER_MA == 117.0 and pixel_ma(0) == 1.0 and pixel_ma(255) == 61.0
    assert round(pixel_ma(64), 2) == 16.06
    assert strip_ma(77, 64, 3000) == pytest.approx(77 * pixel_ma(64))  # below the cap: the brightness bounds it
    assert strip_ma(300, 255, 3500) == 3500 and strip_ma(5000, 0, 100) == 5000  # dark pixels still draw 1 mA
    assert 180 < terminal_ma(True, False, 4, 51) < 200 and terminal_ma(False, False, 0, 0) == 50
    assert fuse_ma(4000) == 5000 and fuse_ma(700) == 1000
    assert (feed_points(0), feed_points(60), feed_points(77), feed_points(180)) == (0, 1, 3, 4)
    assert MARGIN == 0.8 and budget(loads_config("")) == []  # the mock draws nothing here


def test_the_default_clock_comes_from_the_rise_time_arithmetic() -> None:
    reference = bus_timing(readers=5, lead_cm=40)
    assert reference.max_hz > 3 * DEFAULT_SPI_HZ, "the 4-seat build keeps a wide margin at the default"
    old = bus_timing(readers=11, lead_cm=150, diodes=True)
    assert old.miso_rise_ns > 2 * old.half_period_ns(1e6) and old.max_hz < DEFAULT_SPI_HZ / 10, \
        "the old diode bus at 1 MHz: MISO rises in microseconds against a 0.5 us half period"


def test_the_config_and_the_firmware_agree_on_gains_and_the_pixel_cap() -> None:
    assert tuple(sorted(GAIN_DB)) == READER_GAINS_DB
    spec = importlib.util.spec_from_file_location("fw_config_power", ROOT / "firmware" / "terminal" / "config.py")
    assert spec and spec.loader
    firmware = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(firmware)
    assert firmware.PIXEL_BRIGHTNESS == TerminalsConfig().pixel_brightness
    assert firmware.RFID["hz"] == DEFAULT_SPI_HZ and firmware.RFID["gain_db"] in READER_GAINS_DB
