"""GPIO buttons through gpiozero's MockFactory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hal.buttons import ButtonError, GpioButtons


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def test_a_press_names_its_key_once(factory: MockFactory) -> None:
    pressed: list[str] = []
    buttons = GpioButtons({"ok": 5, "next": 6}, pressed.append, bounce_s=None, pin_factory=factory)
    pin = factory.pin(5)
    pin.drive_low()
    assert buttons.is_pressed("ok") and not buttons.is_pressed("next")
    pin.drive_high()
    factory.pin(6).drive_low()
    assert pressed == ["ok", "next"]
    buttons.close()


def test_pull_down_wiring_presses_on_high(factory: MockFactory) -> None:
    pressed: list[str] = []
    buttons = GpioButtons({"a": 17}, pressed.append, pull_up=False, bounce_s=None, pin_factory=factory)
    factory.pin(17).drive_high()
    assert pressed == ["a"]
    buttons.close()


def test_a_pin_used_twice_is_a_clear_error_and_nothing_stays_claimed(factory: MockFactory) -> None:
    with pytest.raises(ButtonError) as info:
        GpioButtons({"a": 5, "b": 5}, lambda k: None, pin_factory=factory)
    assert info.value.code == "gpio_pin_error"
    GpioButtons({"a": 5}, lambda k: None, pin_factory=factory).close()


def test_closed_buttons_release_their_pins(factory: MockFactory) -> None:
    pressed: list[str] = []
    buttons = GpioButtons({"a": 5}, pressed.append, bounce_s=None, pin_factory=factory)
    buttons.close()
    again = GpioButtons({"a": 5}, pressed.append, bounce_s=None, pin_factory=factory)
    factory.pin(5).drive_low()
    assert buttons.keys == () and pressed == ["a"]
    again.close()


def test_without_a_gpio_library_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    import gpiozero.devices as devices
    from gpiozero.exc import BadPinFactory

    def no_factory(*args: object, **kwargs: object) -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(devices.Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(ButtonError) as info:
        GpioButtons({"a": 4}, lambda k: None)
    assert info.value.code == "gpio_unavailable" and "lgpio" in info.value.message
