"""`companion doctor`: harmless and clear on a machine without SPI; informative against fake hardware."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cli import main
from companion.commands.doctor import Probe, diagnose
from companion.config import ButtonConfig, LedConfig, ReaderConfig, SeatConfig, TableConfig
from companion.hal.leds import decode_spi
from companion.hal.testing.fake_mfrc522 import DeadBus, FakeMfrc522, VirtualClock
from tests.firmware.device import SimTerminal
from tests.firmware.runtimes import interpreters
from tests.hal.test_leds import RecordingSpi


def test_doctor_on_a_machine_without_spi_explains_and_never_tracebacks(capsys: pytest.CaptureFixture[str]) -> None:
    table = Path(__file__).resolve().parents[2] / "hardware" / "tables" / "pi-5-seats.toml"
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
    assert f"{terminal.terminal_id} firmware 0.1.0, seat 0" in text
    assert "    ok" in text
    frames = [decode_spi(w) for w in spi.writes]
    assert frames[0] == bytes((0, 255, 0)) * 5, "all red first (GRB on the wire)"
    assert sum(1 for f in frames if f.count(255) == 3 and sum(f) == 3 * 255) == 5, "a dot ran over every pixel"
    assert code == 1, "the absent board reader is a problem"
