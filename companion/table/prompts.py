"""Generic seat prompts: a seat's legal actions as numbered choices with readable English labels."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.games.rules import private_part  # noqa: F401 (the table's name for it)

SKIP_FIELDS = ("type", "seat")


def seat_name(seat: int, seat_names: Sequence[str]) -> str:
    """A seat as the terminals name it: its configured name, else "Seat N" (1-based)."""
    name = seat_names[seat] if 0 <= seat < len(seat_names) else ""
    return name or f"Seat {seat + 1}"


def label(action: Mapping[str, Any], seat_names: Sequence[str]) -> str:
    """A short English label: the type, then its fields (seat targets by their configured names)."""
    parts = [str(action.get("type", "?")).replace("_", " ")]
    for key, value in action.items():
        if key in SKIP_FIELDS:
            continue
        if key == "target" and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            parts.append(seat_name(value, seat_names))
        elif isinstance(value, list):
            parts.append(" ".join(str(v) for v in value))
        elif isinstance(value, bool):
            parts.append(f"{key} {'yes' if value else 'no'}")
        else:
            parts.append(str(value))
    return " ".join(parts)


def prompt(ballot: str, legal: list[dict[str, Any]], seat_names: Sequence[str],
           private: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol message asking a seat to choose (or `idle` when it has nothing to do)."""
    if not legal:
        return {"v": 1, "type": "idle", "ballot": None, "info": dict(private)}
    return {"v": 1, "type": "prompt", "ballot": ballot,
            "options": [{"value": i, "label": label(a, seat_names), "action": a} for i, a in enumerate(legal)],
            "info": dict(private)}
