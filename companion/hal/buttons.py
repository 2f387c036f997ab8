"""Buttons on real GPIO pins through gpiozero (lgpio on current Raspberry Pi OS; MockFactory in tests)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button
from gpiozero.exc import BadPinFactory, GPIOZeroError


class ButtonError(Exception):
    """A button could not be set up (no GPIO library, pin in use, bad pin)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GpioButtons:
    """One gpiozero Button per key; a press calls `on_press(key)` from gpiozero's thread."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        on_press: Callable[[str], None],
        *,
        pull_up: bool = True,
        bounce_s: float | None = 0.02,
        pin_factory: Any = None,
    ) -> None:
        """Buttons wired pin-to-ground with the internal pull-up by default."""
        self._buttons: dict[str, Button] = {}
        try:
            for key, pin in pins.items():
                button = Button(pin, pull_up=pull_up, bounce_time=bounce_s, pin_factory=pin_factory)
                button.when_pressed = _caller(on_press, key)
                self._buttons[key] = button
        except BadPinFactory as exc:
            self.close()
            raise ButtonError("gpio_unavailable", "no GPIO library found: on Raspberry Pi OS install python3-lgpio "
                              "and create the venv with --system-site-packages") from exc
        except (GPIOZeroError, ValueError) as exc:
            self.close()
            raise ButtonError("gpio_pin_error", f"cannot use a pin for the buttons: {exc}") from exc

    @property
    def keys(self) -> tuple[str, ...]:
        """Configured keys."""
        return tuple(self._buttons)

    def is_pressed(self, key: str) -> bool:
        """Whether a key is held down now."""
        return bool(self._buttons[key].is_pressed)

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


def _caller(on_press: Callable[[str], None], key: str) -> Callable[[], None]:
    """A zero-argument callback for gpiozero that names the key."""
    return lambda: on_press(key)
