"""The one pin checker (run, check-config, doctor) and lgpio's refusals as clean `gpio_busy` errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import ButtonConfig, LedConfig, ReaderConfig, TableConfig, loads_config
from companion.hal import BackendError
from companion.hal.buttons import ButtonBank
from companion.hal.pi import open_hardware
from companion.hal.pins import Boot, check_pins, pin_plan

ROOT = Path(__file__).resolve().parents[2]
READER = '[[readers]]\nname="a"\nzone="seat:0"\nbus=1\ndevice=0\n'


def button(pin: int) -> str:
    return f'[[seats]]\nname="s"\n[[buttons]]\npin={pin}\nseat=0\nkey="ja"\n'


@pytest.mark.parametrize("pin, owner", [
    (18, "SPI1 CE0"), (17, "SPI1 CE1"), (16, "SPI1 CE2"), (19, "SPI1 MISO"), (20, "SPI1 MOSI"), (21, "SPI1 SCLK"),
    (7, "SPI0 CE1"), (8, "SPI0 CE0"), (9, "SPI0 MISO"), (10, "SPI0 MOSI"), (11, "SPI0 SCLK"), (0, "ID_SD"), (1, "ID_SC"),
])
def test_a_button_on_a_pin_the_kernel_owns_is_refused_even_when_no_reader_uses_that_line(pin: int, owner: str) -> None:
    with pytest.raises(BackendError) as info:
        check_pins(loads_config('backend="pi"\n' + button(pin)))
    assert info.value.code == "pin_conflict" and owner in info.value.message and f"GPIO{pin}" in info.value.message


def test_with_spi1_off_its_pins_are_plain_gpios_but_a_reader_on_it_is_refused() -> None:
    cfg = loads_config('backend="pi"\n' + button(18))
    assert pin_plan(cfg, Boot(spi0=True, spi1=False)) == {18: "button ja of seat 0"}
    with pytest.raises(BackendError) as info:
        pin_plan(loads_config('backend="pi"\n' + READER), Boot(spi0=True, spi1=False))
    assert info.value.code == "spi_off" and "dtoverlay=spi1-3cs" in info.value.message


def test_a_reader_on_its_hardware_chip_select_and_the_spi_strip_are_their_kernel_lines() -> None:
    cfg = loads_config('backend="pi"\n[leds]\npixels=10\nmode="spi"\npin=10\n' + READER)
    assert pin_plan(cfg) == {18: "chip-select of reader a", 10: "LED data"}


@pytest.mark.parametrize("leds, fragment", [
    ('[leds]\npixels=10\nmode="pwm"\npin=18\n', "SPI1 CE0"),  # PWM0 on 18 collides with the readers' bus
    ('[leds]\npixels=10\nmode="pcm"\npin=21\n', "SPI1 SCLK"),
])
def test_pwm_and_pcm_strips_on_spi1_pins_are_refused(leds: str, fragment: str) -> None:
    with pytest.raises(BackendError) as info:
        check_pins(loads_config('backend="pi"\n' + leds + READER.replace("device=0", "device=1")))
    assert fragment in info.value.message and "the kernel owns it" in info.value.message


def test_a_pwm_strip_on_gpio12_is_fine_and_says_audio_must_be_off() -> None:
    plan = pin_plan(loads_config('backend="pi"\n[leds]\npixels=10\nmode="pwm"\npin=12\n' + READER))
    assert "audio=off" in plan[12]


def test_the_mock_backend_has_no_kernel_and_is_not_checked() -> None:
    check_pins(loads_config('backend="mock"\n' + button(18)))


def test_check_config_runs_the_pin_checker_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('backend="pi"\n' + button(8))
    result = subprocess.run([sys.executable, "-m", "companion.cli", "check-config", str(bad)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: pin_conflict: GPIO8 (button ja of seat 0) is SPI0 CE0")


class LgpioError(Exception):
    """What lgpio raises (`lgpio.error`): not a GPIOZeroError."""


class BusyFactory(MockFactory):
    """Pins another process holds: lgpio answers 'GPIO busy'."""

    def __init__(self, busy: set[int]) -> None:
        super().__init__(pin_class=MockPWMPin)
        self.busy = busy

    def pin(self, spec: Any) -> Any:
        if spec in self.busy:
            raise LgpioError("'GPIO busy'")
        return super().pin(spec)


def test_a_busy_button_pin_is_a_clean_gpio_busy_error_and_releases_the_others() -> None:
    factory = BusyFactory({6})
    bank = ButtonBank([ButtonConfig(4, 0, "ja"), ButtonConfig(5, 0, "nein"), ButtonConfig(6, 1, "ja")], pin_factory=factory)
    try:
        with pytest.raises(BackendError) as info:
            bank.start(lambda event: None)
        assert info.value.code == "gpio_busy" and "GPIO6" in info.value.message
        assert "systemctl stop companion" in info.value.message
        ButtonBank([ButtonConfig(4, 0, "ja")], pin_factory=factory).start(lambda event: None)  # 4 was released
    finally:
        factory.reset()


def test_a_busy_chip_select_is_a_clean_gpio_busy_error() -> None:
    factory = BusyFactory({5})
    cfg = TableConfig(backend="pi", readers=(ReaderConfig("a", "seat:0", 1, 2, cs=4), ReaderConfig("b", "seat:1", 1, 2, cs=5)),
                      leds=LedConfig(pixels=0))
    try:
        with pytest.raises(BackendError) as info:
            open_hardware(cfg, spi_opener=lambda bus, dev: None, pin_factory=factory, discover=None)  # type: ignore[arg-type,return-value]
        assert info.value.code == "gpio_busy" and "GPIO5" in info.value.message
    finally:
        factory.reset()


def test_companion_run_exits_2_with_gpio_busy_instead_of_a_traceback(tmp_path: Path) -> None:
    """The service must not restart-loop on a held pin: `error: gpio_busy: ...` and exit 2 (RestartPreventExitStatus)."""
    script = tmp_path / "busy_run.py"
    script.write_text(
        "import sys\n"
        "from gpiozero import Device\n"
        "from gpiozero.pins.mock import MockFactory, MockPWMPin\n"
        "class Busy(MockFactory):\n"
        "    def pin(self, spec):\n"
        "        if spec == 4:\n"
        "            raise RuntimeError(\"'GPIO busy'\")\n"
        "        return super().pin(spec)\n"
        "Device.pin_factory = Busy(pin_class=MockPWMPin)\n"
        "from companion.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n")
    config = tmp_path / "t.toml"
    config.write_text('backend="pi"\n[[seats]]\nname="s"\n[[buttons]]\npin=4\nseat=0\nkey="ja"\n')
    result = subprocess.run([sys.executable, str(script), "run", "--config", str(config), "--data", str(tmp_path / "d"),
                             "--port", "8999"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2, result.stderr
    assert "error: gpio_busy: GPIO4 (button ja of seat 0) is busy" in result.stderr
    assert "Traceback" not in result.stderr
