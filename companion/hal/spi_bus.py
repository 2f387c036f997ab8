"""SPI timing of a reader bus: how fast a bus of N readers on leads of L cm may be clocked, by rise-time arithmetic.

In SPI mode 0 a reader shifts MISO out after SCK falls and the Pi samples it when SCK rises again: the answer
has half a clock period to travel the lead out and back, leave the chip, pass its 74LVC1G125, and rise on a
line that every reader's pins and the cable load. Half the half-period is kept spare (SAFETY). The figures are
datasheet maxima or common cable values; `hardware/README.md` works the reference builds through.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import DEFAULT_SPI_HZ, MAX_LEAD_CM, TableConfig
from companion.hal import BackendError

PIN_PF = 15.0
"""Per reader and line: its MFRC522 pin (~5 pF), the 74LVC1G125 output when off (~5 pF) and the module's trace."""
PI_PIN_PF = 5.0
"""The Pi's own pin."""
CABLE_PF_PER_CM = 0.5
"""Ribbon or servo cable with a ground beside each signal: about 50 pF per metre."""
PI_DRIVE_OHM = 40.0
"""A Pi GPIO at its default 8 mA drive, as an output resistance (3.3 V across it at 80 mA short-circuit)."""
BUFFER_DRIVE_OHM = 15.0
"""A 74LVC1G125 at 3.3 V (±24 mA outputs)."""
PULLUP_OHM = 2200.0
"""The old fix: a 2.2 kOhm pull-up raising MISO through a diode per reader."""
DIODE_PF = 110.0
"""A 1N5819's junction capacitance at low reverse voltage (its datasheet: ~110 pF)."""
PROPAGATION_NS_PER_CM = 0.05
"""Signals travel a cable at about two thirds of the speed of light: 5 ns per metre."""
CHIP_OUTPUT_NS = 50.0
"""MFRC522: SCK falling to MISO valid (a cautious figure; its SPI runs up to 10 Mbit/s)."""
BUFFER_NS = 4.5
"""74LVC1G125 propagation delay at 3.3 V (maximum)."""
SETUP_NS = 5.0
"""The Pi's SPI input setup time."""
SAFETY = 2.0
"""Only half of the half-period is spent: the rest is spare for what the figures leave out (ringing, skew)."""
RISE = 2.2
"""10-90 % rise time of an RC line, in time constants."""


@dataclass(frozen=True)
class BusTiming:
    """The arithmetic for one bus: its capacitance, rise times, the answer's path, and the fastest safe clock."""

    readers: int
    lead_cm: float
    line_pf: float
    sck_rise_ns: float
    miso_rise_ns: float
    path_ns: float
    max_hz: float

    def half_period_ns(self, hz: float) -> float:
        """Half a clock period: the time a MISO bit has to arrive."""
        return 1e9 / hz / 2


def bus_timing(readers: int, lead_cm: float, diodes: bool = False) -> BusTiming:
    """The timing of a bus of `readers` on leads of `lead_cm` (the farthest reader); `diodes`: the old MISO fix."""
    line_pf = readers * PIN_PF + lead_cm * CABLE_PF_PER_CM + PI_PIN_PF
    sck_rise = RISE * PI_DRIVE_OHM * line_pf * 1e-3
    if diodes:
        miso_rise = RISE * PULLUP_OHM * (line_pf + readers * DIODE_PF) * 1e-3
        buffer = 0.0
    else:
        miso_rise = RISE * BUFFER_DRIVE_OHM * line_pf * 1e-3
        buffer = BUFFER_NS
    path = 2 * lead_cm * PROPAGATION_NS_PER_CM + sck_rise + CHIP_OUTPUT_NS + buffer + miso_rise + SETUP_NS
    return BusTiming(readers, lead_cm, line_pf, sck_rise, miso_rise, path, 1e9 / (2 * path * SAFETY))


def check_spi(cfg: TableConfig) -> dict[int, BusTiming]:
    """Each reader bus's timing; BackendError `spi_too_fast` or `spi_lead_too_long` with the figure and limit."""
    out: dict[int, BusTiming] = {}
    if cfg.backend != "pi":
        return out
    for bus in sorted({r.bus for r in cfg.readers}):
        setting = cfg.spi_bus(bus)
        if setting.lead_cm > MAX_LEAD_CM:
            raise BackendError("spi_lead_too_long", f"SPI{bus}: leads of {setting.lead_cm} cm, the limit is "
                               f"{MAX_LEAD_CM} cm (SPI is a board-level bus): put the seat readers in the seat "
                               "terminals (hardware/README.md, reference builds)")
        timing = bus_timing(sum(1 for r in cfg.readers if r.bus == bus), setting.lead_cm)
        if setting.spi_hz > timing.max_hz:
            raise BackendError("spi_too_fast", f"SPI{bus}: spi_hz {setting.spi_hz} is above the {timing.max_hz / 1e6:.2f} MHz "
                               f"that {timing.readers} reader(s) on {setting.lead_cm} cm leads allow (a MISO bit needs "
                               f"{timing.path_ns:.0f} ns, twice over): lower spi_hz (default {DEFAULT_SPI_HZ})")
        out[bus] = timing
    return out
