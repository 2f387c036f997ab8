"""The reveal after a game: "what really happened" lines, computed from a finished game's whole log.

A line is `{code, params}` like a log entry; the page words it through `games.<game>.reveal.<code>`. Each game's
`reveal.py` turns its log (every entry, private ones included) into lines; `Rules.reveal` exposes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class RevealLine:
    """One line of the reveal: a code the game's `reveal` texts word, with its params."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """As JSON: tuples (gangsters' immutable params) become lists."""
        return {"code": self.code, "params": {k: plain(v) for k, v in self.params.items()}}


def plain(value: Any) -> Any:
    """A log param as JSON: tuples and lists as lists, mappings as dicts, scalars as they are."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    return value

