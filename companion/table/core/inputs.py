"""Everything the core takes: hardware events, commands (seat actions among them) and the boot."""

from __future__ import annotations

from dataclasses import dataclass

from companion.hal.events import (ButtonPressed, ReaderFault, TagPlaced, TagRemoved, TagsCrowded, TerminalChoice,
                                  TerminalClash, TerminalGone, TerminalHello)
from companion.table.core.commands import Command
from companion.table.records import GameRecord


@dataclass(frozen=True)
class Boot:
    """The table starts: the journal's unfinished game (None: start the config's game)."""

    unfinished: GameRecord | None


@dataclass(frozen=True)
class BootFailed:
    """Booting broke (an unreadable journal): the table still runs, idle."""


HardwareEvent = (TagPlaced | TagRemoved | TagsCrowded | ButtonPressed | TerminalChoice | TerminalHello | TerminalGone
                 | TerminalClash | ReaderFault)
Input = HardwareEvent | Command | Boot | BootFailed
