"""One check of a Pi table's build for `run`, `check-config` and `doctor`: pins, reader bus timing, power."""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import TableConfig
from companion.hal.pins import INSTALLED, Boot, pin_plan
from companion.hal.power import Load, check_power, describe_power, feed_points
from companion.hal.spi_bus import BusTiming, check_spi


@dataclass(frozen=True)
class Build:
    """What a config asks of the hardware, once checked."""

    pins: dict[int, str]
    buses: dict[int, BusTiming]
    loads: list[Load]

    def describe(self, cfg: TableConfig) -> list[str]:
        """Lines for `check-config`: each bus's margin and each rail's load."""
        lines = [f"  SPI{bus} timing: a MISO bit needs {t.path_ns:.0f} ns; {cfg.spi_bus(bus).spi_hz} Hz gives "
                 f"{t.half_period_ns(cfg.spi_bus(bus).spi_hz):.0f} ns (safe up to {t.max_hz / 1e6:.1f} MHz)"
                 for bus, t in self.buses.items()]
        lines += describe_power(self.loads)
        if cfg.backend == "pi" and cfg.leds.pixels:
            lines.append(f"  LED strip: feed 5 V in at {feed_points(cfg.leds.pixels)} point(s)")
        return lines


def check_build(cfg: TableConfig, boot: Boot = INSTALLED) -> Build:
    """Refuse (BackendError) a pi table whose pins clash, whose reader bus is too long or fast, or whose loads
    exceed a supply; other backends pass with an empty build."""
    if cfg.backend != "pi":
        return Build({}, {}, [])
    return Build(pin_plan(cfg, boot), check_spi(cfg), check_power(cfg))
