"""The one error root: everything a user can be refused carries a stable snake_case `code` and English text.

A leaf module (it imports nothing from the project), so every room may import it. Each kind of error also
inherits the builtin it refines (gpiozero's exc.py is the model): a `Refusal` (of a game, a binding or the
table) is a ValueError, a journal fault an OSError, so callers that only know the builtin still catch it.
"""

from __future__ import annotations

from typing import Any, Mapping


class CompanionError(Exception):
    """Root of every refusal: stable snake_case `code`, English `message`, optional `params` for translation."""

    code: str = "error"

    def __init__(self, code: str | None = None, message: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        self.code = code or type(self).code
        self.message = message or self.code.replace("_", " ")
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(f"{self.code}: {self.message}")


class RefusedError(CompanionError):
    """A request the table refuses (bad command, wrong moment); nothing changed."""

    code = "refused"


class Refusal(RefusedError, ValueError):
    """The one refusal of an action, an input or a command (by a game's rules, its binding or the table):
    stable snake_case `code`, English `message`, `params`, and `public`: whether everyone may read the code
    (else only the acting seat and the host). Compared by value (code and message)."""

    code = "refused"

    def __init__(self, code: str | None = None, message: str | None = None,
                 params: Mapping[str, Any] | None = None, *, public: bool = False) -> None:
        super().__init__(code, message, params)
        self.public = public

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.message))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


TableRefusal = Refusal
"""The table's name for `Refusal` (one type: the same class)."""


class JournalError(CompanionError, OSError):
    """The journal could not be written (full, locked, read-only, I/O); nothing was committed."""

    code = "journal_error"


class ConfigFault(CompanionError, ValueError):
    """A bad table config (the config module's ConfigError is this kind)."""

    code = "config_error"


class CardFault(CompanionError, ValueError):
    """A bad tag UID, card or deck file."""

    code = "bad_card"


class ProtocolFault(CompanionError, ValueError):
    """A line from a seat terminal that is not a valid protocol message."""

    code = "bad_field"


class DeviceError(CompanionError, OSError):
    """A device failed to answer (a tag reader, the LED strip); hal's device errors belong under it."""

    code = "device_error"
