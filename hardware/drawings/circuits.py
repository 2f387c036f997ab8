"""The small circuits a builder solders, drawn with schemdraw from the pin data at the top of this file
(tests/hal/test_drawings.py checks that data against the code's pin map and the parts' datasheets)."""

from __future__ import annotations

import schemdraw
import schemdraw.elements as elm

AHCT125 = {"1OE": 1, "1A": 2, "1Y": 3, "GND": 7, "VCC": 14}
"""74AHCT125 (DIP-14), gate 1: OE is active low."""
LVC1G125 = {"OE": 1, "A": 2, "GND": 3, "Y": 4, "VCC": 5}
"""74LVC1G125 and 74AHCT1G125 (SOT-23-5 / SOT-753): OE is active low."""
STRIP = {"gpio": 10, "header_pin": 19, "bulk": "1000 µF 10 V"}
"""The Pi's LED data: SPI0 MOSI."""
READER_BUFFER = {"bus": "SPI1 MISO", "gpio": 19, "header_pin": 35, "pullup": "10 kΩ"}
"""One reader's MISO buffer: OE on the reader's NSS, so only the selected reader drives the bus."""
TERMINAL_PIXELS = {"gpio": 22, "pico_pin": 29, "bulk": "100 µF 10 V"}
"""The terminal's pixel data, shifted to 5 V."""


def _chip(d: schemdraw.Drawing, name: str, pins: dict[str, int], left: list[str], right: list[str]) -> elm.Ic:
    ic = elm.Ic(pins=[elm.IcPin(name=p, pin=str(pins[p]), side="left") for p in left]
                + [elm.IcPin(name=p, pin=str(pins[p]), side="right") for p in right],
                edgepadW=1.2, pinspacing=1.0).label(name, loc="top")
    d.add(ic)
    return ic


def _shifter(path: str, name: str, pins: dict[str, int], source: str, supply: str, out: str, bulk: str) -> None:
    """A 125 buffer as a level shifter: A from `source`, OE and GND to ground, Y through 330 Ω to `out`, VCC from
    `supply` with 100 nF, and a bulk capacitor across the pixels' supply."""
    a, oe, y, vcc = (next(p for p in pins if p.endswith(end)) for end in ("A", "OE", "Y", "VCC"))
    with schemdraw.Drawing(file=path, show=False) as d:
        d.config(fontsize=11, margin=1.5)
        ic = _chip(d, name, pins, [a, oe, "GND"], [vcc, y])
        d.add(elm.Line().left(2).at(getattr(ic, a)).label(source, loc="left"))
        for pin in (oe, "GND"):
            d.add(elm.Line().left(1).at(getattr(ic, pin)))
            d.add(elm.Ground())
        d.add(elm.Resistor().right(3).at(getattr(ic, y)).label("330 Ω"))
        d.add(elm.Line().right(1).label(out, loc="right"))
        d.add(elm.Line().right(1).at(getattr(ic, vcc)))
        d.push()
        d.add(elm.Line().right(2).label(supply, loc="right"))
        d.pop()
        d.add(elm.Capacitor().down().label("100 nF"))
        d.add(elm.Ground())
        d.add(elm.Capacitor(polar=True).at((getattr(ic, vcc).x + 6, getattr(ic, vcc).y - 4)).down().label(bulk))
        d.add(elm.Ground())


def strip_shifter(path: str) -> None:
    """Pi GPIO10 -> 74AHCT125 gate 1 (5 V supply) -> 330 Ω -> the strip's DIN; OE to ground; bulk capacitor."""
    _shifter(path, "74AHCT125 (gate 1)", AHCT125,
             f"Pi GPIO{STRIP['gpio']} (header pin {STRIP['header_pin']}, SPI0 MOSI)",
             "5 V (the strip's supply, after the fuse)", "strip DIN", f"{STRIP['bulk']} across the strip's 5 V at its input")


def miso_buffer(path: str) -> None:
    """One reader's MISO through a 74LVC1G125 whose OE is the reader's NSS; 10 kΩ pull-up keeps NSS high."""
    with schemdraw.Drawing(file=path, show=False) as d:
        d.config(fontsize=11, margin=1.5)
        ic = _chip(d, "74LVC1G125 (one per reader)", LVC1G125, ["A", "GND", "OE"], ["VCC", "Y"])
        d.add(elm.Line().left(2).at(ic.A).label("reader MISO", loc="left"))
        d.add(elm.Line().left(1).at(ic.OE))
        d.push()
        d.add(elm.Line().left(1).label("reader SDA (NSS) = its chip-select from the Pi", loc="left"))
        d.pop()
        d.add(elm.Resistor().up().label(f"{READER_BUFFER['pullup']} to 3.3 V"))
        d.add(elm.Line().left(1).at(ic.GND))
        d.add(elm.Ground())
        d.add(elm.Line().right(3).at(ic.Y).label(f"bus MISO: Pi GPIO{READER_BUFFER['gpio']} (header pin "
                                                 f"{READER_BUFFER['header_pin']})", loc="right"))
        d.add(elm.Line().right(1).at(ic.VCC))
        d.push()
        d.add(elm.Line().right(2).label("3.3 V (the readers' regulator)", loc="right"))
        d.pop()
        d.add(elm.Capacitor().down().label("100 nF"))
        d.add(elm.Ground())


def terminal_pixels(path: str) -> None:
    """Pico GP22 -> 74AHCT1G125 on VBUS -> 330 Ω -> the first pixel's DIN; OE to ground."""
    _shifter(path, "74AHCT1G125", LVC1G125, f"Pico GP{TERMINAL_PIXELS['gpio']} (pin {TERMINAL_PIXELS['pico_pin']})",
             "VBUS 5 V (Pico pin 40)", "pixel 1 DIN", f"{TERMINAL_PIXELS['bulk']} at the pixels")


CIRCUITS = {"strip-level-shifter": strip_shifter, "reader-miso-buffer": miso_buffer,
            "terminal-pixel-shifter": terminal_pixels}
"""Drawing name -> the function that draws it; read-only."""
