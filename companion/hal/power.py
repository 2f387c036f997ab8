"""The table's power budget from datasheet figures: every part's worst-case current, each rail against its supply.

One model for `check-config` (it refuses a table whose loads exceed a supply, with the figure and the limit),
`companion bench` (the figures the builder's docs quote) and the drawings. Figures are maximum or worst-case
currents from the parts' datasheets; a supply may be loaded to MARGIN of its rating.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.config import TableConfig
from companion.hal import BackendError

MARGIN = 0.8
"""A supply or regulator is loaded to at most 80 % of its rating (ageing, heat, tolerance of the figures)."""

READER_TX_MA = 100.0
"""MFRC522 transmitter supply current ITVDD with the field on: 60 mA typical, 100 mA maximum (NXP datasheet)."""
READER_CORE_MA = 17.0
"""MFRC522 analog, digital and PVDD supplies together, about 17 mA (NXP datasheet)."""
READER_MA = READER_TX_MA + READER_CORE_MA
PIXEL_CHANNEL_MA = 20.0
"""One fully lit WS2812B colour channel (three per pixel: 60 mA at full white)."""
PIXEL_IDLE_MA = 1.0
"""A dark WS2812B's own driver chip."""
PICO_MA = 50.0
"""Raspberry Pi Pico running MicroPython with USB active, at 5 V (RP2040 + its buck-boost; ~25 mA typical)."""
PICO_3V3_MA = 300.0
"""Raspberry Pi Pico datasheet: keep the load on its 3V3(OUT) pin below 300 mA."""
PICO_3V3_EFFICIENCY = 0.85
"""The Pico's RT6150B buck-boost, 5 V to 3.3 V (about 90 % at these loads; 85 % budgeted)."""
DISPLAY_MA = 25.0
"""SSD1306 128x64 OLED module with every pixel lit (about 20 mA)."""
LOGIC_MA = 0.1
"""A 74AHCT125 or 74LVC1G125 (40 µA and 10 µA maximum quiescent): counted, never the problem."""
USB_PORT_MA = 500.0
"""USB 2.0: what one port of a powered hub may deliver."""
HUB_OWN_MA = 100.0
"""The hub's own controller."""
PI_3V3_HEADER_MA = 300.0
"""The Pi's 3V3 header pins: Raspberry Pi publishes no rating; 300 mA is a cautious figure (the Pi itself
runs from the same rail). Readers beyond two go on their own 3.3 V regulator (`[power] reader_rail_ma`)."""
PI_BOARD_MA = {"pi4": 1300.0, "pi5": 1600.0}
"""The board itself under full load at 5 V (no USB devices: the terminals are on the powered hub)."""
PI_SUPPLY_MA = {"pi4": 3000.0, "pi5": 5000.0}
"""The official supplies: 5.1 V 3 A (Pi 4), 5.1 V 5 A (Pi 5)."""
PIXELS_PER_FEED = 60
"""Feed 5 V into the strip every 60 pixels (1 m at 60/m) and at its end: thin copper drops the voltage."""
FUSE_STEPS_MA = (1000, 2000, 3000, 4000, 5000, 7500, 10000, 15000, 20000)
"""Standard blade (ATO/ATC) fuse ratings."""


@dataclass(frozen=True)
class Load:
    """One line of the budget: a rail, what draws from it, the worst-case current, and the rail's limit."""

    rail: str
    what: str
    milliamps: float
    limit_ma: float
    fix: str = ""
    limit_is: str = f"{MARGIN:.0%} of the rating"

    @property
    def ok(self) -> bool:
        """Whether the load stays within the limit (MARGIN of the rating already applied)."""
        return self.milliamps <= self.limit_ma


def pixel_ma(brightness: int) -> float:
    """One WS2812B's worst case (full white) at a brightness cap of 0..255."""
    return PIXEL_IDLE_MA + 3 * PIXEL_CHANNEL_MA * brightness / 255


def strip_ma(pixels: int, brightness: int, cap_ma: int | None) -> float:
    """The strip's worst case: every pixel white at the brightness cap, no more than the current cap allows."""
    full = pixels * pixel_ma(brightness)
    if cap_ma is None:
        return full
    return min(full, max(float(cap_ma), pixels * PIXEL_IDLE_MA))


def terminal_3v3_ma(reader: bool, display: bool) -> float:
    """What one terminal draws from its Pico's 3V3(OUT): its reader and display."""
    return (READER_MA if reader else 0.0) + (DISPLAY_MA if display else 0.0)


def terminal_ma(reader: bool, display: bool, pixels: int, brightness: int) -> float:
    """One seat terminal's worst case from its USB port at 5 V."""
    three = terminal_3v3_ma(reader, display) * 3.3 / 5.0 / PICO_3V3_EFFICIENCY
    return PICO_MA + three + pixels * pixel_ma(brightness) + (LOGIC_MA if pixels else 0.0)


