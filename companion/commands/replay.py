"""`companion replay FILE.jsonl [--seat N]`: rebuild a game from its record and print the final view."""

from __future__ import annotations

import argparse
import json
import sys

from companion.games.replay import ReplayError, replay_lines

HELP = "replay a game record (JSONL) and print the final view and outcome"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("file", help="record: a {game, seats, options} line, then one action per line ('-' = stdin)")
    parser.add_argument("--seat", type=int, default=None, help="print this seat's view instead of the public one")


def run(args: argparse.Namespace) -> int:
    """Replay and print JSON; on the first bad line print `line K: CODE: message` and exit 1."""
    try:
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.file, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        result = replay_lines(lines)
        view = result.rules.view(result.state, args.seat)
    except ReplayError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"bad_seat: {exc}", file=sys.stderr)
        return 1
    outcome = result.rules.outcome(result.state)
    print(json.dumps({
        "game": result.rules.name,
        "actions": len(result.actions),
        "to_act": sorted(result.rules.to_act(result.state)),
        "outcome": None if outcome is None else {"winners": sorted(outcome.winners), "reason": outcome.reason},
        "view": view,
    }, ensure_ascii=False, indent=2))
    return 0
