"""`companion run [--config FILE] [--game G] [--seats N] [--components C] [--host H] [--port P] [--data DIR]`:
the table with its web page."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from dataclasses import replace
from typing import Any

from companion.commands._config import add_config_arguments, config_from_args
from companion.config import GameConfig, TableConfig, config_warnings
from companion.errors import CompanionError
from companion.games.registry import get_game, game_names
from companion.hal import BackendError

HELP = "run the table: hardware (mock by default), rules, journal and the web page"

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    add_config_arguments(parser)
    parser.add_argument("--host", default=None, help="address to serve on (overrides the config)")
    parser.add_argument("--port", type=int, default=None, help="port to serve on (overrides the config)")
    parser.add_argument("--game", default=None, help="the game a fresh table starts with (overrides the "
                                                     f"config): one of {', '.join(game_names())}")
    parser.add_argument("--seats", type=int, default=None, help="seats of that game (default: a demo count)")
    parser.add_argument("--components", choices=("digital", "physical"), default=None,
                        help="digital (the table deals and draws) or physical (tagged components are read)")


def with_game(cfg: TableConfig, args: argparse.Namespace) -> TableConfig | None:
    """The config with --game/--seats/--components applied, or None after printing the error."""
    game = args.game or cfg.game.name
    try:
        declared = get_game(game)
    except ValueError as exc:
        print(f"error: --game: {exc}", file=sys.stderr)
        return None
    rules = declared.rules
    seats = args.seats
    if seats is None:  # a --game demo starts with the game's declared demo seats
        seats = cfg.game.seats if args.game is None else declared.demo_seats
        seats = min(max(seats, rules.min_seats), rules.max_seats, max(len(cfg.seats), rules.min_seats))
    if not rules.min_seats <= seats <= rules.max_seats:
        print(f"error: --seats: {rules.title} takes {rules.min_seats}..{rules.max_seats} seats", file=sys.stderr)
        return None
    return replace(cfg, game=GameConfig(game, seats, args.components or cfg.game.components))


def pin_line(pin: str, stream: Any = None) -> str:
    """The host PIN for someone at a terminal; where the output is not one (systemd's journal, a log file), only
    how to get in without it: a PIN in a log is a PIN for whoever reads the log."""
    stream = stream or sys.stdout
    if stream.isatty():
        return f"host PIN {pin}"
    return "host PIN not shown here (not a terminal): the config's, or `companion host-link` for a login link"


def run(args: argparse.Namespace) -> int:
    """Start the table and serve until SIGINT/SIGTERM: the data directory is locked and the port bound before the
    database is opened, so a second table on the same data exits 2 (`data_locked`) having changed nothing."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from companion.ratelog import limit_library_logs
    limit_library_logs()  # what clients make waitress log (hang-ups mid-request) comes once a minute, with a count
    cfg = config_from_args(args)
    if cfg is not None:
        cfg = with_game(cfg, args)
    if cfg is None:
        return 2
    for warning in config_warnings(cfg):
        print(f"warning: {warning}", file=sys.stderr)
    from companion.table.dbfile import DataLock
    from companion.table.runtime import Runtime, data_dir
    from companion.web.listener import listen
    lock = DataLock(data_dir(cfg))
    try:
        lock.acquire()
        sock = listen(cfg.web.host, cfg.web.port)
        lock.announce(cfg.web.host, sock.getsockname()[1])
    except CompanionError as exc:  # data_locked, data_dir, bad_host, port_in_use
        lock.release()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        runtime = Runtime(cfg, lock=lock).start()
    except (BackendError, CompanionError, OSError) as exc:  # a bad backend, a damaged or foreign journal, ...
        sock.close()
        lock.release()
        plain = isinstance(exc, OSError) and not isinstance(exc, CompanionError)
        text = f"data_dir: {exc.strerror or exc}" if plain else str(exc)  # type: ignore[union-attr]
        print(f"error: {text}", file=sys.stderr)
        return 2

    def stop(signum: int, frame: Any) -> None:
        threading.Thread(target=runtime.close_server, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    from companion.supervisor import start_supervisor
    supervisor, watchdog = start_supervisor(runtime)  # READY=1 and watchdog pings under systemd, else nothing
    url = f"http://{cfg.web.host}:{cfg.web.port}/"
    print(f"table {cfg.name!r} ({cfg.backend} hardware) at {url}  {pin_line(runtime.host_pin)}  "
          f"data {runtime.db_path}", flush=True)
    try:
        runtime.serve(cfg.web.host, cfg.web.port, sock, freeze_heap=True)
    except KeyboardInterrupt:
        pass
    supervisor.stopping()
    watchdog.set()
    runtime.stop()
    return 0