def fuse_ma(load_ma: float) -> int:
    """The smallest standard fuse at least 125 % of a continuous load."""
    return next((f for f in FUSE_STEPS_MA if f >= 1.25 * load_ma), FUSE_STEPS_MA[-1])


def budget(cfg: TableConfig) -> list[Load]:
    """Every rail of a table with its worst-case load and limit (pi backend; other backends draw nothing here)."""
    if cfg.backend != "pi":
        return []
    power, term = cfg.power, cfg.terminals
    loads: list[Load] = []
    readers = len(cfg.readers)
    if readers:
        if power.reader_rail_ma:
            rail, limit = f"3.3 V regulator ({power.reader_rail_ma} mA)", power.reader_rail_ma * MARGIN
        else:
            rail, limit = "Pi 3V3 header pins", PI_3V3_HEADER_MA * MARGIN
        fix = ("use a bigger 3.3 V regulator" if power.reader_rail_ma else
               "feed the readers from a 3.3 V regulator ([power] reader_rail_ma = its rating in mA)")
        loads.append(Load(rail, f"{readers} reader(s) x {READER_MA:.0f} mA", readers * READER_MA + LOGIC_MA * readers,
                          limit, fix + ", or move the seat readers into the seat terminals"))
    pi_load = PI_BOARD_MA[power.pi] + (0.0 if power.reader_rail_ma else readers * READER_MA)
    loads.append(Load(f"{power.pi} 5 V supply ({PI_SUPPLY_MA[power.pi]:.0f} mA)", "the Pi board and its 3V3 loads",
                      pi_load, PI_SUPPLY_MA[power.pi] * MARGIN, "use the official supply"))
    if cfg.leds.pixels:
        load = strip_ma(cfg.leds.pixels, cfg.leds.brightness, cfg.leds.max_milliamps) + LOGIC_MA
        loads.append(Load(f"LED 5 V supply ({power.led_supply_ma} mA)",
                          f"{cfg.leds.pixels} pixels at brightness {cfg.leds.brightness}, capped at "
                          f"{cfg.leds.max_milliamps} mA", load, power.led_supply_ma * MARGIN,
                          "lower [leds] max_milliamps or brightness, or use a bigger supply ([power] led_supply_ma)"))
    if term.count:
        each = terminal_ma(term.reader, term.display, term.pixels, term.pixel_brightness)
        loads.append(Load("one terminal's 3V3(OUT)", "its reader and display",
                          terminal_3v3_ma(term.reader, term.display), PICO_3V3_MA, "leave the display out",
                          "the Pico datasheet's limit"))
        loads.append(Load("one hub port (USB 2.0, 500 mA)", f"a terminal: Pico, {term.pixels} pixels at brightness "
                          f"{term.pixel_brightness}{', reader' if term.reader else ''}"
                          f"{', display' if term.display else ''}", each, USB_PORT_MA,
                          "lower [terminals] pixel_brightness (and PIXEL_BRIGHTNESS in the firmware's config.py)",
                          "what a USB 2.0 port gives"))
        loads.append(Load(f"USB hub supply ({power.hub_ma} mA)", f"{term.count} terminals and the hub",
                          term.count * each + HUB_OWN_MA, power.hub_ma * MARGIN,
                          "use a hub with a bigger supply ([power] hub_ma = its rating in mA)"))
    return loads


def check_power(cfg: TableConfig) -> list[Load]:
    """The budget; BackendError `power_over_budget` naming the first rail whose load exceeds its limit."""
    loads = budget(cfg)
    if cfg.backend == "pi" and cfg.terminals.count > cfg.power.hub_ports:
        raise BackendError("hub_too_small", f"{cfg.terminals.count} terminals need {cfg.terminals.count} hub ports, the "
                           f"hub has {cfg.power.hub_ports} ([power] hub_ports): use a hub with more ports")
    for load in loads:
        if not load.ok:
            raise BackendError("power_over_budget", f"{load.rail}: {load.what} draw up to {load.milliamps:.0f} mA, "
                               f"the limit is {load.limit_ma:.0f} mA ({load.limit_is}): {load.fix}")
    return loads


def feed_points(pixels: int) -> int:
    """Where 5 V goes into the strip: its start, then every PIXELS_PER_FEED pixels, and its end when longer."""
    return 0 if pixels == 0 else 1 + math.ceil(pixels / PIXELS_PER_FEED) - (1 if pixels <= PIXELS_PER_FEED else 0)


def describe_power(loads: list[Load]) -> list[str]:
    """The budget as lines for `check-config`."""
    return [f"  power {load.rail}: {load.what}: {load.milliamps:.0f} mA of {load.limit_ma:.0f} mA" for load in loads]
