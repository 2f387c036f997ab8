"""The builder's drawings (hardware/drawings/) agree with their sources and with the code's pin map.

Each drawing is regenerated from its text source into a temporary folder and its SVG text labels (the pin
numbers and names, wire colours, values: what a builder reads) compared with the committed SVG's, so a source
changed without `make docs`, or an SVG edited by hand, fails; coordinates are left out (Graphviz versions move
things). Then every pin the sources draw is checked against companion/hal/pins.py, the reference configs,
the terminal firmware's config.py and the parts' datasheet pinouts.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from companion.config import load_config
from companion.hal.pins import HARDWARE_CE, SPI_PINS, pin_plan, uses_gpio_cs
from companion.hal.power import fuse_ma

ROOT = Path(__file__).resolve().parents[2]
DRAWINGS = ROOT / "hardware" / "drawings"
TABLES = ROOT / "hardware" / "tables"
AHCT125_DATASHEET = {"1OE": 1, "1A": 2, "1Y": 3, "GND": 7, "VCC": 14}
SOT23_5_125_DATASHEET = {"OE": 1, "A": 2, "GND": 3, "Y": 4, "VCC": 5}


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BOARDS = load(DRAWINGS / "pico_pins.py", "drawing_boards")
FIRMWARE = load(ROOT / "firmware" / "terminal" / "config.py", "drawing_firmware_config")


def labels(svg: Path) -> list[str]:
    """Every text label of an SVG in document order, whitespace folded."""
    texts = []
    for node in ET.parse(svg).iter():
        if node.tag.endswith("text"):
            text = " ".join("".join(node.itertext()).split())
            if text:
                texts.append(text)
    return texts


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("dot") is None:
        pytest.fail("Graphviz's `dot` is missing (Debian package graphviz: scripts/install-test-deps.sh installs it)")
    out = tmp_path_factory.mktemp("drawings")
    sys.path.insert(0, str(DRAWINGS))
    try:
        load(DRAWINGS / "make.py", "drawing_make").render(out)
    finally:
        sys.path.remove(str(DRAWINGS))
    return out


def test_every_source_has_its_committed_svg_and_no_other() -> None:
    sources = {p.stem for p in DRAWINGS.glob("*.yml")} | set(load(DRAWINGS / "circuits.py", "c").CIRCUITS)
    assert {p.stem for p in DRAWINGS.glob("*.svg")} == sources
    assert len(sources) >= 6


@pytest.mark.parametrize("name", sorted(p.stem for p in DRAWINGS.glob("*.svg")))
def test_a_drawing_says_what_its_source_says(fresh: Path, name: str) -> None:
    committed, regenerated = labels(DRAWINGS / f"{name}.svg"), labels(fresh / f"{name}.svg")
    assert committed == regenerated, f"hardware/drawings/{name}.svg is out of date with its source: run `make docs`"


def test_the_checker_notices_a_pin_changed_in_one_place(fresh: Path, tmp_path: Path) -> None:
    svg = (DRAWINGS / "terminal.svg").read_text(encoding="utf-8")
    changed = tmp_path / "terminal.svg"
    changed.write_text(svg.replace(">GP22 pixels", ">GP16 pixels", 1), encoding="utf-8")
    assert labels(changed) != labels(fresh / "terminal.svg")


def yml(name: str) -> dict[str, Any]:
    return yaml.safe_load((DRAWINGS / f"{name}.yml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_pi_header_drawing_is_the_pin_plan_of_the_up_to_4_seats_build() -> None:
    cfg = load_config(TABLES / "pi-4-seats.toml")
    plan = pin_plan(cfg)
    header = yml("pi-readers")["connectors"]["PI"]
    drawn: dict[int, str] = {}
    for pin, label in zip(header["pins"], header["pinlabels"]):
        match = re.fullmatch(r"GPIO(\d+) (.+)", label)
        if match is None:
            assert label == "GND" and pin in BOARDS.PI_POWER["GND"]
            continue
        gpio = int(match.group(1))
        assert BOARDS.PI_HEADER[gpio] == pin, f"GPIO{gpio} is header pin {BOARDS.PI_HEADER[gpio]}, drawn on {pin}"
        drawn[gpio] = match.group(2)
    expected = {gpio: line.split()[-1] for gpio, line in SPI_PINS[1].items() if line.split()[-1] in ("SCLK", "MOSI",
                                                                                                   "MISO")}
    for gpio, job in plan.items():
        reader = re.fullmatch(r"(chip-select|reset) of reader (\w+)", job)
        expected[gpio] = f"{reader.group(2)} {'NSS' if reader.group(1) == 'chip-select' else 'RST'}" if reader else job
    assert {g: d.split(" via")[0].replace("SPI1 ", "").replace("LED DIN", "LED data") for g, d in drawn.items()} == expected
    cables = yml("pi-readers")["connections"]
    for r in cfg.readers:
        cs = r.cs if uses_gpio_cs(r.bus, r.device, r.cs) else HARDWARE_CE[(r.bus, r.device)]
        wired = next(c for c in cables if f"R_{r.name}" in c[2])
        assert wired[0]["PI"][3] == BOARDS.PI_HEADER[cs] and wired[2][f"R_{r.name}"][3] == 6, r.name  # NSS -> SDA
        assert wired[0]["PI"][4] == BOARDS.PI_HEADER[r.rst] and wired[2][f"R_{r.name}"][4] == 7, r.name  # RST


def test_the_terminal_drawing_is_the_firmwares_pin_map() -> None:
    pico = yml("terminal")["connectors"]["PICO"]
    drawn = {}
    for pin, label in zip(pico["pins"], pico["pinlabels"]):
        match = re.fullmatch(r"GP(\d+) (\w+) (\w+).*", label)
        if match:
            assert BOARDS.PICO[int(match.group(1))] == pin
            drawn[(match.group(2), match.group(3).lower())] = int(match.group(1))
    expected = {("button", k): v for k, v in FIRMWARE.BUTTON_PINS.items()}
    expected[("pixels", "din")] = FIRMWARE.PIXEL_PIN
    expected.update({("rfid", "nss" if k == "cs" else k): v for k, v in FIRMWARE.RFID.items()
                     if k in ("sck", "mosi", "miso", "cs", "rst")})
    expected.update({("display", "sda"): 4, ("display", "scl"): 5})  # hardware/terminal.md's DISPLAY example
    assert drawn == expected


def test_the_circuits_use_the_code_pins_and_the_datasheet_pinouts() -> None:
    circuits = load(DRAWINGS / "circuits.py", "drawing_circuits")
    assert circuits.AHCT125 == AHCT125_DATASHEET and circuits.LVC1G125 == SOT23_5_125_DATASHEET
    cfg = load_config(TABLES / "pi-4-seats.toml")
    assert circuits.STRIP["gpio"] == cfg.leds.pin and circuits.STRIP["header_pin"] == BOARDS.PI_HEADER[cfg.leds.pin]
    assert SPI_PINS[1][circuits.READER_BUFFER["gpio"]] == "SPI1 MISO"
    assert circuits.READER_BUFFER["header_pin"] == BOARDS.PI_HEADER[circuits.READER_BUFFER["gpio"]]
    assert circuits.TERMINAL_PIXELS["gpio"] == FIRMWARE.PIXEL_PIN
    assert circuits.TERMINAL_PIXELS["pico_pin"] == BOARDS.PICO[FIRMWARE.PIXEL_PIN]


def test_the_tray_drawing_matches_the_10_seat_build_and_its_fuse() -> None:
    cfg = load_config(TABLES / "pi-10-seats.toml")
    parts = {k: v["type"] for k, v in yml("tray")["connectors"].items()}
    assert f"{cfg.power.led_supply_ma // 1000} A" in parts["LEDPSU"]
    assert f"{fuse_ma(cfg.power.led_supply_ma) // 1000} A fuse" in parts["FUSE"]
    assert f"{cfg.leds.pixels} pixels" in parts["STRIP"]
    assert f"{cfg.power.hub_ports} ports" in parts["HUB"] and f"{cfg.power.hub_ma // 1000} A" in parts["HUBPSU"]
