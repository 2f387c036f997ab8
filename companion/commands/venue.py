"""`companion venue --broker URL --data DIR`: the venue dashboard (many tables over MQTT, docs/VENUE.md);
`companion venue init --data DIR --tables N`: the broker's config, accounts and ACL;
`companion venue simulate --tables N --data DIR`: N mock tables playing random games, measured."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from companion.commands._args import count, seconds
from companion.errors import CompanionError

HELP = "the venue: dashboard of many tables over MQTT (init: broker config; simulate: measured mock tables)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--broker", default=None, help="the broker, mqtt://host:1883 or mqtts://host:8883")
    parser.add_argument("--data", default=None, help="the venue's directory (venue.db, accounts/, mosquitto/)")
    parser.add_argument("--ca-file", default=None, help="the CA that signed the broker's certificate (mqtts)")
    parser.add_argument("--password-file", default=None, help="the venue account's password (default: "
                                                              "DATA/accounts/venue.password)")
    parser.add_argument("--host", default="127.0.0.1", help="address the dashboard listens on")
    parser.add_argument("--port", type=int, default=8100, help="port the dashboard listens on")
    parser.add_argument("--long-game-min", type=seconds, default=120.0, help="alert: a game longer than this")
    parser.add_argument("--idle-min", type=seconds, default=30.0, help="alert: no move for this long")
    sub = parser.add_subparsers(dest="venue_command", metavar="init|simulate")
    init = sub.add_parser("init", help="write the Mosquitto config, password file and ACL for N tables")
    init.add_argument("--data", dest="init_data", required=True, help="the venue's directory")
    init.add_argument("--tables", type=count, required=True, help="how many tables (ids t01, t02, ...)")
    init.add_argument("--port", dest="mqtt_port", type=int, default=1883, help="the plain MQTT port (0: none)")
    init.add_argument("--bind", default="0.0.0.0", help="the address the broker listens on")
    init.add_argument("--tls-cert", default=None, help="the broker's certificate (PEM): adds an mqtts listener")
    init.add_argument("--tls-key", default=None, help="its private key (PEM)")
    init.add_argument("--tls-port", type=int, default=8883, help="the mqtts port")
    init.add_argument("--force", action="store_true", help="write new accounts over an earlier init")
    sim = sub.add_parser("simulate", help="mock tables playing random games against the broker, measured")
    sim.add_argument("--data", dest="sim_data", required=True, help="a venue directory made by `venue init`")
    sim.add_argument("--tables", dest="sim_tables", type=count, default=50, help="how many mock tables")
    sim.add_argument("--seconds", type=seconds, default=60.0, help="how long to play")
    sim.add_argument("--rate", type=seconds, default=1.0, help="actions per second per table (average)")
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the dashboard, init or simulate."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        if args.venue_command == "init":
            return _init(args)
        if args.venue_command == "simulate":
            from companion.bench.venue import run_simulation
            return run_simulation(Path(args.sim_data), args.broker, args.sim_tables, args.seconds, args.rate,
                                  args.json, args.ca_file)
        return _dashboard(args)
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _init(args: argparse.Namespace) -> int:
    from companion.venue.broker import table_ids
    from companion.venue.server import init_venue
    if (args.tls_cert is None) != (args.tls_key is None):
        print("error: tls_incomplete: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    data = Path(args.init_data)
    tables = table_ids(args.tables)
    tls = None if args.tls_cert is None else (Path(args.tls_cert), Path(args.tls_key))
    accounts = init_venue(data, tables, port=args.mqtt_port or None, bind=args.bind, tls=tls, tls_port=args.tls_port,
                          force=args.force)
    print(f"wrote {data / 'mosquitto'} (mosquitto.conf, passwd, acl) for {len(tables)} tables: "
          f"{tables[0]}..{tables[-1]}")
    print(f"each table's password: {data / 'accounts'}/<table>.password (copy it to that table's Pi)")
    print(f"staff login: staff / {accounts['staff']} (also in {data / 'accounts' / 'staff.password'})")
    print(f"next: mosquitto -c {data / 'mosquitto' / 'mosquitto.conf'}   then: companion venue --broker "
          f"mqtt://127.0.0.1:{args.mqtt_port or 1883} --data {data}")
    return 0


def _dashboard(args: argparse.Namespace) -> int:
    if not args.broker or not args.data:
        print("error: usage: companion venue --broker URL --data DIR (or: companion venue init | simulate)",
              file=sys.stderr)
        return 2
    from companion.venue.board import Limits
    from companion.venue.server import VenueServer
    from companion.web.listener import listen
    server = VenueServer(Path(args.data), args.broker, ca_file=args.ca_file,
                         password_file=Path(args.password_file) if args.password_file else None,
                         limits=Limits(args.long_game_min, args.idle_min))
    try:
        sock = listen(args.host, args.port)
        server.start()
    except BaseException:
        server.close()
        raise

    def stop(signum: int, frame: Any) -> None:
        threading.Thread(target=server.close, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    print(f"venue dashboard at http://{args.host}:{args.port}/ ({len(server.board.grid()['tables'])} tables, "
          f"broker {server.broker.describe()})", flush=True)
    try:
        server.serve(sock, BIND_HOST=args.host)
    except KeyboardInterrupt:
        server.close()
    return 0
