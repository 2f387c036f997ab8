"""Long game records for replay timing: random playouts that never end, written as `companion replay` input.

`python -m tests.games.records` writes a 4,000- and a 32,000-action Thief of Baghdad record and times
`companion replay` on each (the issue's bound: the long one takes at most 10x the short one).
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
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


def time_replay(path: Path, companion: str | None = None) -> float:
    """CPU seconds `companion replay` takes on a record (best of three, process start included); CPU time, not
    wall time, so other work on the machine does not count."""
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([companion or str(Path(sys.executable).with_name("companion")), "replay", str(path)],
                       check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    """Write both Thief of Baghdad records and print the replay times and their ratio (`companion` on PATH or
    next to this Python; a first argument names another `companion` executable to time)."""
    companion = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp:
        short = write_record(Path(tmp) / "short.jsonl", "thief_of_baghdad", 2, 4_000)
        long = write_record(Path(tmp) / "long.jsonl", "thief_of_baghdad", 2, 32_000)
        t_short, t_long = time_replay(short, companion), time_replay(long, companion)
    print(f"replay 4,000 actions: {t_short:.2f} s CPU; 32,000 actions: {t_long:.2f} s CPU; "
          f"ratio {t_long / t_short:.1f}x")


if __name__ == "__main__":
    main()
