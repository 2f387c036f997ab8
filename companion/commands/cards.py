"""`companion cards export|import`: the card registry as JSON deck files."""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands._config import add_config_arguments, config_from_args
from companion.table.cards import CardError, CardRegistry
from companion.table.dbfile import DataLock, DatabaseFileError
from companion.table.journal import open_db

HELP = "export or import the card registry as a JSON deck file (stop the table before importing)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    sub = parser.add_subparsers(dest="cards_command", required=True, metavar="export|import")
    exp = sub.add_parser("export", help="print (or write) a deck file")
    add_config_arguments(exp)
    exp.add_argument("--game", default=None, help="only this game's cards")
    exp.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    imp = sub.add_parser("import", help="add the cards of a deck file (all checked first; nothing on error)")
    add_config_arguments(imp)
    imp.add_argument("file", help="deck file ('-' = stdin)")


def run(args: argparse.Namespace) -> int:
    """Export or import; errors print `error: CODE: message` and exit 2 with nothing changed."""
    cfg = config_from_args(args)
    if cfg is None:
        return 2
    from companion.table.runtime import DB_NAME, data_dir
    directory = data_dir(cfg)
    lock = DataLock(directory)
    try:
        if args.cards_command == "import":  # a write: never beside a running table (one writer per directory)
            lock.acquire()
        conn = open_db(directory / DB_NAME)
    except DatabaseFileError as exc:
        lock.release()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        registry = CardRegistry(conn)
        if args.cards_command == "export":
            text = json.dumps(registry.export(args.game), ensure_ascii=False, indent=2)
            if args.output:
                with open(args.output, "w", encoding="utf-8") as fh:
                    fh.write(text + "\n")
            else:
                print(text)
            return 0
        try:
            raw = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8-sig").read()
        except OSError as exc:
            print(f"error: unreadable: {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
        except UnicodeDecodeError:
            print(f"error: unreadable: {args.file}: not UTF-8 text", file=sys.stderr)
            return 2
        try:
            deck = json.loads(raw)
        except json.JSONDecodeError as exc:
            print(f"error: bad_json: {exc}", file=sys.stderr)
            return 2
        except RecursionError:
            print("error: bad_json: nested too deeply", file=sys.stderr)
            return 2
        try:
            json.dumps(deck, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            print("error: bad_json: the deck holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is no character",
                  file=sys.stderr)
            return 2
        try:
            count = registry.import_deck(deck)
        except CardError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"imported {count} cards")
        return 0
    finally:
        conn.close()
        lock.release()
