"""The GPIO plan of a Raspberry Pi table: one checker for `run`, `check-config` and `doctor`.

It knows what the boot config hands to the kernel (install.sh turns on `dtparam=spi=on`, i.e. SPI0 with
CE0/CE1, and `dtoverlay=spi1-3cs`): once an SPI bus is on, all its pins belong to the kernel's SPI driver,
whether or not a reader uses them, so a button on GPIO7, 8 or 16 never sees a press and lgpio refuses it as
busy. It also knows the PWM pins (PWM0 on 12/18, PWM1 on 13/19, which the on-board audio uses), the HAT
EEPROM pins (0, 1), and that the SPI LED strip owns SPI0 alone. No vendor library is imported here.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import TableConfig
from companion.hal import BackendError

SPI_PINS: dict[int, dict[int, str]] = {
    0: {9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK", 8: "SPI0 CE0", 7: "SPI0 CE1"},
    1: {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK", 18: "SPI1 CE0", 17: "SPI1 CE1", 16: "SPI1 CE2"},
}
"""Bus -> the pins its kernel driver claims (spi0-2cs and spi1-3cs); read-only."""
HARDWARE_CE: dict[tuple[int, int], int] = {(0, 0): 8, (0, 1): 7, (1, 0): 18, (1, 1): 17, (1, 2): 16}
"""(bus, device) -> the chip-select line /dev/spidev{bus}.{device} drives; read-only."""
BUS_OVERLAY: dict[int, str] = {0: "dtparam=spi=on", 1: "dtoverlay=spi1-3cs"}
"""Bus -> the config.txt line that turns it on; read-only."""
RESERVED_PINS: dict[int, str] = {0: "ID_SD (the HAT EEPROM's I2C)", 1: "ID_SC (the HAT EEPROM's I2C)"}
"""Pins the firmware reads at boot; read-only."""
PWM_PINS: dict[int, str] = {12: "PWM0", 18: "PWM0", 13: "PWM1", 19: "PWM1"}
"""Pins with a hardware PWM channel (rpi-ws281x's PWM mode; the on-board audio uses them too); read-only."""
HEADER_GPIOS = range(0, 28)


@dataclass(frozen=True)
class Boot:
    """What the boot config turned on; the default is what install.sh writes."""

    spi0: bool = True
    spi1: bool = True

    def buses(self) -> tuple[int, ...]:
        """The SPI buses the kernel owns."""
        return tuple(bus for bus, on in ((0, self.spi0), (1, self.spi1)) if on)


INSTALLED = Boot()


def uses_gpio_cs(bus: int, device: int, cs: int | None) -> bool:
    """Whether a reader's chip-select is a plain GPIO rather than its SPI device's own CE line."""
    return cs is not None and cs != HARDWARE_CE.get((bus, device))


def pin_plan(config: TableConfig, boot: Boot = INSTALLED) -> dict[int, str]:
    """GPIO -> its one job for a pi table; BackendError `pin_conflict` (or `spi_off`) names the first clash."""
    owner: dict[int, str] = {}
    for bus in boot.buses():
        for pin, line in SPI_PINS[bus].items():
            owner[pin] = f"{line} (the kernel owns it once {BUS_OVERLAY[bus]} is on)"
    for pin, what in RESERVED_PINS.items():
        owner[pin] = what
    jobs: dict[int, str] = {}

    def claim(pin: int | None, job: str, role: str | None = None) -> None:
        """Give `pin` its job; `role` is the kernel line the job legitimately is (e.g. "SPI1 CE0")."""
        if pin is None:
            return
        if pin not in HEADER_GPIOS:
            raise BackendError("pin_conflict", f"GPIO{pin} ({job}) is not on the 40-pin header (GPIO0-27)")
        if pin in jobs and jobs[pin] != job:
            raise BackendError("pin_conflict", f"GPIO{pin} is both {jobs[pin]} and {job}")
        if pin in owner and not (role is not None and owner[pin].startswith(role + " ")):
            raise BackendError("pin_conflict", f"GPIO{pin} ({job}) is {owner[pin]}: pick a free GPIO")
        jobs[pin] = job

    buses = {r.bus for r in config.readers}
    strip = config.leds.pixels > 0
    if strip and config.leds.mode == "spi":
        if 0 in buses:
            raise BackendError("pin_conflict", "the SPI LED strip owns SPI0 (it has no chip-select): put readers on SPI1")
        buses.add(0)
    for bus in sorted(buses):
        if bus not in SPI_PINS:
            raise BackendError("pin_conflict", f"SPI{bus} is not a bus this table knows (readers go on SPI1, the strip on SPI0)")
        if bus not in boot.buses():
            raise BackendError("spi_off", f"SPI{bus} is off: add `{BUS_OVERLAY[bus]}` to config.txt and reboot")
    hardware_cs = {(r.bus, r.device) for r in config.readers if not uses_gpio_cs(r.bus, r.device, r.cs)}
    for r in config.readers:
        if uses_gpio_cs(r.bus, r.device, r.cs):
            if (r.bus, r.device) in hardware_cs:
                raise BackendError("pin_conflict", f"reader {r.name} uses GPIO{r.cs} as chip-select on spidev{r.bus}."
                                   f"{r.device}, whose hardware chip-select another reader uses (use device 2, CE2 unconnected)")
            claim(r.cs, f"chip-select of reader {r.name}")
        else:
            ce = HARDWARE_CE.get((r.bus, r.device))
            if ce is None:
                raise BackendError("pin_conflict", f"reader {r.name}: spidev{r.bus}.{r.device} has no chip-select line")
            claim(ce, f"chip-select of reader {r.name}", SPI_PINS[r.bus][ce])
        claim(r.rst, f"reset of reader {r.name}")
        claim(r.irq, f"IRQ of reader {r.name}")
    if strip and config.leds.mode == "spi":
        claim(10, "LED data", "SPI0 MOSI")
    elif strip:  # PWM or PCM (rpi-ws281x); which pins a mode accepts is open_strip's to refuse
        channel = PWM_PINS.get(config.leds.pin, config.leds.mode.upper())
        claim(config.leds.pin, f"LED data ({channel}; needs dtparam=audio=off)")
    for b in config.buttons:
        claim(b.pin, f"button {b.key} of seat {b.seat}")
    return jobs


def check_pins(config: TableConfig, boot: Boot = INSTALLED) -> None:
    """Refuse a pi wiring where one GPIO has two jobs or a job on a pin the kernel owns (other backends: nothing)."""
    if config.backend == "pi":
        pin_plan(config, boot)


def claim_failed(exc: BaseException, pin: int | None, job: str) -> BackendError:
    """A pin library's refusal (lgpio's 'GPIO busy', gpiozero's errors) as a clean BackendError."""
    text = str(exc) or type(exc).__name__
    where = f"GPIO{pin} ({job})" if pin is not None else job
    if "busy" in text.lower():
        return BackendError("gpio_busy", f"{where} is busy: another process holds it (is the companion service "
                            "running? `sudo systemctl stop companion`) or the kernel owns it (an SPI, I2C or UART "
                            f"overlay); lgpio says: {text}")
    return BackendError("gpio_unavailable", f"{where}: {type(exc).__name__}: {text}")
