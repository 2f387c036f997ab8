"""`companion backup FILE [--config C] [--data DIR] [--force]`: a consistent copy of the table's database, safe
while the table runs (SQLite's online backup API; copying table.db by hand misses what is still in its WAL)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands._config import add_config_arguments, config_from_args

HELP = "copy the table's database (games, actions, cards, bindings) consistently, even while the table runs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("file", help="where the copy goes (one self-contained SQLite file)")
    add_config_arguments(parser)
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run(args: argparse.Namespace) -> int:
    """Copy and print what was copied (exit 0), or `error: CODE: message` (exit 2) with FILE untouched."""
    cfg = config_from_args(args)
    if cfg is None:
        return 2
    from companion.table.dbfile import DatabaseFileError, backup_database
    from companion.table.runtime import DB_NAME, data_dir
    source = data_dir(cfg) / DB_NAME
    try:
        result = backup_database(source, Path(args.file), overwrite=args.force)
    except DatabaseFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {source} to {result.target}: {result.games} games, {result.actions} actions, "
          f"{result.bytes} bytes in {result.seconds * 1000:.0f} ms")
    return 0
