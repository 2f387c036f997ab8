"""The table's refusal: returned (or raised) when the table will not do what it was asked; nothing changed."""

from __future__ import annotations

from typing import Any, Mapping

from companion.errors import TableRefusal


class Refusal(TableRefusal):
    """A refused request: stable snake_case `code`, English `message`; the page translates by code.

    Compared by value (it was a frozen record before it joined the error root)."""

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code, message, params)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.message))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"
