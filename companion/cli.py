"""The `companion` command: one subcommand per module in companion/commands, imported lazily."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, str] = {
    "replay": "companion.commands.replay",
    "simulate": "companion.commands.simulate",
    "run": "companion.commands.run",
    "bench": "companion.commands.bench",
    "check-config": "companion.commands.check_config",
    "cards": "companion.commands.cards",
    "doctor": "companion.commands.doctor",
    "backup": "companion.commands.backup",
    "games": "companion.commands.games",
    "host-link": "companion.commands.host_link",
    "venue": "companion.commands.venue",
}
"""Subcommand -> module with `HELP`, `add_arguments(parser)` and `run(args) -> int`; read-only."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="companion", description="Board-game table companion.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
