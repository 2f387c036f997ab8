"""`companion doctor [--config FILE]`: the first thing a builder runs — what hardware answers, and how.

Lists SPI devices and each configured reader's VersionReg, the seat terminals found on USB, shows an LED test
pattern and waits for each button. On a machine without SPI or GPIO it says so plainly and exits 1.
"""

from __future__ import annotations

import argparse
import glob
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.commands._config import add_config_arguments, config_from_args
from companion.config import TableConfig

HELP = "check the wiring: SPI readers, terminals, LEDs and buttons, one by one"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    add_config_arguments(parser)
    parser.add_argument("--no-leds", action="store_true", help="skip the LED test pattern")
    parser.add_argument("--no-buttons", action="store_true", help="do not wait for button presses")
    parser.add_argument("--button-timeout", type=float, default=10.0, help="seconds to wait for each button")


@dataclass
class Probe:
    """Where the doctor looks; every part is replaceable so tests can run it against fakes."""

    spi_devices: Callable[[], list[str]] = lambda: sorted(glob.glob("/dev/spidev*"))
    spi_opener: Any = None
    pin_factory: Any = None
    led_spi: Any = None
    ws281x: Any = None
    find_terminals: Callable[[], list[str]] | None = None
    sleep: Callable[[float], None] = time.sleep
    out: Callable[[str], None] = print
    problems: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        """Print a line."""
        self.out(text)

    def problem(self, text: str) -> None:
        """Print and remember a problem."""
        self.problems.append(text)
        self.out(f"  PROBLEM: {text}")


def board_model() -> str:
    """The Pi model from the device tree, or what this machine is."""
    try:
        with open("/proc/device-tree/model", encoding="ascii", errors="replace") as f:
            return f.read().strip("\x00\n ")
    except OSError:
        return f"not a Raspberry Pi ({os.uname().machine})"


def gpio_ready(probe: Probe) -> bool:
    """Whether gpiozero has a pin library here."""
    if probe.pin_factory is not None:
        return True
    from companion.hal import BackendError
    from companion.hal.pi import check_gpio

    try:
        check_gpio(None)
        return True
    except BackendError as exc:
        probe.problem(exc.message)
        return False


def check_spi(probe: Probe) -> list[str]:
    """List /dev/spidev* and explain what is missing."""
    probe.say("SPI devices:")
    devices = probe.spi_devices()
    for device in devices:
        probe.say(f"  {device}")
    if not devices:
        probe.problem("no SPI devices (/dev/spidev* missing): add `dtparam=spi=on` and `dtoverlay=spi1-3cs` to "
                      "/boot/firmware/config.txt and reboot")
    return devices


def check_readers(config: TableConfig, probe: Probe, gpio: bool) -> None:
    """Open each configured reader and read its VersionReg; check the chip's CRC unit against ours."""
    from companion.hal.interfaces import ReaderError
    from companion.hal.mfrc522 import classify_version
    from companion.hal.pi import Mfrc522Reader, open_spidev

    probe.say(f"Readers ({len(config.readers)} configured):")
    for rc in config.readers:
        where = f"spidev{rc.bus}.{rc.device}" + (f" cs GPIO{rc.cs}" if rc.cs is not None else "")
        needs_gpio = any(p is not None for p in (rc.cs, rc.rst, rc.irq))
        if needs_gpio and not gpio:
            probe.problem(f"{rc.name} ({where}): skipped, its chip-select/reset/IRQ lines need a GPIO library")
            continue
        reader = None
        try:
            reader = Mfrc522Reader(rc, spi_opener=probe.spi_opener or open_spidev, pin_factory=probe.pin_factory,
                                   sleep=probe.sleep)
            version = reader.version() or 0
            health = classify_version(version)
            crc_ok = reader._driver.self_test() if reader._driver is not None else False  # noqa: SLF001
            line = f"  {rc.name} ({where}, zone {rc.zone}): VersionReg 0x{version:02X} {health.label} ({health.verdict})"
            probe.say(line + ("" if crc_ok else " - CRC self-test FAILED (MISO/MOSI swapped or noisy?)"))
            if not health.ok or not crc_ok:
                probe.problems.append(f"{rc.name}: {health.verdict}")
        except ReaderError as exc:
            probe.problem(f"{rc.name} ({where}): {exc}")
        except Exception as exc:  # noqa: BLE001 - gpiozero pin errors and the like: report, keep going
            probe.problem(f"{rc.name} ({where}): {type(exc).__name__}: {exc}")
        finally:
            if reader is not None:
                reader.close()


