"""`companion doctor [--config FILE] [--live]`: the first thing a builder runs — what hardware answers, and how.

Shows the setup (board, pin library, groups, SPI overlays, spidev buffer, core clock, the pin plan), stops
early when the companion service is running (it holds the GPIO lines and terminal ports), lists SPI devices
and each reader's VersionReg with every chip-select driven as the table drives them, the seat terminals found
on USB, shows an LED test pattern and waits for each button; `--live` then prints each reader's tag UID as
tags are tapped. Each distinct problem is printed once. Exit 0 when everything answered, 1 otherwise.
"""

from __future__ import annotations

import argparse
import glob
import importlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.commands._args import seconds, seconds_or_zero
from companion.commands._config import add_config_arguments, config_from_args
from companion.config import TableConfig
from companion.hal.pi_env import (BOOT_CONFIGS, BUFSIZ_PARAM, LED_BUFSIZ_BYTES_PER_PIXEL, ensure_lg_wd, missing_groups,
                                  read_boot_config, service_running, spidev_bufsiz)

HELP = "check the wiring: SPI readers, terminals, LEDs and buttons, one by one"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    add_config_arguments(parser)
    parser.add_argument("--no-leds", action="store_true", help="skip the LED test pattern")
    parser.add_argument("--no-buttons", action="store_true", help="do not wait for button presses")
    parser.add_argument("--button-timeout", type=seconds, default=10.0, help="seconds to wait for each button")
    parser.add_argument("--live", nargs="?", type=seconds_or_zero, const=0.0, default=None, metavar="SECONDS",
                        help="after the checks, print each reader's UID as tags are tapped (until Ctrl-C, or SECONDS)")


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
    monotonic: Callable[[], float] = time.monotonic
    out: Callable[[str], None] = print
    boot_configs: tuple[str, ...] = BOOT_CONFIGS
    bufsiz_param: str = BUFSIZ_PARAM
    service_running: Callable[[], bool | None] = service_running
    problems: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        """Print a line."""
        self.out(text)

    def problem(self, text: str) -> None:
        """Print and remember a problem; one already reported is only counted against it, not printed again."""
        if text in self.problems:
            return
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
    """Whether gpiozero has a pin library here; says which one it picked."""
    if probe.pin_factory is not None:
        probe.say(f"Pin library: {type(probe.pin_factory).__name__} (given)")
        return True
    from gpiozero import Device

    from companion.hal import BackendError
    from companion.hal.pi import check_gpio

    try:
        check_gpio(None)
    except BackendError as exc:
        probe.say("Pin library: none")
        probe.problem(exc.message)
        return False
    factory = type(Device.pin_factory).__name__
    probe.say(f"Pin library: {factory}")
    if factory != "LGPIOFactory":
        probe.problem(f"gpiozero chose {factory}, not lgpio: install python3-lgpio (venv with --system-site-packages)")
    return True


def check_setup(config: TableConfig, probe: Probe) -> None:
    """Groups, boot config (SPI overlays, core clock, audio), spidev's buffer and the pin plan."""
    from companion.hal import BackendError
    from companion.hal.pins import pin_plan

    missing = missing_groups()
    probe.say(f"Groups: {'gpio, spi, dialout: ok' if not missing else 'missing ' + ', '.join(missing)}")
    if missing:
        probe.problem(f"this user is not in {', '.join(missing)}: run as the service user "
                      "(sudo -u companion ...) or add it (sudo usermod -a -G gpio,spi,dialout $USER, then log in again)")
    boot = read_boot_config(probe.boot_configs)
    if boot.path is None:
        probe.say("Boot config: no config.txt found (not a Pi?)")
    else:
        probe.say(f"Boot config {boot.path}: SPI0 {'on' if boot.spi0 else 'off'}, SPI1 (spi1-3cs) "
                  f"{'on' if boot.spi1 else 'off'}, core clock {', '.join(boot.core_freq) or 'not pinned'}")
        if config.leds.pixels and config.leds.mode == "spi" and not any("core_freq_min" in c for c in boot.core_freq):
            probe.problem("the core clock is not pinned: on a Pi 3/4 the SPI LED timing drifts as it idles "
                          "(add core_freq=500 and core_freq_min=500 on a Pi 4; systemd/install.sh does)")
        if config.leds.pixels and config.leds.mode == "pwm" and boot.audio_on:
            probe.problem("dtparam=audio=on: the on-board audio uses the PWM the strip needs (set dtparam=audio=off)")
    bufsiz = spidev_bufsiz(probe.bufsiz_param)
    needed = config.leds.pixels * LED_BUFSIZ_BYTES_PER_PIXEL + 240 if config.leds.mode == "spi" else 0
    probe.say(f"spidev buffer: {bufsiz if bufsiz is not None else 'unknown (spidev not loaded)'} bytes"
              + (f", one LED frame needs {needed}" if needed else ""))
    if bufsiz is not None and needed > bufsiz:
        probe.problem(f"spidev.bufsiz={bufsiz} is below one LED frame ({needed} bytes): add spidev.bufsiz=32768 "
                      "to cmdline.txt")
    try:
        pin_plan(config, boot.boot())
        probe.say("Pins: no GPIO has two jobs, none is one the kernel owns")
    except BackendError as exc:
        probe.problem(f"{exc.code}: {exc.message}")
    from companion.hal.power import check_power, describe_power
    from companion.hal.spi_bus import check_spi as check_timing

    for check, title in ((check_timing, "Reader bus timing"), (check_power, "Power budget (datasheet maxima)")):
        try:
            result = check(config)
        except BackendError as exc:
            probe.problem(f"{exc.code}: {exc.message}")
            continue
        lines = describe_power(result) if isinstance(result, list) else [
            f"  SPI{bus}: a MISO bit needs {t.path_ns:.0f} ns, safe up to {t.max_hz / 1e6:.1f} MHz, set to "
            f"{config.spi_bus(bus).spi_hz} Hz" for bus, t in result.items()]
        if lines:
            probe.say(f"{title}:")
            for line in lines:
                probe.say(line)


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


