"""Fixed legal actions: every action a seat can be offered that names no demand, built once at import.

They are read-only (`Fixed`, `FixedList`: companion/games/fixed_actions.py) and handed out as they are, so a seat
offered the same choices as at its last prompt holds the very same objects (the table compares them at a glance),
and each carries the words of its prompt option (`option_words`, None for an action naming a seat, whose label is
the table's seat name). Who may do what stays in legal.py; this module only names the objects.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from companion.games.fixed_actions import Fixed, FixedList
from companion.games.gangsters_dilemma.board import LOOT, TRADES

MAX_SEATS: Final = 7
MAX_LOCATIONS: Final = 6


def fixed(action: dict[str, Any]) -> Fixed:
    """`action` as a fixed one with the words a prompt option gives it: the type in words, then each field
    but the seat (a string in words, a list of numbers joined, a number as digits); no words when it names a
    target seat (the table names it)."""
    made = Fixed({k: FixedList(v) if type(v) is list else v for k, v in action.items()})
    if "target" in action:
        made.option_words = None
        return made
    group = action["type"].replace("_", " ")
    words = [_word(key, value) for key, value in action.items() if key not in ("type", "seat")]
    label = f"{group} {' '.join(words)}" if words else group
    made.option_words = (group, label, label, " ".join(words) or group)
    return made


def _word(key: str, value: Any) -> str:
    """One field of a fixed action as its option's label says it (a key in words: "buy art", not "buy_art")."""
    if type(value) is str:
        return value.replace("_", " ")
    if type(value) is list:
        return " ".join(map(str, value))
    if type(value) is int:
        return str(value)
    raise ValueError(f"no fixed words for {key}={value!r}")


def _per_seat(build: Any) -> tuple[Any, ...]:
    """`build(seat)` for every seat of the largest game."""
    return tuple(build(seat) for seat in range(MAX_SEATS))


_CHOSEN = _per_seat(
    lambda s: tuple(fixed({"type": "choose", "seat": s, "location": loc}) for loc in range(1, MAX_LOCATIONS + 1)))
CHOOSE: Final[tuple[tuple[tuple[Fixed, ...], ...], ...]] = tuple(
    tuple(row[:n] for n in range(MAX_LOCATIONS + 1)) for row in _CHOSEN)
"""[seat][locations]: going to each location of a game with that many, in order."""
PATROL: Final[tuple[tuple[tuple[tuple[Fixed, ...], ...], ...], ...]] = _per_seat(
    lambda s: tuple(tuple(tuple(fixed({"type": "patrol", "seat": s, "locations": [a, b]}) if a < b else None
                              for b in range(1, MAX_LOCATIONS + 1))
                        for a in range(1, MAX_LOCATIONS + 1))))
"""[seat][a - 1][b - 1] for a < b (None else): patrolling locations a and b."""
PATROLS: Final[tuple[tuple[tuple[Fixed, ...], ...], ...]] = _per_seat(
    lambda s: tuple(tuple(PATROL[s][a - 1][b - 1] for a, b in combinations(range(1, n + 1), 2))
                    for n in range(MAX_LOCATIONS + 1)))
"""[seat][locations]: every patrol of a game with that many locations, none closed, in order."""
PEEK: Final = _per_seat(lambda s: fixed({"type": "peek", "seat": s}))
SKIP: Final = _per_seat(lambda s: fixed({"type": "skip", "seat": s}))
PASS: Final = _per_seat(lambda s: fixed({"type": "pass", "seat": s}))
STEAL: Final[tuple[tuple[Fixed, ...], ...]] = _per_seat(
    lambda s: tuple(fixed({"type": "steal", "seat": s, "target": t}) for t in range(MAX_SEATS)))
"""[seat][target]."""
SWAP: Final[tuple[tuple[dict[tuple[str, str], Fixed], ...], ...]] = _per_seat(
    lambda s: tuple({(g, k): fixed({"type": "swap", "seat": s, "target": t, "give": g, "take": k})
                     for g in LOOT for k in LOOT if g != k} for t in range(MAX_SEATS)))
"""[seat][target][(give, take)]."""
INFORM_SILENCE: Final = _per_seat(lambda s: (fixed({"type": "respond", "seat": s, "response": "inform"}),
                                             fixed({"type": "respond", "seat": s, "response": "silence"})))
"""[seat]: the two responses of a seat that is not alone."""
BRIBE: Final[tuple[dict[str, Fixed], ...]] = _per_seat(
    lambda s: {pay: fixed({"type": "respond", "seat": s, "response": "bribe", "pay": pay})
               for pay in ("liquor", "dollars")})
"""[seat][pay]."""
TRADE: Final[tuple[dict[str, Fixed], ...]] = _per_seat(
    lambda s: {t: fixed({"type": "trade", "seat": s, "trade": t}) for t in (*TRADES, "none")})
"""[seat][trade]."""
