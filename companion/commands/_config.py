"""Shared option handling: load the config file (or the embedded demo) and apply flag overrides."""

from __future__ import annotations

import argparse
import sys

from companion.config import ConfigError, TableConfig, demo_config, load_config, with_overrides


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """--config and --data."""
    parser.add_argument("--config", default=None, help="table config (TOML); default: the embedded demo table")
    parser.add_argument("--data", default=None, help="data directory (database); default: the config's or the "
                                                     "user data directory")


def config_from_args(args: argparse.Namespace) -> TableConfig | None:
    """The config with flags applied, or None after printing the error."""
    try:
        cfg = load_config(args.config) if args.config else demo_config()
        return with_overrides(cfg, getattr(args, "host", None), getattr(args, "port", None), args.data)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
