"""The table's refusal: `companion.errors.Refusal`, the one refusal type of games, bindings and the table."""

from __future__ import annotations

from companion.errors import Refusal

__all__ = ["Refusal"]
