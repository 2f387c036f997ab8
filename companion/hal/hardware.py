"""A running set of devices: readers behind the shared poller, the strip, buttons and terminal links."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from companion.hal.buttons import ButtonBank
from companion.hal.events import Sink
from companion.hal.interfaces import LedStrip, TagReader, TerminalHub
from companion.hal.readers import ReaderPoller


@dataclass
class Hardware:
    """What a backend builds; the table starts it with its input sink and reads health from it."""

    backend: str
    readers: Sequence[TagReader]
    strip: LedStrip
    buttons: ButtonBank
    terminals: TerminalHub
    interval_s: float = 0.02
    removal_s: float = 0.15
    confirm_polls: int = 2
    poller: ReaderPoller | None = field(default=None, init=False)

    def start(self, sink: Sink) -> None:
        """Begin polling readers and listening to buttons and terminals."""
        self.poller = ReaderPoller(self.readers, sink, self.interval_s, self.removal_s, self.confirm_polls,
                                   extra=self.terminals.readers)
        self.poller.start()
        try:
            self.buttons.start(sink)
            self.terminals.start(sink)
        except Exception:
            self.close()  # a refused pin (gpio_busy) must not leave the poller running and the readers held
            raise

    def present(self) -> dict[str, str | None]:
        """Reader name -> the tag resting on it now (debounced), for the expected-vs-seen scan."""
        return self.poller.present() if self.poller else {}

    def health(self) -> dict[str, Any]:
        """JSON-able status of every device."""
        return {
            "backend": self.backend,
            "readers": self.poller.health() if self.poller else [],
            "leds": {"pixels": self.strip.pixel_count},
            "buttons": self.buttons.health(),
            "terminals": self.terminals.health(),
        }

    def close(self) -> None:
        """Stop every thread and release every device."""
        if self.poller:
            self.poller.stop()
        self.buttons.close()
        self.terminals.close()
        self.strip.close()