def spidev_missing(probe: Probe) -> str | None:
    """Why real SPI cannot be opened here (spidev not importable), checked once for every reader and the strip."""
    if probe.spi_opener is not None:
        return None
    try:
        importlib.import_module("spidev")
    except ImportError:
        return ("spidev is missing: `sudo apt-get install python3-spidev`, and a venv made with "
                "--system-site-packages (systemd/install.sh does both)")
    return None


def open_readers(config: TableConfig, probe: Probe) -> tuple[list[Any], Any]:
    """Every configured reader, with all GPIO chip-selects driven high together first, as the table does:
    a floating chip-select would answer alongside the reader being probed."""
    from companion.hal.pi import ChipSelects, Mfrc522Reader, open_spidev
    from companion.hal.pins import uses_gpio_cs

    pins = [r.cs for r in config.readers if r.cs is not None and uses_gpio_cs(r.bus, r.device, r.cs)]
    selects = ChipSelects(pins, probe.pin_factory)
    readers = [Mfrc522Reader(rc, spi_opener=probe.spi_opener or open_spidev, pin_factory=probe.pin_factory,
                             chip_selects=selects, spi_hz=config.spi_bus(rc.bus).spi_hz, sleep=probe.sleep,
                             monotonic=probe.monotonic) for rc in config.readers]
    return readers, selects


def check_readers(config: TableConfig, probe: Probe, gpio: bool) -> list[Any]:
    """Read each reader's VersionReg and check the chip's CRC unit against ours; returns the readers that answered."""
    from companion.hal import BackendError
    from companion.hal.interfaces import ReaderError
    from companion.hal.mfrc522 import classify_version

    probe.say(f"Readers ({len(config.readers)} configured):")
    if not config.readers:
        return []
    why = spidev_missing(probe)
    if why is not None:
        probe.problem(why)
        probe.say(f"  (skipped: {', '.join(r.name for r in config.readers)})")
        return []
    if not gpio and any(p is not None for r in config.readers for p in (r.cs, r.rst, r.irq)):
        probe.problem("readers skipped: their chip-select/reset/IRQ lines need a GPIO library")
        probe.say(f"  (skipped: {', '.join(r.name for r in config.readers)})")
        return []
    try:
        readers, _ = open_readers(config, probe)
    except BackendError as exc:
        probe.problem(f"{exc.code}: {exc.message}")
        return []
    answered = []
    for reader in readers:
        rc = reader.config
        where = f"spidev{rc.bus}.{rc.device}" + (f" cs GPIO{rc.cs}" if rc.cs is not None else "")
        try:
            version = reader.version() or 0
            health = classify_version(version)
            crc_ok = reader._driver.self_test() if reader._driver is not None else False  # noqa: SLF001
            line = f"  {rc.name} ({where}, zone {rc.zone}): VersionReg 0x{version:02X} {health.label} ({health.verdict})"
            probe.say(line + ("" if crc_ok else " - CRC self-test FAILED (MISO/MOSI swapped or noisy?)"))
            if not health.ok or not crc_ok:
                probe.problems.append(f"{rc.name}: {health.verdict}")
            else:
                answered.append(reader)
        except ReaderError as exc:
            probe.problem(f"{rc.name} ({where}): {exc}")
        except Exception as exc:  # noqa: BLE001 - gpiozero pin errors and the like: report, keep going
            probe.problem(f"{rc.name} ({where}): {type(exc).__name__}: {exc}")
    for reader in readers:
        if reader not in answered:
            reader.close()
    return answered


