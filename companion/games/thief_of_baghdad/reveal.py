"""Thief of Baghdad's reveal: every chest stolen, turn by turn."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from companion.games.reveal import RevealLine


def reveal_lines(log: Iterable[Any]) -> Iterator[RevealLine]:
    """`chest` per theft (the turn it came in, the thief's seat, the palace and the chest's number)."""
    turn_no = 1
    for e in log:
        p = dict(e.params)  # a mapping, or (name, value) pairs (Thief of Baghdad)
        if e.code == "end_turn":
            turn_no += 1
        elif e.code == "steal":
            yield RevealLine("chest", {"turn_no": turn_no, "seat": p.get("seat"), "palace": p.get("palace"),
                                       "chest": p.get("chest")})
