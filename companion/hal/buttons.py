"""Buttons through gpiozero for every backend; only the pin factory differs (MockFactory in the mock)."""

from __future__ import annotations

from typing import Any, Sequence

from gpiozero import DigitalInputDevice

from companion.config import ButtonConfig
from companion.hal.events import ButtonPressed, Sink


class ButtonBank:
    """A pulled-up input per configured pin (pressed = pulled to ground), each reporting ButtonPressed(seat, key).

    gpiozero's Button would also start a hold-detection thread per button that wakes every 100 ms; the table
    never uses `when_held`, so each button is a DigitalInputDevice woken only by the pin library's edge callback.
    """

    def __init__(self, specs: Sequence[ButtonConfig], pin_factory: Any = None, bounce_s: float | None = None) -> None:
        self.specs = tuple(specs)
        self._factory = pin_factory
        self._bounce_s = bounce_s
        self._buttons: list[DigitalInputDevice] = []
        self.presses = 0

    def start(self, sink: Sink) -> None:
        """Create the Buttons and wire them to the sink."""
        from companion.hal.pins import claim_failed

        for spec in self.specs:
            try:
                button = DigitalInputDevice(spec.pin, pull_up=True, bounce_time=self._bounce_s, pin_factory=self._factory)
            except Exception as exc:  # lgpio raises its own `error` ('GPIO busy'), not a GPIOZeroError
                self.close()
                raise claim_failed(exc, spec.pin, f"button {spec.key} of seat {spec.seat}") from None
            button.when_activated = self._handler(sink, spec)
            self._buttons.append(button)

    def _handler(self, sink: Sink, spec: ButtonConfig) -> Any:
        def pressed() -> None:
            self.presses += 1
            sink(ButtonPressed(spec.seat, spec.key))
        return pressed

    def health(self) -> dict[str, Any]:
        """JSON-able status."""
        return {"count": len(self.specs), "presses": self.presses}

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons:
            button.close()
        self._buttons.clear()
