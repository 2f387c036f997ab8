"""`companion doctor`: harmless and clear on a machine without SPI; informative against fake hardware."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cli import main
from companion.commands.doctor import Probe, diagnose
from companion.config import ButtonConfig, LedConfig, PowerConfig, ReaderConfig, SeatConfig, TableConfig
from companion.hal.leds import decode_spi
from companion.hal.testing.fake_mfrc522 import DeadBus, FakeMfrc522, VirtualClock
from tests.firmware.device import SimTerminal
from tests.firmware.runtimes import interpreters
from tests.hal.test_leds import RecordingSpi


def test_doctor_on_a_machine_without_spi_explains_and_never_tracebacks(capsys: pytest.CaptureFixture[str]) -> None:
    table = Path(__file__).resolve().parents[2] / "hardware" / "tables" / "pi-4-seats.toml"
    code = main(["doctor", "--config", str(table), "--no-buttons", "--no-leds"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "dtparam=spi=on" in out and "Traceback" not in out + err
    assert "seat0" in out and "board" in out


def test_doctor_reports_versions_terminals_leds_and_buttons(tmp_path: Path) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    clock = VirtualClock()
    chips = {(1, 0): FakeMfrc522(clock=clock, version=0x92), (1, 1): FakeMfrc522(clock=clock, version=0x88)}

    def opener(bus: int, device: int) -> object:
        return chips.get((bus, device)) or DeadBus(0xFF)

    terminal = SimTerminal(tmp_path, interpreters()[-1][1])
    terminal.plug()
    config = TableConfig(
        backend="pi", seats=(SeatConfig("Ann", terminal=terminal.terminal_id),),
        readers=(ReaderConfig("seat0", "seat:0", 1, 0), ReaderConfig("seat1", "seat:1", 1, 1),
                 ReaderConfig("board", "board", 1, 2)),
        leds=LedConfig(pixels=5, pin=10, mode="spi", brightness=255),
        buttons=(ButtonConfig(pin=4, seat=0, key="ja"),),
    )
    lines: list[str] = []
    spi = RecordingSpi()
    timers: list[threading.Timer] = []

    def press() -> None:
        factory.pin(4).drive_low()
        factory.pin(4).drive_high()

    def out(line: str) -> None:  # a person at the table: presses the button the doctor asks for
        lines.append(line)
        if "press seat 0 'ja'" in line:
            timers.append(threading.Timer(0.05, press))
            timers[-1].start()

    try:
        code = diagnose(config, Probe(spi_devices=lambda: ["/dev/spidev1.0", "/dev/spidev1.1"], spi_opener=opener,
                                      pin_factory=factory, led_spi=spi, find_terminals=lambda: [terminal.path],
                                      sleep=lambda s: None, out=out), button_timeout_s=5)
    finally:
        for timer in timers:
            timer.join()
        terminal.unplug()
        factory.reset()
    text = "\n".join(lines)
    assert "seat0 (spidev1.0, zone seat:0): VersionReg 0x92 MFRC522 v2.0 (genuine)" in text
    assert "VersionReg 0x88 FM17522 clone (clone)" in text
    assert "board (spidev1.2): reader_absent" in text
    assert f"{terminal.terminal_id} firmware 0.4.0, seat 0" in text
    assert "    ok" in text
    frames = [decode_spi(w) for w in spi.writes]
    assert frames[0] == bytes((0, 255, 0)) * 5, "all red first (GRB on the wire)"
    assert sum(1 for f in frames if f.count(255) == 3 and sum(f) == 3 * 255) == 5, "a dot ran over every pixel"
    assert code == 1, "the absent board reader is a problem"


def quiet_probe(lines: list[str], **kwargs: object) -> Probe:
    """A probe that finds no SPI devices, no terminals and no service unless told otherwise."""
    defaults: dict[str, object] = {"spi_devices": lambda: ["/dev/spidev1.2"], "find_terminals": lambda: [],
                                   "sleep": lambda s: None, "out": lines.append, "service_running": lambda: False,
                                   "boot_configs": (), "bufsiz_param": "/nonexistent"}
    defaults.update(kwargs)
    return Probe(**defaults)  # type: ignore[arg-type]


def test_doctor_stops_before_probing_when_the_service_holds_the_hardware() -> None:
    opened: list[tuple[int, int]] = []
    lines: list[str] = []
    config = TableConfig(backend="pi", readers=(ReaderConfig("seat0", "seat:0", 1, 0),))
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        code = diagnose(config, quiet_probe(lines, service_running=lambda: True, pin_factory=factory,
                                            spi_opener=lambda b, d: opened.append((b, d))))
    finally:
        factory.reset()
    text = "\n".join(lines)
    assert code == 1 and "sudo systemctl stop companion" in text and "sudo systemctl start companion" in text
    assert opened == [] and "Readers" not in text


def test_doctor_drives_every_gpio_chip_select_while_probing_each_reader() -> None:
    from tests.hal.test_pi_backend import FakeSpiBus

    factory = MockFactory(pin_class=MockPWMPin)
    clock = VirtualClock()
    bus = FakeSpiBus(factory)
    bus.gpio_chips = {5: FakeMfrc522(clock=clock, version=0x91), 6: FakeMfrc522(clock=clock, version=0x92),
                      12: FakeMfrc522(clock=clock, version=0x88)}
    config = TableConfig(backend="pi", readers=tuple(ReaderConfig(f"r{pin}", f"seat:{i}", 1, 2, cs=pin)
                                                     for i, pin in enumerate((5, 6, 12))),
                         power=PowerConfig(reader_rail_ma=1500))
    lines: list[str] = []
    try:
        code = diagnose(config, quiet_probe(lines, pin_factory=factory, spi_opener=lambda b, d: bus,
                                            monotonic=clock.monotonic, sleep=clock.sleep), leds=False)
    finally:
        factory.reset()
    text = "\n".join(lines)
    assert "selected at once" not in text, text
    assert "VersionReg 0x91" in text and "VersionReg 0x92" in text and "VersionReg 0x88" in text
    assert code == 0, text


def test_doctor_shows_the_boot_config_buffer_and_pin_plan_and_prints_each_problem_once(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=spi=on\n[all]\n")  # SPI1 missing, core clock not pinned
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    config = TableConfig(backend="pi", readers=(ReaderConfig("seat0", "seat:0", 1, 0), ReaderConfig("seat1", "seat:1", 1, 1)),
                         leds=LedConfig(pixels=400, pin=10, mode="spi"))
    lines: list[str] = []
    code = diagnose(config, quiet_probe(lines, boot_configs=(str(boot),), bufsiz_param=str(bufsiz),
                                        pin_factory=MockFactory(pin_class=MockPWMPin), spi_opener=None),
                    buttons=False)
    text = "\n".join(lines)
    assert code == 1
    assert f"Boot config {boot}: SPI0 on, SPI1 (spi1-3cs) off, core clock not pinned" in text
    assert "core_freq_min=500" in text and "spidev.bufsiz=4096 is below one LED frame (5040 bytes)" in text
    assert "spi_off: SPI1 is off: add `dtoverlay=spi1-3cs`" in text
    problems = [line for line in lines if "PROBLEM" in line]
    assert len(problems) == len(set(problems))
    assert text.count("spidev is missing") <= 1, "one line for every reader and the strip"


def test_lg_wd_points_somewhere_writable_before_lgpio_loads(tmp_path: Path) -> None:
    from companion.hal.pi_env import ensure_lg_wd

    env = {"LG_WD": "/nonexistent/dir", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert ensure_lg_wd(env) == str(tmp_path) and env["LG_WD"] == str(tmp_path)


def test_doctor_live_prints_each_readers_uid_as_tags_are_tapped() -> None:
    import time

    from companion.hal.testing.fake_mfrc522 import WallClock

    chips = {(1, 0): FakeMfrc522(clock=WallClock(), transfer_s=0.0), (1, 1): FakeMfrc522(clock=WallClock(), transfer_s=0.0)}
    config = TableConfig(backend="pi", readers=(ReaderConfig("seat0", "seat:0", 1, 0), ReaderConfig("seat1", "seat:1", 1, 1)))
    lines: list[str] = []
    factory = MockFactory(pin_class=MockPWMPin)
    tap = threading.Timer(0.3, lambda: chips[(1, 1)].place(bytes.fromhex("04a1b2c3d4e5f6")))
    tap.start()
    try:
        code = diagnose(config, quiet_probe(lines, pin_factory=factory, spi_opener=lambda b, d: chips[(b, d)],
                                            sleep=time.sleep, monotonic=time.monotonic), live_s=1.5)
    finally:
        tap.join()
        factory.reset()
    assert code == 0
    assert "  seat1: 04A1B2C3D4E5F6" in lines
    assert not any(line.startswith("  seat0: ") for line in lines)
