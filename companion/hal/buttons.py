"""Buttons through gpiozero for every backend; only the pin factory differs (MockFactory in the mock)."""

from __future__ import annotations

from typing import Any, Sequence

from gpiozero import Button

from companion.config import ButtonConfig
from companion.hal.events import ButtonPressed, Sink


class ButtonBank:
    """gpiozero Buttons for the configured pins, each reporting ButtonPressed(seat, key)."""

    def __init__(self, specs: Sequence[ButtonConfig], pin_factory: Any = None, bounce_s: float | None = None) -> None:
        self.specs = tuple(specs)
        self._factory = pin_factory
        self._bounce_s = bounce_s
        self._buttons: list[Button] = []
        self.presses = 0

    def start(self, sink: Sink) -> None:
        """Create the Buttons and wire them to the sink."""
        for spec in self.specs:
            button = Button(spec.pin, pin_factory=self._factory, bounce_time=self._bounce_s)
            button.when_pressed = self._handler(sink, spec)
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
            # each Button joins its own hold thread on close; signal them all first so they end together
            hold = getattr(button, "_hold_thread", None)
            stopping = getattr(hold, "stopping", None)
            if stopping is not None:
                stopping.set()
        for button in self._buttons:
            button.close()
        self._buttons.clear()