def live(readers: list[Any], probe: Probe, seconds: float) -> None:
    """Print each reader's tag as it is placed and removed (the shared poller's debounce), until Ctrl-C or `seconds`."""
    from companion.hal.events import ReaderFault, TagPlaced, TagRemoved, TagsCrowded
    from companion.hal.readers import ReaderPoller

    def show(event: object) -> None:
        if isinstance(event, TagPlaced):
            probe.say(f"  {event.reader}: {event.uid}")
        elif isinstance(event, TagRemoved):
            probe.say(f"  {event.reader}: (removed {event.uid})")
        elif isinstance(event, TagsCrowded):
            probe.say(f"  {event.reader}: two or more tags at once (a reader reads one: take one away)")
        elif isinstance(event, ReaderFault):
            probe.say(f"  {event.reader}: fault {event.error}")

    probe.say(f"Live: tap tags on the readers ({', '.join(r.name for r in readers)}); "
              + (f"{seconds:g} s" if seconds > 0 else "Ctrl-C to stop"))
    poller = ReaderPoller(readers, show, interval_s=0.02)
    poller.start()
    try:
        deadline = time.monotonic() + seconds if seconds > 0 else None
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        poller.stop()


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
    why = spidev_missing(probe) if leds.mode == "spi" and probe.led_spi is None else None
    if why is not None:
        probe.problem(why)
        probe.say("  (LED test skipped)")
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
    from gpiozero import DigitalInputDevice

    from companion.hal.pins import claim_failed

    probe.say(f"Buttons ({len(config.buttons)} configured):")
    for spec in config.buttons:
        pressed = threading.Event()
        try:
            button = DigitalInputDevice(spec.pin, pull_up=True, pin_factory=probe.pin_factory)
        except Exception as exc:  # noqa: BLE001 - lgpio's 'GPIO busy', no GPIO library
            error = claim_failed(exc, spec.pin, f"button {spec.key} of seat {spec.seat}")
            probe.problem(f"{error.code}: {error.message}")
            continue
        button.when_activated = pressed.set
        probe.say(f"  press seat {spec.seat} '{spec.key}' (GPIO{spec.pin}) ...")
        if pressed.wait(timeout_s):
            probe.say("    ok")
        else:
            probe.problem(f"seat {spec.seat} '{spec.key}' (GPIO{spec.pin}): no press within {timeout_s:g} s")
        button.close()


def diagnose(config: TableConfig, probe: Probe, *, leds: bool = True, buttons: bool = True,
             button_timeout_s: float = 10.0, live_s: float | None = None) -> int:
    """Run every check (then the live view, when asked); 0 when everything answered, 1 otherwise."""
    probe.say(f"Board: {board_model()}")
    if config.backend != "pi":
        probe.say(f"(the config uses the {config.backend} backend; checking its wiring as the pi backend would)")
    if probe.pin_factory is None:
        probe.say(f"lgpio work directory (LG_WD): {ensure_lg_wd()}")
    gpio = gpio_ready(probe)
    check_setup(config, probe)
    if probe.service_running():
        probe.problem("the companion service is running and holds the GPIO lines and terminal ports, so every "
                      "check would fail: stop it first (sudo systemctl stop companion), run the doctor, then "
                      "sudo systemctl start companion")
        probe.say(f"{len(probe.problems)} problem(s)")
        return 1
    check_spi(probe)
    readers = check_readers(config, probe, gpio)
    try:
        check_terminals(config, probe)
        if leds:
            check_leds(config, probe)
        if buttons and config.buttons:
            if gpio:
                check_buttons(config, probe, button_timeout_s)
            else:
                probe.problem("buttons skipped: no GPIO library")
        probe.say(f"{len(probe.problems)} problem(s)" if probe.problems else "everything answered")
        if live_s is not None:
            if readers:
                live(readers, probe, live_s)
            else:
                probe.say("Live: no reader answered, nothing to show")
    finally:
        for reader in readers:
            reader.close()
    return 1 if probe.problems else 0


def run(args: argparse.Namespace) -> int:
    """Check the hardware the config describes."""
    config = config_from_args(args)
    if config is None:
        return 2
    return diagnose(config, Probe(), leds=not args.no_leds, buttons=not args.no_buttons,
                    button_timeout_s=args.button_timeout, live_s=args.live)
