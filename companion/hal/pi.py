"""The `pi` backend: MFRC522 readers on SPI, a WS281x strip, gpiozero buttons and Pico terminals on USB serial.

Vendor libraries (spidev, rpi_ws281x, lgpio through gpiozero) are imported only here, when the backend is
opened; every opener can be injected so the whole backend runs in CI against the fake chip and fake buses.
Pin plan (hardware/README.md): readers on SPI1 (dtoverlay=spi1-3cs; CE0=GPIO18, CE1=GPIO17, CE2=GPIO16) and
GPIO chip-selects on spidev1.2 with CE2 left unconnected; the LED strip owns SPI0 (MOSI GPIO10) or a PWM pin.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from gpiozero.exc import GPIOZeroError

from companion.config import DEFAULT_SPI_HZ, LedConfig, ReaderConfig, TableConfig
from companion.hal import BackendError
from companion.hal.buttons import ButtonBank
from companion.hal.hardware import Hardware
from companion.hal.interfaces import LedStrip, ReaderError, TagReader
from companion.hal.leds import LedError, NullStrip, SpidevStrip, Ws281xStrip, config_shaper
from companion.hal.mfrc522 import Mfrc522, ScanStatus, SpiLike
from companion.hal.build import check_build
from companion.hal.pins import claim_failed, uses_gpio_cs
from companion.hal.terminal_link import SerialTerminalHub, find_terminals

FIELD_SETTLE_S = 0.005

SpiOpener = Callable[[int, int], SpiLike]


def open_spidev(bus: int, device: int) -> SpiLike:
    """/dev/spidev{bus}.{device}, mode 0, at the default clock (the reader sets its bus's `spi_hz` after)."""
    try:
        spidev = importlib.import_module("spidev")
    except ImportError as exc:
        raise OSError(f"spidev is missing: `sudo apt-get install python3-spidev`, and a venv made with "
                      f"--system-site-packages (systemd/install.sh does both): {exc}") from exc
    spi = spidev.SpiDev()
    spi.open(bus, device)
    spi.max_speed_hz = DEFAULT_SPI_HZ
    spi.mode = 0
    return spi  # type: ignore[no-any-return]


class GpioChipSelect:
    """An SPI transport whose chip-select is a GPIO driven around each transfer (readers beyond CE0-CE2)."""

    def __init__(self, spi: SpiLike, cs: Any) -> None:
        self._spi = spi
        self._cs = cs

    def xfer2(self, data: list[int]) -> list[int]:
        """One transfer with our chip-select held low."""
        self._cs.off()
        try:
            return self._spi.xfer2(data)
        finally:
            self._cs.on()

    def close(self) -> None:
        """Release the bus (the chip-select pin belongs to the reader)."""
        closer = getattr(self._spi, "close", None)
        if closer is not None:
            closer()


class ChipSelects:
    """The GPIO chip-selects of every reader sharing a bus: all driven high from the start, released together.

    A chip-select that floats (not yet, or no longer, an output) would select a second chip on the shared bus,
    so no pin is released while another reader may still talk.
    """

    def __init__(self, pins: list[int], pin_factory: Any = None) -> None:
        from gpiozero import DigitalOutputDevice

        self._devices: dict[int, Any] = {}
        self._users = 0
        for pin in pins:
            try:
                self._devices[pin] = DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)
            except Exception as exc:  # lgpio raises its own `error` ('GPIO busy'), not a GPIOZeroError
                self._users = 0
                self.give_back()
                raise claim_failed(exc, pin, "a reader chip-select") from None

    def take(self, pin: int) -> Any:
        """The output device for a pin; each taker must `give_back()` once."""
        self._users += 1
        return self._devices[pin]

    def give_back(self) -> None:
        """The last reader to give back its chip-select releases every pin."""
        self._users -= 1
        if self._users <= 0:
            for device in self._devices.values():
                device.close()
            self._devices.clear()


