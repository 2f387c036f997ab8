"""Events the hardware reports to the table; frozen values, one per physical happening."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

READER_PREFIX = "terminal:"
"""A seat terminal's own reader is named `terminal:<id>` in the events it reports."""


@dataclass(frozen=True)
class TagPlaced:
    """A tag arrived on a reader (reported once while it rests there)."""

    reader: str
    uid: str


@dataclass(frozen=True)
class TagRemoved:
    """A tag left a reader (reported after it has been absent for the removal window)."""

    reader: str
    uid: str


@dataclass(frozen=True)
class ButtonPressed:
    """A physical button was pressed; `seat` and `key` come from the button's config."""

    seat: int
    key: str


@dataclass(frozen=True)
class TerminalHello:
    """A seat terminal introduced itself (on connect or reconnect), with what it can show and what failed."""

    terminal: str
    firmware: str = ""
    screen: int = 8
    """Options per screen (a v1 terminal: 8)."""
    display: bool = False
    faults: str = ""
    """Parts that failed to start (reader, display), comma-separated."""
    link: str = ""
    """The port and boot it spoke from: its message numbers count from 1 on each new link."""


@dataclass(frozen=True)
class TerminalChoice:
    """A seat terminal answered a prompt: `ballot` names the prompt, `seq` is the terminal's message number."""

    terminal: str
    ballot: str
    seq: int
    value: Any
    link: str = ""
    """The port and boot it came on (the table counts `seq` per link)."""


@dataclass(frozen=True)
class TerminalGone:
    """A seat terminal disconnected (unplugged, or heartbeat stale)."""

    terminal: str


@dataclass(frozen=True)
class TerminalClash:
    """A second device on `port` said hello as `terminal`, already connected on another port: it was refused
    (`present`), or has gone (False)."""

    terminal: str
    port: str
    present: bool = True


@dataclass(frozen=True)
class TagsCrowded:
    """Two or more tags lie on one reader (reported once, after as many polls as a placement needs): a reader
    reads one tag, so the table refuses the extra card in words; the tag already there stays placed."""

    reader: str


@dataclass(frozen=True)
class ReaderFault:
    """A reader raised an error; the poller keeps going with backoff."""

    reader: str
    error: str


HalEvent = Union[TagPlaced, TagRemoved, TagsCrowded, ButtonPressed, TerminalHello, TerminalChoice, TerminalGone,
                 TerminalClash, ReaderFault]
"""Every event a backend may emit."""

Sink = Callable[[HalEvent], None]
"""Where a backend delivers its events (the table's input queue); must be thread-safe and never block long."""
