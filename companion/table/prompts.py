"""Generic seat prompts: a seat's legal actions as numbered choices with readable English labels; each option
also says its kind (the first level on a small terminal) and short ASCII labels for a terminal's display."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.games.rules import private_part  # noqa: F401 (the table's name for it)

SKIP_FIELDS = ("type", "seat")
NOT_INFO = frozenset({"log", "card_info"})


def seat_name(seat: int, seat_names: Sequence[str]) -> str:
    """A seat as the terminals name it: its configured name, else "Seat N" (1-based)."""
    name = seat_names[seat] if 0 <= seat < len(seat_names) else ""
    return name or f"Seat {seat + 1}"


def kind(action: Mapping[str, Any]) -> str:
    """The kind of an action as a terminal's first level names it: its type in words."""
    return str(action.get("type", "?")).replace("_", " ")


def label(action: Mapping[str, Any], seat_names: Sequence[str], ascii_only: bool = False) -> str:
    """A short English label: the type, then its fields (seat targets by their configured names)."""
    parts = [kind(action)]
    parts += _details(action, seat_names, ascii_only)
    return " ".join(parts)


def _details(action: Mapping[str, Any], seat_names: Sequence[str], ascii_only: bool) -> list[str]:
    """An action's fields as words (a seat by its name; on a terminal "Seat N" when its name is not ASCII)."""
    parts: list[str] = []
    for key, value in action.items():
        if key in SKIP_FIELDS:
            continue
        if key == "target" and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            name = seat_name(value, seat_names)
            parts.append(name if name.isascii() or not ascii_only else f"Seat {value + 1}")
        elif isinstance(value, list):
            parts.append(" ".join(str(v) for v in value))
        elif isinstance(value, bool):
            parts.append(f"{key} {'yes' if value else 'no'}")
        else:
            parts.append(str(value))
    return parts


def option(value: int, action: Mapping[str, Any], seat_names: Sequence[str]) -> dict[str, Any]:
    """One prompt option: the label the page shows, and for a terminal its kind and short ASCII labels."""
    details = " ".join(_details(action, seat_names, True))
    return {"value": value, "label": label(action, seat_names), "action": action, "group": kind(action),
            "short": label(action, seat_names, True), "item": details or kind(action)}


def prompt(ballot: str, legal: list[dict[str, Any]], seat_names: Sequence[str],
           private: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol message asking a seat to choose (or `idle` when it has nothing to do)."""
    if not legal:
        return {"v": 1, "type": "idle", "ballot": None, "info": dict(private)}
    return {"v": 1, "type": "prompt", "ballot": ballot,
            "options": [option(i, a, seat_names) for i, a in enumerate(legal)],
            "info": dict(private)}


def prompt_info(part: Mapping[str, Any]) -> dict[str, Any]:
    """What a prompt carries of a seat's part of its view: not the log nor the card catalogue (`card_info`:
    what the page needs to name cards, no secret and more than a terminal can show)."""
    return {k: v for k, v in part.items() if k not in NOT_INFO}