def check_terminals(config: TableConfig, probe: Probe) -> None:
    """Find Picos on USB, say hello to each, and show which seat each is bound to."""
    from companion.hal.terminal_link import LinkUp, TerminalLink, find_terminals

    probe.say("Seat terminals (USB 2E8A:0005):")
    try:
        paths = (probe.find_terminals or find_terminals)()
    except Exception as exc:  # noqa: BLE001 - no /dev/serial, no permission: say so
        probe.problem(f"cannot list serial ports: {exc}")
        return
    if not paths:
        probe.say("  none found" + (" (config binds terminals to seats)" if config.terminal_seats() else ""))
        if config.terminal_seats():
            probe.problems.append("no terminals")
        return
    seats = config.terminal_seats()
    for path in paths:
        ups: list[LinkUp] = []
        heard = threading.Event()

        def emit(event: object, ups: list[LinkUp] = ups, heard: threading.Event = heard) -> None:
            if isinstance(event, LinkUp):
                ups.append(event)
                heard.set()

        link = TerminalLink(path, emit)
        deadline = time.monotonic() + 3.0
        while not heard.is_set() and time.monotonic() < deadline:
            link.step(time.monotonic())
        link.stop()
        if ups:
            seat = seats.get(ups[0].terminal)
            # the doctor reads the config only; bindings made on the host page (kept in the database) override it
            bound = (f"seat {seat} in the config" if seat is not None else
                     "not bound in the config (bind it from the host page, or add it to [[seats]] terminal)")
            probe.say(f"  {path}: {ups[0].terminal} firmware {ups[0].fw}, {bound}")
        else:
            probe.problem(f"{path}: no hello within 3 s (is the terminal firmware on it? is the port busy?)")


def check_leds(config: TableConfig, probe: Probe) -> None:
    """Red, green, blue, white across the strip, then a dot running along it, then off."""
    from companion.hal import BackendError
    from companion.hal.pi import open_strip

    leds = config.leds
    probe.say(f"LEDs: {leds.pixels} pixels, mode {leds.mode}, GPIO{leds.pin}")
    if leds.pixels == 0:
        return
    try:
        strip = open_strip(leds, spi=probe.led_spi, ws281x=probe.ws281x)
    except BackendError as exc:
        probe.problem(exc.message)
        return
    try:
        for name, colour in (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)), ("white", (255, 255, 255))):
            probe.say(f"  all {name}")
            strip.show([colour] * leds.pixels)
            probe.sleep(0.7)
        for i in range(leds.pixels):
            strip.show([(255, 255, 255) if j == i else (0, 0, 0) for j in range(leds.pixels)])
            probe.sleep(0.03)
        probe.say("  (every pixel should have lit in turn; a dark tail means a broken data line there)")
    except OSError as exc:
        probe.problem(f"LED write failed: {exc}")
    finally:
        strip.close()


def check_buttons(config: TableConfig, probe: Probe, timeout_s: float) -> None:
    """Ask for each button in turn and wait for its press."""
    from gpiozero import Button

    probe.say(f"Buttons ({len(config.buttons)} configured):")
    for spec in config.buttons:
        pressed = threading.Event()
        try:
            button = Button(spec.pin, pin_factory=probe.pin_factory)
        except Exception as exc:  # noqa: BLE001 - pin in use, no GPIO library
            probe.problem(f"GPIO{spec.pin}: {exc}")
            continue
        button.when_pressed = pressed.set
        probe.say(f"  press seat {spec.seat} '{spec.key}' (GPIO{spec.pin}) ...")
        if pressed.wait(timeout_s):
            probe.say("    ok")
        else:
            probe.problem(f"seat {spec.seat} '{spec.key}' (GPIO{spec.pin}): no press within {timeout_s:g} s")
        button.close()


def diagnose(config: TableConfig, probe: Probe, *, leds: bool = True, buttons: bool = True,
             button_timeout_s: float = 10.0) -> int:
    """Run every check; 0 when everything answered, 1 otherwise."""
    probe.say(f"Board: {board_model()}")
    if config.backend != "pi":
        probe.say(f"(the config uses the {config.backend} backend; checking its wiring as the pi backend would)")
    gpio = gpio_ready(probe)
    check_spi(probe)
    check_readers(config, probe, gpio)
    check_terminals(config, probe)
    if leds:
        check_leds(config, probe)
    if buttons and config.buttons:
        if gpio:
            check_buttons(config, probe, button_timeout_s)
        else:
            probe.problem("buttons skipped: no GPIO library")
    probe.say(f"{len(probe.problems)} problem(s)" if probe.problems else "everything answered")
    return 1 if probe.problems else 0


def run(args: argparse.Namespace) -> int:
    """Check the hardware the config describes."""
    config = config_from_args(args)
    if config is None:
        return 2
    return diagnose(config, Probe(), leds=not args.no_leds, buttons=not args.no_buttons,
                    button_timeout_s=args.button_timeout)
