"""The device interfaces every backend implements; the shared machinery (polling, debounce) is backend-free."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from companion.errors import DeviceError
from companion.hal.events import Sink

RGB = tuple[int, int, int]
"""One pixel: red, green, blue, 0..255 each."""


class ReaderError(DeviceError):
    """A tag reader failed (no chip answering, a stuck command, a bus error); `code` is stable, str() the message."""

    def __init__(self, message: str, code: str = "reader_failed") -> None:
        super().__init__(code, message)

    def __str__(self) -> str:
        return self.message


class TagReader(ABC):
    """One RFID reader: answers whether a tag is in its field right now."""

    name: str

    @abstractmethod
    def poll(self) -> str | None:
        """The UID (upper-case hex) of the tag in the field now, or None; raises ReaderError on failure."""

    def version(self) -> int | None:
        """The chip's version register (0x91/0x92 genuine, 0x88 clone), or None when unknown."""
        return None

    def crowded(self) -> bool:
        """Whether the last poll found more than one tag in the field (one tag per reader: the table refuses it)."""
        return False

    def close(self) -> None:
        """Release the device."""


class LedStrip(ABC):
    """An addressable LED strip."""

    pixel_count: int

    @abstractmethod
    def show(self, frame: Sequence[RGB]) -> None:
        """Display one whole frame (len == pixel_count)."""

    def close(self) -> None:
        """Switch off and release the device."""


class TerminalHub(ABC):
    """The links to every seat terminal; incoming messages become events on the sink.

    Messages the table sends (JSON objects, protocol version `v: 1`):
    `{"type": "prompt", "ballot": id, "options": [{"value": i, "label": text, "action": {...}}], "info": {...}}`
    (the seat's choices; `info` holds what only that seat may know, e.g. its role or hand),
    `{"type": "idle", "ballot": null, "info": {...}}` (nothing to choose), `{"type": "ack", "ballot", "seq"}`
    and `{"type": "error", "ballot", "seq", "code", "message"}` (answers to a choice).
    Events the hub emits: TerminalHello on (re)connect (the table resends the open prompt) naming its `link`
    (port and boot), TerminalChoice with the terminal's own increasing `seq` and its `link` (the table counts seq
    per link, and answers with ack or error only once decided; the hub answers no choice itself but page turns)
    and the option `value`, TerminalGone when the link drops or goes stale, TerminalClash when a second device
    claims a connected terminal's id (refused by the hub) or goes.
    """

    @abstractmethod
    def start(self, sink: Sink) -> None:
        """Begin delivering TerminalHello / TerminalChoice / TerminalGone events."""

    @abstractmethod
    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Send one protocol message to a terminal; False when it is not connected (never raises)."""

    @abstractmethod
    def connected(self) -> frozenset[str]:
        """Terminal ids connected now."""

    def health(self) -> dict[str, Any]:
        """JSON-able status for the host page."""
        return {"connected": sorted(self.connected())}

    def readers(self) -> Sequence[TagReader]:
        """The terminals' own tag readers (polled and debounced like the Pi's)."""
        return ()

    def close(self) -> None:
        """Stop and release the links."""
