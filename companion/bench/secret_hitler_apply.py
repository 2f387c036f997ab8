"""Median time of one Secret Hitler `apply` (and of to_act / legal_actions) over random 10-seat games.

Run: .venv/bin/python -m companion.bench.secret_hitler_apply [--games N] [--seats N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from companion.games import get_rules
from companion.games.playout import random_playout


def main() -> None:
    """Replay random games, timing every apply individually; print medians per action type."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=10)
    args = parser.parse_args()
    rules = get_rules("secret_hitler")
    rng = random.Random(1)
    games = [random_playout(rules, args.seats, rng).actions for _ in range(args.games)]
    timer = time.perf_counter_ns
    by_type: dict[str, list[int]] = defaultdict(list)
    to_act: list[int] = []
    legal: list[int] = []
    for actions in games:
        state = rules.initial_state(args.seats)
        for action in actions:
            t0 = timer()
            acting = rules.to_act(state)
            t1 = timer()
            rules.legal_actions(state, next(iter(acting)))
            t2 = timer()
            after = rules.apply(state, action)
            t3 = timer()
            to_act.append(t1 - t0)
            legal.append(t2 - t1)
            by_type[action["type"]].append(t3 - t2)
            state = after
    every = [t for ts in by_type.values() for t in ts]
    print(f"{args.games} games, {args.seats} seats, {len(every)} applies")
    p99 = sorted(every)[len(every) * 99 // 100]
    print(f"apply median {statistics.median(every) / 1000:.2f} µs, p99 {p99 / 1000:.2f} µs, "
          f"max {max(every) / 1000:.1f} µs")
    print(f"to_act median {statistics.median(to_act) / 1000:.2f} µs, legal_actions median "
          f"{statistics.median(legal) / 1000:.2f} µs")
    for kind, ts in sorted(by_type.items()):
        print(f"  {kind:<18} n={len(ts):<7} median {statistics.median(ts) / 1000:6.2f} µs")


if __name__ == "__main__":
    main()
