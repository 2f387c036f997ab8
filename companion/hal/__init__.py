"""Hardware abstraction: device interfaces, events, and backends chosen by name and imported lazily.

A backend module exposes `open_hardware(config: TableConfig) -> Hardware`, a bundle of its TagReaders
(polled by the shared ReaderPoller, which does debounce, fault counting and backoff), one LedStrip, a
ButtonBank (gpiozero; a backend passes only its pin factory) and a TerminalHub. `mock` is in memory and
scriptable; `pi` drives MFRC522 readers, a WS281x strip, gpiozero buttons and serial terminals and imports
its vendor libraries only inside its own modules.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from companion.hal.events import (ButtonPressed, HalEvent, ReaderFault, Sink, TagPlaced, TagRemoved,
                                  TerminalChoice, TerminalClash, TerminalGone, TerminalHello)
from companion.errors import ConfigFault
from companion.hal.interfaces import RGB, LedStrip, ReaderError, TagReader, TerminalHub

if TYPE_CHECKING:
    from companion.hal.hardware import Hardware

BACKENDS: dict[str, str] = {
    "mock": "companion.hal.mock",
    "pi": "companion.hal.pi",
}
"""Backend name -> module; read-only."""


class BackendError(ConfigFault):
    """An unknown backend name, a backend that cannot load here, or a pin plan it refuses; `code` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def load_backend(name: str) -> ModuleType:
    """The backend module for a name; unknown or unloadable -> BackendError, never a silent fallback."""
    if name not in BACKENDS:
        raise BackendError("unknown_backend", f"unknown hardware backend {name!r} (known: {', '.join(BACKENDS)})")
    try:
        return importlib.import_module(BACKENDS[name])
    except ImportError as exc:
        raise BackendError("backend_unavailable", f"backend {name!r} cannot load here: {exc}") from None


__all__ = [
    "BACKENDS", "BackendError", "load_backend", "Hardware", "HalEvent", "Sink", "TagPlaced", "TagRemoved",
    "ButtonPressed", "TerminalHello", "TerminalChoice", "TerminalGone", "TerminalClash", "ReaderFault", "RGB", "LedStrip",
    "ReaderError", "TagReader", "TerminalHub",
]


def __getattr__(name: str) -> Any:
    """`Hardware` on first use: it pulls in gpiozero and the reader threads, which the event vocabulary (all the
    table core imports of hal) must not."""
    if name == "Hardware":
        return importlib.import_module("companion.hal.hardware").Hardware
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
