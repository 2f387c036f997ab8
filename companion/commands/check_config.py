"""`companion check-config FILE`: validate a table config and print what the table is."""

from __future__ import annotations

import argparse
import sys

from companion.config import ConfigError, config_warnings, describe, load_config
from companion.hal import BackendError

HELP = "check a table config (TOML) and print what the table is"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("file", help="the config file")


def run(args: argparse.Namespace) -> int:
    """Print the summary (exit 0) or `error: CODE: where: message` (exit 2); a pi table's pins, reader bus
    timing and power budget are checked too (each refusal gives the figure and the limit). What is allowed but
    unwise (a weak host PIN) is a `warning: CODE: where: message` line on stderr."""
    from companion.hal.build import check_build

    try:
        cfg = load_config(args.file)
        build = check_build(cfg)
    except (ConfigError, BackendError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for warning in config_warnings(cfg):
        print(f"warning: {warning}", file=sys.stderr)
    print("\n".join([describe(cfg), *build.describe(cfg)]))
    return 0
