"""`companion simulate GAME --seats N --games K --seed S [--json]`: random playouts and their speed."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from companion.commands._args import count
from companion.games.playout import random_playout
from companion.games.registry import game_names, get_rules

HELP = "play random games and print outcomes by reason and games per second"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--games", type=count, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default=None, help="options as a JSON object")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Play the games and report."""
    rules = get_rules(args.game)
    try:
        options = json.loads(args.options) if args.options else None
        rules.initial_state(args.seats, options)
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    rng = random.Random(args.seed)
    reasons: Counter[str] = Counter()
    actions = 0
    start = time.perf_counter()
    for _ in range(args.games):
        playout = random_playout(rules, args.seats, rng, options)
        actions += len(playout.actions)
        reasons[playout.outcome.reason if playout.outcome else "unfinished"] += 1
    elapsed = time.perf_counter() - start
    report = {
        "game": rules.name,
        "seats": args.seats,
        "games": args.games,
        "seed": args.seed,
        "outcomes": dict(sorted(reasons.items())),
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(args.games / elapsed, 1) if elapsed else None,
        "us_per_action": round(elapsed / actions * 1e6, 2) if actions else None,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{rules.title}, {args.seats} seats, {args.games} games (seed {args.seed})")
        for reason, count in report["outcomes"].items():
            print(f"  {reason:<20} {count}")
        print(f"  {report['games_per_s']} games/s, {report['us_per_action']} µs per action "
              f"(legal_actions + choice + apply), {actions} actions")
    return 0
