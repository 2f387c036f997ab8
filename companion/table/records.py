"""What the journal keeps, as values: a game's record and an action's journaled form (no database here, so the
table core can use them without importing SQLite)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games import Refusal
from companion.games.schema import ActionSpec


@dataclass(frozen=True)
class GameRecord:
    """One game as journaled: setup, seat tokens and its live (not undone) actions."""

    id: int
    game: str
    seats: int
    options: dict[str, Any]
    components: str
    """"digital" or "physical" (the database column keeps its first name, `mode`)."""
    tokens: tuple[str, ...]
    started: float
    ended: float | None
    end_reason: str | None
    actions: tuple[dict[str, Any], ...]
    undone: int = 0
    """How many times an undo took one of its actions back (a redone action counted too), so a restarted table
    counts its revision on."""
    redone: int = 0
    """How many times a redo made one of its actions live again."""
    redo: tuple[dict[str, Any], ...] = ()
    """The actions undos took back that a redo may re-apply, in order (the last undo's first); empty once a new
    action was taken after the undo."""


MAX_ACTION_BYTES = 4096
"""An action's journaled JSON may be no longer (the largest real one, a Boss's Wallet payment, is ~200 bytes)."""
ACTION_JSON = json.JSONEncoder(separators=(",", ":"))
"""How an action is journaled (ASCII, compact); one encoder, as `json.dumps` with options builds one per call."""


def journal_form(specs: Mapping[str, ActionSpec], action: Mapping[str, Any]) -> dict[str, Any]:
    """An accepted action as it is journaled: only the fields its type declares (the engine ignored the rest),
    at most MAX_ACTION_BYTES; raises Refusal too_large."""
    spec = specs.get(str(action.get("type")))
    known = spec.fields if spec is not None else {}
    kept = {k: v for k, v in action.items() if k in ("type", "seat") or k in known}
    if len(ACTION_JSON.encode(kept)) > MAX_ACTION_BYTES:
        raise Refusal("too_large", f"an action may take at most {MAX_ACTION_BYTES} bytes of JSON")
    return kept