class Mfrc522Reader(TagReader):
    """A configured reader: opened lazily, re-initialised after a failure, errors as ReaderError."""

    def __init__(self, config: ReaderConfig, *, spi_opener: SpiOpener = open_spidev, pin_factory: Any = None,
                 chip_selects: ChipSelects | None = None, antenna_switching: bool | None = None,
                 spi_hz: int = DEFAULT_SPI_HZ, sleep: Callable[[float], None] = time.sleep,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.name = config.name
        self.config = config
        self._open_spi = spi_opener
        self._factory = pin_factory
        self._switching = config.antenna_switching if antenna_switching is None else antenna_switching
        self._hz = spi_hz
        self._crowded = False
        self._sleep = sleep
        self._monotonic = monotonic
        self._driver: Mfrc522 | None = None
        self._ready = False
        self._devices: list[Any] = []
        self._transport: Any = None
        self._version: int | None = None
        self._last: str | None = None
        self._group: ChipSelects | None = None
        self._cs: Any = None
        if uses_gpio_cs(config.bus, config.device, config.cs):
            assert config.cs is not None
            self._group = chip_selects or ChipSelects([config.cs], pin_factory)
            self._cs = self._group.take(config.cs)

    def _open(self) -> Mfrc522:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        cfg = self.config
        spi = self._open_spi(cfg.bus, cfg.device)
        if hasattr(spi, "max_speed_hz"):  # spidev: the bus's clock from `[[spi]] spi_hz`
            spi.max_speed_hz = self._hz
        transport: Any = spi
        if self._cs is not None:
            transport = GpioChipSelect(spi, self._cs)
        reset = irq = None
        try:
            if cfg.rst is not None:
                reset = DigitalOutputDevice(cfg.rst, initial_value=True, pin_factory=self._factory)
                self._devices.append(reset)
            if cfg.irq is not None:
                irq = DigitalInputDevice(cfg.irq, pull_up=True, pin_factory=self._factory)
                self._devices.append(irq)
        except Exception as exc:  # lgpio's 'GPIO busy' is not a GPIOZeroError
            self._transport = transport
            pin = cfg.rst if reset is None and cfg.rst is not None else cfg.irq
            error = claim_failed(exc, pin, f"reader {self.name}")
            raise ReaderError(error.message, error.code) from None
        self._transport = transport
        return Mfrc522(transport, reset=reset, irq=irq, gain_db=cfg.gain_db, sleep=self._sleep,
                       monotonic=self._monotonic)

    def _ensure(self) -> Mfrc522:
        try:
            if self._driver is None:
                self._driver = self._open()
            if not self._ready:
                health = self._driver.init()
                self._version = health.version
                if self._switching:
                    self._driver.antenna_off()
                self._ready = True
            return self._driver
        except ReaderError as exc:
            if self._driver is None:
                self._release()
            raise ReaderError(f"{exc.code}: {exc.message}", exc.code) from None
        except OSError as exc:
            self._release()
            raise ReaderError(f"cannot open spidev{self.config.bus}.{self.config.device}: {exc}", "reader_no_spi") from None
        except GPIOZeroError as exc:
            self._release()
            raise ReaderError(f"reader {self.name}: GPIO: {exc}", "reader_gpio") from None

    def version(self) -> int | None:
        """VersionReg, read when the reader is (re)initialised; ReaderError when nothing answers."""
        self._ensure()
        return self._version

    def crowded(self) -> bool:
        """Whether the last poll found more than one tag in the field."""
        return self._crowded

    def poll(self) -> str | None:
        """UID in upper-case hex, or None; an unreadable answer (CRC, parity) repeats the last UID (something is
        there). With two tags in the field only the one already resting here is reported (a newcomer is not)."""
        driver = self._ensure()
        try:
            if self._switching:
                driver.antenna_on()
                self._sleep(FIELD_SETTLE_S)
            try:
                scan = driver.scan(prefer=bytes.fromhex(self._last) if self._last else None)
            finally:
                if self._switching:
                    driver.antenna_off()
        except (ReaderError, OSError) as exc:
            self._ready = False  # the chip may have browned out: program it again before the next poll
            code = exc.code if isinstance(exc, ReaderError) else "reader_bus_error"
            raise ReaderError(f"{code}: {exc}", code) from None
        self._crowded = scan.crowded
        if scan.status is ScanStatus.TAG and scan.uid is not None:
            uid = scan.uid.hex().upper()
            if scan.crowded and uid != self._last:
                return None  # a second card came and the first is gone: neither counts until one is taken away
            self._last = uid
        elif scan.status is ScanStatus.EMPTY:
            self._last = None
        return self._last

    def _release(self) -> None:
        closer = getattr(self._transport, "close", None)
        if closer is not None:
            try:
                closer()
            except OSError:
                pass
        for device in self._devices:
            device.close()
        self._devices.clear()
        self._driver = None
        self._transport = None
        self._ready = False

    def close(self) -> None:
        """Switch the field off and release bus and pins."""
        if self._driver is not None and self._ready:
            try:
                self._driver.antenna_off()
            except (ReaderError, OSError):
                pass
        self._release()
        if self._group is not None:
            self._group.give_back()
            self._group = self._cs = None


def open_strip(leds: LedConfig, *, spi: Any = None, ws281x: Any = None) -> LedStrip:
    """The strip the config asks for: `spi` (spidev encoder, SPI0 MOSI, no root, Pi 5) or `pwm` (rpi-ws281x)."""
    if leds.pixels == 0:
        return NullStrip()
    shaper = config_shaper(leds)
    try:
        if leds.mode == "spi":
            if leds.pin != 10:
                raise BackendError("led_bad_pin", f"SPI mode drives the strip from GPIO10 (SPI0 MOSI), not GPIO{leds.pin}")
            return SpidevStrip(leds.pixels, shaper=shaper, spi=spi, bus=0, device=0)
        if leds.mode in ("pwm", "pcm"):
            return Ws281xStrip(leds.pixels, pin=leds.pin, shaper=shaper, module=ws281x)
    except LedError as exc:
        raise BackendError(exc.code, exc.message) from None
    raise BackendError("led_bad_mode", f"unknown LED mode {leds.mode!r} (spi or pwm)")


def check_gpio(pin_factory: Any) -> None:
    """Fail early, with what to install, when gpiozero has no pin library (not a Pi, or lgpio missing)."""
    if pin_factory is not None:
        return
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # the error below says it all
            if Device.pin_factory is None:
                Device.pin_factory = Device._default_pin_factory()
    except BadPinFactory:
        raise BackendError("gpio_unavailable", "no GPIO library: on Raspberry Pi OS install python3-lgpio and create "
                           "the venv with --system-site-packages (systemd/install.sh does)") from None


def open_hardware(config: TableConfig, *, spi_opener: SpiOpener = open_spidev, pin_factory: Any = None,
                  led_spi: Any = None, ws281x: Any = None,
                  discover: Callable[[], list[str]] | None = find_terminals,
                  sleep: Callable[[float], None] = time.sleep, monotonic: Callable[[], float] = time.monotonic) -> Hardware:
    """The real device set for a table config (every opener, and the readers' clock, injectable for tests)."""
    check_build(config)
    if config.readers or config.buttons:
        check_gpio(pin_factory)
    selects = ChipSelects([r.cs for r in config.readers if uses_gpio_cs(r.bus, r.device, r.cs) and r.cs is not None], pin_factory)
    readers = [Mfrc522Reader(r, spi_opener=spi_opener, pin_factory=pin_factory, chip_selects=selects,
                             spi_hz=config.spi_bus(r.bus).spi_hz, sleep=sleep, monotonic=monotonic)
               for r in config.readers]
    strip = open_strip(config.leds, spi=led_spi, ws281x=ws281x)
    return Hardware(
        backend="pi",
        readers=readers,
        strip=strip,
        buttons=ButtonBank(config.buttons, pin_factory=pin_factory, bounce_s=0.02),
        terminals=SerialTerminalHub(config.terminals.ports,
                                    discover=discover if config.terminals.discover is not False else None),
        interval_s=config.polling.interval_ms / 1000,
        removal_s=config.polling.removal_ms / 1000,
        confirm_polls=config.polling.confirm_polls,
    )
