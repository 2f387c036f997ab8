"""Long game records for replay timing: random playouts that never end, written as `companion replay` input.

`python -m tests.games.records` writes a 4,000- and a 32,000-action Thief of Baghdad record and times
`companion replay` on each (the issue's bound: the long one takes at most 10x the short one).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from companion.games import CHANCE, get_rules

STALLING: dict[str, frozenset[str]] = {"thief_of_baghdad": frozenset({"infiltrate"})}
"""Action types a stalling playout avoids (while it has another choice) so the game never ends."""


def stalling_actions(game: str, seats: int, count: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """`count` actions of one random game that avoids the game's ending actions (chance sampled with its odds)."""
    rules = get_rules(game)
    avoid = STALLING.get(game, frozenset())
    rng = random.Random(seed)
    state = rules.initial_state(seats)
    for _ in range(count):
        acting = rules.to_act(state)
        if not acting:
            raise RuntimeError(f"{game} ended before {count} actions; add its ending actions to STALLING")
        if acting == frozenset({CHANCE}):
            action = rules.sample_chance(state, rng)
        else:
            seat = rng.choice(sorted(acting))
            legal = rules.legal_actions(state, seat)
            action = rng.choice([a for a in legal if a["type"] not in avoid] or legal)
        state = rules.apply(state, action)
        yield action


def write_record(path: Path, game: str, seats: int, count: int, seed: int = 0) -> Path:
    """A replayable record: the header line, then `count` actions."""
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"game": game, "seats": seats, "options": {}}) + "\n")
        for action in stalling_actions(game, seats, count, seed):
            out.write(json.dumps(action) + "\n")
    return path


def time_replay(path: Path) -> float:
    """Seconds `companion replay` takes on a record (best of three, process start included)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([str(Path(sys.executable).with_name("companion")), "replay", str(path)], check=True,
                       stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Write both Thief of Baghdad records and print the replay times and their ratio."""
    with tempfile.TemporaryDirectory() as tmp:
        short = write_record(Path(tmp) / "short.jsonl", "thief_of_baghdad", 2, 4_000)
        long = write_record(Path(tmp) / "long.jsonl", "thief_of_baghdad", 2, 32_000)
        t_short, t_long = time_replay(short), time_replay(long)
    print(f"replay 4,000 actions: {t_short:.2f} s; 32,000 actions: {t_long:.2f} s; ratio {t_long / t_short:.1f}x")


if __name__ == "__main__":
    main()
