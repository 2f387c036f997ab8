"""The pi backend end to end in CI: fake MFRC522 chips behind fake SPI buses and gpiozero mock pins."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dataclasses import replace

from companion.config import ButtonConfig, LedConfig, PowerConfig, ReaderConfig, SpiBusConfig, TableConfig, loads_config
from companion.hal import BackendError, TagPlaced, TagRemoved, load_backend
from companion.hal.events import ButtonPressed, ReaderFault, TagsCrowded
from companion.hal.interfaces import ReaderError
from companion.hal.leds import NullStrip, SpidevStrip, Ws281xStrip, decode_spi
from companion.hal.pi import Mfrc522Reader, open_hardware, open_strip
from companion.hal.pins import check_pins
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock
from tests.hal.test_leds import FakeWs281x, RecordingSpi

UID7 = bytes.fromhex("04a1b2c3d4e5f6")
UID4 = bytes.fromhex("deadbeef")


class FakeSpiBus:
    """spidev1.N as the fake chips see it: a transfer reaches the chip whose chip-select is low."""

    def __init__(self, factory: MockFactory, hardware_chip: FakeMfrc522 | None = None) -> None:
        self.factory = factory
        self.hardware_chip = hardware_chip
        self.gpio_chips: dict[int, FakeMfrc522] = {}
        self.closed = False

    def xfer2(self, data: list[int]) -> list[int]:
        selected = [chip for pin, chip in self.gpio_chips.items() if self.factory.pin(pin).state == 0]
        if self.hardware_chip is not None:
            selected.append(self.hardware_chip)
        if len(selected) != 1:
            raise AssertionError(f"{len(selected)} chips selected at once")
        return selected[0].xfer2(data)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def rig(factory: MockFactory) -> tuple[VirtualClock, dict[str, FakeMfrc522], dict[tuple[int, int], FakeSpiBus]]:
    clock = VirtualClock()
    chips = {name: FakeMfrc522(clock=clock) for name in ("seat0", "seat1", "board")}
    buses = {(1, 0): FakeSpiBus(factory, chips["seat0"]), (1, 2): FakeSpiBus(factory)}
    buses[(1, 2)].gpio_chips = {26: chips["seat1"], 5: chips["board"]}
    return clock, chips, buses


CONFIG = TableConfig(
    backend="pi",
    readers=(ReaderConfig("seat0", "seat:0", 1, 0, rst=24), ReaderConfig("seat1", "seat:1", 1, 2, cs=26, rst=23),
             ReaderConfig("board", "board", 1, 2, cs=5, rst=25)),
    buttons=(ButtonConfig(pin=4, seat=0, key="ja"),),
    leds=LedConfig(pixels=4, pin=10, mode="spi", brightness=255),
    power=PowerConfig(reader_rail_ma=1500),  # three readers: more than the Pi's 3V3 pins may feed
)


class Sink:
    def __init__(self) -> None:
        self.events: list[object] = []
        self.cond = threading.Condition()

    def __call__(self, event: object) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait_for(self, event: object, timeout: float = 5.0) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: event in self.events, timeout), self.events


def test_the_pi_backend_loads_off_a_pi_without_vendor_libraries() -> None:
    assert load_backend("pi").open_hardware is open_hardware


def test_readers_on_hardware_and_gpio_chip_selects_report_placements_and_removals(factory: MockFactory) -> None:
    clock, chips, buses = rig(factory)
    spi = RecordingSpi()
    hw = open_hardware(CONFIG, spi_opener=lambda bus, dev: buses[(bus, dev)], pin_factory=factory, led_spi=spi,
                       discover=None, sleep=clock.sleep, monotonic=clock.monotonic)
    sink = Sink()
    hw.start(sink)
    try:
        chips["seat1"].place(UID7)
        chips["board"].place(UID4)
        sink.wait_for(TagPlaced("seat1", "04A1B2C3D4E5F6"))
        sink.wait_for(TagPlaced("board", "DEADBEEF"))
        chips["seat1"].remove()
        sink.wait_for(TagRemoved("seat1", "04A1B2C3D4E5F6"))
        assert not any(isinstance(e, TagPlaced) and e.reader == "seat0" for e in sink.events)
        factory.pin(4).drive_low()
        sink.wait_for(ButtonPressed(0, "ja"))
        hw.strip.show([(255, 0, 0)] * 4)
        assert decode_spi(spi.writes[-1])[:3] == bytes((0, 255, 0))
        health = hw.health()
        assert [r["version"] for r in health["readers"]] == ["0x92"] * 3
        assert all(r["ok"] for r in health["readers"])
    finally:
        hw.close()
    assert all(not chip.antenna_on for chip in chips.values())


def test_a_second_card_on_a_reader_is_refused_and_the_first_stays_placed(factory: MockFactory) -> None:
    clock, chips, buses = rig(factory)
    hw = open_hardware(CONFIG, spi_opener=lambda bus, dev: buses[(bus, dev)], pin_factory=factory,
                       led_spi=RecordingSpi(), discover=None, sleep=clock.sleep, monotonic=clock.monotonic)
    sink = Sink()
    hw.start(sink)
    uid10 = bytes.fromhex("0411223344556677889a")
    try:
        chips["seat0"].place(uid10)
        sink.wait_for(TagPlaced("seat0", uid10.hex().upper()))
        chips["seat0"].place(UID7)  # a 7-byte card on top: the ATQAs and UIDs collide
        sink.wait_for(TagsCrowded("seat0"))
        chips["seat0"].remove(chips["seat0"].tags[0])
        sink.wait_for(TagPlaced("seat0", "04A1B2C3D4E5F6"))
        placed = [e for e in sink.events if isinstance(e, TagPlaced | TagRemoved) and e.reader == "seat0"]
        assert placed == [TagPlaced("seat0", uid10.hex().upper()), TagRemoved("seat0", uid10.hex().upper()),
                          TagPlaced("seat0", "04A1B2C3D4E5F6")], "the newcomer counts only once it is alone"
    finally:
        hw.close()


def test_each_bus_is_clocked_at_its_spi_hz(factory: MockFactory) -> None:
    clock, chips, buses = rig(factory)
    for bus in buses.values():
        bus.max_speed_hz = 0  # type: ignore[attr-defined]
    config = replace(CONFIG, spi=(SpiBusConfig(1, spi_hz=500_000, lead_cm=20),))
    hw = open_hardware(config, spi_opener=lambda bus, dev: buses[(bus, dev)], pin_factory=factory,
                       led_spi=RecordingSpi(), discover=None, sleep=clock.sleep, monotonic=clock.monotonic)
    try:
        assert all(r.version() == 0x92 for r in hw.readers)
        assert {b.max_speed_hz for b in buses.values()} == {500_000}  # type: ignore[attr-defined]
    finally:
        hw.close()


def test_a_failing_reader_is_isolated_and_comes_back(factory: MockFactory) -> None:
    clock, chips, buses = rig(factory)
    hw = open_hardware(CONFIG, spi_opener=lambda bus, dev: buses[(bus, dev)], pin_factory=factory,
                       led_spi=RecordingSpi(), discover=None, sleep=clock.sleep, monotonic=clock.monotonic)
    sink = Sink()
    hw.start(sink)
    try:
        chips["seat0"].fail_next = 10**9
        deadline = time.monotonic() + 5
        while not any(isinstance(e, ReaderFault) for e in sink.events) and time.monotonic() < deadline:
            time.sleep(0.01)
        chips["board"].place(UID4)
        sink.wait_for(TagPlaced("board", "DEADBEEF"))
        chips["seat0"].fail_next = 0
        chips["seat0"].regs[0x2A] = 0  # it browned out: only a re-init makes it usable again
        chips["seat0"].place(UID7)
        sink.wait_for(TagPlaced("seat0", "04A1B2C3D4E5F6"))
        seat0 = next(r for r in hw.health()["readers"] if r["name"] == "seat0")
        assert seat0["errors"] >= 1 and seat0["ok"]
    finally:
        hw.close()


def test_collision_repeats_the_last_uid_so_the_card_is_not_removed(factory: MockFactory) -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    reader = Mfrc522Reader(ReaderConfig("r", "seat:0", 1, 0), spi_opener=lambda b, d: chip, pin_factory=factory,
                           sleep=clock.sleep, monotonic=clock.monotonic)
    (tag,) = chip.place(UID7)
    assert reader.poll() == "04A1B2C3D4E5F6"
    chip.place(bytes.fromhex("04a1b2c3d4e5f7"), bytes.fromhex("04ffb2c3d4e5f7"))
    assert reader.poll() == "04A1B2C3D4E5F6", "a collision means something is still there"
    chip.remove()
    assert reader.poll() is None


def test_antenna_switching_keeps_the_field_off_between_polls(factory: MockFactory) -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    settles: list[bool] = []

    def sleep(s: float) -> None:
        if s == 0.005:
            settles.append(chip.antenna_on)
        clock.sleep(s)

    reader = Mfrc522Reader(ReaderConfig("r", "seat:0", 1, 0), spi_opener=lambda b, d: chip, pin_factory=factory,
                           antenna_switching=True, sleep=sleep, monotonic=clock.monotonic)
    chip.place(UID4)
    assert reader.poll() == "DEADBEEF" and not chip.antenna_on
    assert reader.poll() == "DEADBEEF" and settles == [True, True]


def test_an_irq_line_is_an_input_with_pull_up_handed_to_the_driver(factory: MockFactory) -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    reader = Mfrc522Reader(ReaderConfig("r", "seat:0", 1, 0, irq=6), spi_opener=lambda b, d: chip,
                           pin_factory=factory, sleep=clock.sleep, monotonic=clock.monotonic)
    assert reader.version() == 0x92
    factory.pin(6).drive_low()  # IRqInv: the chip pulls the line low while an enabled interrupt is pending
    driver = reader._driver  # noqa: SLF001
    assert driver is not None and driver._irq is not None and driver._irq.is_active  # noqa: SLF001
    assert chip.regs[0x02] & 0x80, "ComIEnReg IRqInv set so the pin is active low"
    reader.close()


@pytest.mark.parametrize("fill", [0x00, 0xFF])
def test_a_missing_chip_is_a_reader_error_with_its_code(factory: MockFactory, fill: int) -> None:
    from companion.hal.testing.fake_mfrc522 import DeadBus

    reader = Mfrc522Reader(ReaderConfig("r", "seat:0", 1, 0), spi_opener=lambda b, d: DeadBus(fill),
                           pin_factory=factory, sleep=lambda s: None)
    with pytest.raises(ReaderError, match="reader_absent"):
        reader.version()


def test_a_missing_spidev_device_is_a_reader_error(factory: MockFactory) -> None:
    def no_device(bus: int, device: int) -> None:
        raise FileNotFoundError(2, "No such file or directory")

    reader = Mfrc522Reader(ReaderConfig("r", "seat:0", 1, 0), spi_opener=no_device, pin_factory=factory)
    with pytest.raises(ReaderError, match="spidev1.0"):
        reader.poll()


@pytest.mark.parametrize("toml, fragment", [
    ('[[readers]]\nname="a"\nzone="seat:0"\nbus=1\ndevice=0\ncs=19\n', "SPI1 MISO"),
    ('[[readers]]\nname="a"\nzone="seat:0"\nbus=1\ndevice=0\n[[readers]]\nname="b"\nzone="seat:1"\nbus=1\ndevice=0\ncs=26\n',
     "hardware chip-select"),
    ('[leds]\npixels=10\nmode="spi"\n[[readers]]\nname="a"\nzone="seat:0"\nbus=0\ndevice=0\n', "owns SPI0"),
    ('[[seats]]\nname="s"\n[[readers]]\nname="a"\nzone="seat:0"\nbus=1\ndevice=2\ncs=5\nrst=6\n[[buttons]]\npin=6\nseat=0\nkey="ja"\n',
     "GPIO6"),
])
def test_pin_conflicts_are_refused_with_a_clear_message(toml: str, fragment: str) -> None:
    with pytest.raises(BackendError) as info:
        check_pins(loads_config('backend="pi"\n' + toml))
    assert info.value.code == "pin_conflict" and fragment in info.value.message


def test_the_example_pi_tables_have_no_pin_conflicts() -> None:
    from pathlib import Path

    from companion.config import load_config

    tables = sorted((Path(__file__).resolve().parents[2] / "hardware" / "tables").glob("pi-*.toml"))
    assert len(tables) >= 2
    for path in tables:
        check_pins(load_config(path))


def test_led_modes() -> None:
    assert isinstance(open_strip(LedConfig(pixels=0)), NullStrip)
    assert isinstance(open_strip(LedConfig(pixels=3, mode="spi", pin=10), spi=RecordingSpi()), SpidevStrip)
    assert isinstance(open_strip(LedConfig(pixels=3, mode="pwm", pin=18), ws281x=FakeWs281x().module()), Ws281xStrip)
    for bad, code in ((LedConfig(pixels=3, mode="spi", pin=18), "led_bad_pin"), (LedConfig(pixels=3, mode="dma"), "led_bad_mode")):
        with pytest.raises(BackendError) as info:
            open_strip(bad, spi=RecordingSpi())
        assert info.value.code == code
    with pytest.raises(BackendError) as info:
        open_strip(LedConfig(pixels=3, mode="pwm", pin=18), ws281x=FakeWs281x(begin_error="ws2811_init failed").module())
    assert info.value.code == "led_init_failed"


def test_without_a_gpio_library_opening_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def none(*args: object) -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(none))
    with pytest.raises(BackendError) as info:
        open_hardware(CONFIG, led_spi=RecordingSpi(), discover=None)
    assert info.value.code == "gpio_unavailable" and "lgpio" in info.value.message


def test_companion_run_with_the_pi_backend_off_a_pi_is_a_clear_error(tmp_path, capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    from companion.cli import main

    def none(*args: object) -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(none))  # as on any machine without GPIO
    table = Path(__file__).resolve().parents[2] / "hardware" / "tables" / "pi-5-seats.toml"
    code = main(["run", "--config", str(table), "--data", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("error: gpio_unavailable") and "Traceback" not in out + err


def test_open_strip_enforces_the_configured_current_budget_at_full_brightness() -> None:
    from companion.hal.leds import milliamps

    spi = RecordingSpi()
    strip = open_strip(LedConfig(pixels=120, pin=10, mode="spi", brightness=255, max_milliamps=3500), spi=spi)
    strip.show([(255, 255, 255)] * 120)
    drawn = milliamps(decode_spi(spi.writes[-1]))
    assert 3400 < drawn <= 3500, f"{drawn:.0f} mA from a 4 A supply"
