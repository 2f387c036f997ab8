"""`companion games list` and `companion games export ID -o FILE`: the finished games the table's journal keeps,
read straight from its database (read-only, safe while the table runs)."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from companion.commands._config import add_config_arguments, config_from_args
from companion.games.timeline import record_text

HELP = "list the finished games the table keeps, or export one's record (the `companion replay` format)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare `list` and `export`."""
    sub = parser.add_subparsers(dest="games_command", required=True, metavar="ACTION")
    listing = sub.add_parser("list", help="every finished game, newest first")
    add_config_arguments(listing)
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    export = sub.add_parser("export", help="write one finished game's record (JSON lines)")
    export.add_argument("id", type=int, help="the game's number (see `companion games list`)")
    export.add_argument("-o", "--output", required=True, help="the record file to write ('-' = stdout)")
    add_config_arguments(export)
    export.add_argument("--force", action="store_true", help="replace the output file if it exists")


def _open(args: argparse.Namespace) -> sqlite3.Connection | None:
    """The table's database, read-only; None after printing why it cannot be opened."""
    cfg = config_from_args(args)
    if cfg is None:
        return None
    from companion.table.runtime import DB_NAME, data_dir
    path = data_dir(cfg) / DB_NAME
    if not path.is_file():
        print(f"error: no_journal: {path} does not exist (no game was played with this config)", file=sys.stderr)
        return None
    from companion.table.dbfile import DatabaseFileError, check_database
    try:
        check_database(path)
    except DatabaseFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
        conn.execute("SELECT 1 FROM games LIMIT 1")
    except sqlite3.Error as exc:
        print(f"error: journal_unreadable: {path}: {exc}", file=sys.stderr)
        return None
    return conn


def _when(t: float | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _result(row: dict[str, Any]) -> str:
    outcome = row.get("outcome")
    if not outcome:
        return str(row.get("end_reason") or "-")
    return f"{outcome.get('reason')}: seats {', '.join(str(s + 1) for s in outcome.get('winners') or [])}"


def run(args: argparse.Namespace) -> int:
    """List (exit 0) or export (exit 0); `error: CODE: message` and exit 2 for a game not kept or not finished."""
    from companion.table.journal import Journal
    conn = _open(args)
    if conn is None:
        return 2
    try:
        journal = Journal(conn)
        if args.games_command == "list":
            rows = journal.finished()
            if args.json:
                print(json.dumps(rows, ensure_ascii=False, indent=1))
            elif not rows:
                print("no finished game yet")
            else:
                print(f"{'id':>5}  {'game':<18} {'seats':>5}  {'started':<16}  {'ended':<16}  {'actions':>7}  result")
                for r in rows:
                    print(f"{r['id']:>5}  {r['game']:<18} {r['seats']:>5}  {_when(r['started']):<16}  "
                          f"{_when(r['ended']):<16}  {r['actions']:>7}  {_result(r)}")
            return 0
        return _export(journal, args)
    finally:
        conn.close()


def _export(journal: Any, args: argparse.Namespace) -> int:
    record = journal.game(args.id)
    if record is None:
        print(f"error: no_such_game: there is no game {args.id}", file=sys.stderr)
        return 2
    if record.ended is None:
        print(f"error: game_running: game {args.id} is still being played; its record opens once it is over",
              file=sys.stderr)
        return 2
    text = record_text({"game": record.game, "seats": record.seats, "options": record.options}, record.actions)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() and not args.force:
        print(f"error: file_exists: {out} exists (use --force to replace it)", file=sys.stderr)
        return 2
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"error: write_failed: {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote game {record.id} ({record.game}, {len(record.actions)} actions) to {out}")
    return 0
