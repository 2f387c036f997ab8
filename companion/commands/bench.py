"""`companion bench [--json]`: speed figures; each figure is one entry in BENCHES (later issues add theirs)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from companion.commands._args import count, seconds

HELP = "measure speed figures (tap -> LED latency, ...) and print them"

Bench = Callable[[argparse.Namespace], dict[str, Any]]


def _tap_to_led(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.tap import tap_to_led
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        return {"tap_to_led_ms": tap_to_led(args.taps, tmp, args.seed)}


def _tap_to_led_venue_down(args: argparse.Namespace) -> dict[str, Any]:
    """tap_to_led with `[venue]` pointing at a closed port: the publisher keeps failing to connect meanwhile."""
    import socket

    from companion.bench.tap import tap_to_led
    from companion.config import VenueConfig
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        password = Path(tmp) / "venue.password"
        password.write_text("unused\n")
        venue = VenueConfig(f"mqtt://127.0.0.1:{port}", "t01", str(password))
        return {"tap_to_led_venue_down_ms": tap_to_led(args.taps, str(Path(tmp) / "data"), args.seed, venue)}


def _spi_transfers(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.hardware import spi_transfer_counts
    return {"spi_transfers": spi_transfer_counts()}


def _hardware(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.hardware import hardware_figures
    return {"hardware": hardware_figures()}


def _terminal_rtt(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.hardware import terminal_round_trip
    return {"terminal_rtt": terminal_round_trip()}


def _polling(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.polling import polling_figures
    return {"polling": polling_figures(args.polling_s)}


def _tap_to_dom(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.dom import tap_to_dom
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        return tap_to_dom(args.dom_taps, tmp, args.pages, args.seed)


def _engines(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.engines import engine_figures
    return engine_figures(args.seed)


def _tap_to_sse(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.sse import tap_to_sse
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        return {"tap_to_sse_ms": tap_to_sse(args.sse_taps, tmp, args.sse_clients, args.seed)}


def _idle(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.idle import idle_run
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        return idle_run(tmp, args.idle_s)


def _cpu_per_tap(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.cpu import cpu_per_tap
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.data) as tmp:
        return cpu_per_tap(args.cpu_taps, tmp, args.seed, args.cpu_rounds)


def _publish(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.publish import publish_figures
    return publish_figures(args.seed)


def _strength(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.strength import strength_figures
    return strength_figures(args.strength_games, args.seed, args.strength_processes, args.strength_game)


BENCHES: dict[str, Bench] = {
    "engines": _engines,
    "tap_to_led": _tap_to_led,
    "tap_to_led_venue_down": _tap_to_led_venue_down,
    "tap_to_sse": _tap_to_sse,
    "idle": _idle,
    "spi_transfers": _spi_transfers,
    "hardware": _hardware,
    "terminal_rtt": _terminal_rtt,
    "polling": _polling,
    "tap_to_dom": _tap_to_dom,
    "cpu_per_tap": _cpu_per_tap,
    "publish": _publish,
    "strength": _strength,
}
"""Figure name -> function returning the keys it adds to the report; read-only."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", choices=sorted(BENCHES), action="append", help="run only these figures")
    parser.add_argument("--taps", type=count, default=1000, help="taps for tap_to_led (>= 1000 for the figure)")
    parser.add_argument("--dom-taps", type=count, default=200, help="taps for tap_to_dom (each seen by --pages pages)")
    parser.add_argument("--pages", type=count, default=10, help="table pages connected for tap_to_dom")
    parser.add_argument("--sse-taps", type=count, default=200, help="taps for tap_to_sse")
    parser.add_argument("--sse-clients", type=count, default=20, help="SSE clients for tap_to_sse")
    parser.add_argument("--idle-s", type=seconds, default=30.0, help="seconds of idle `companion run` measured")
    parser.add_argument("--polling-s", type=seconds, default=3.0, help="seconds each reader count is polled")
    parser.add_argument("--cpu-taps", type=count, default=100, help="taps per cpu_per_tap run")
    parser.add_argument("--cpu-rounds", type=count, default=3, help="cpu_per_tap runs per client count (least kept)")
    parser.add_argument("--strength-games", type=count, default=10_000,
                        help="games per line of the strength table (10,000 for the README's figures)")
    parser.add_argument("--strength-processes", type=count, default=2, help="processes playing them (at most 2)")
    parser.add_argument("--strength-game", action="append", default=None,
                        help="measure only this game's lines (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", default=None, help="directory for the temporary database (its disk is measured)")


def run(args: argparse.Namespace) -> int:
    """Run the figures and print them (2, having measured nothing, when --data is no usable directory)."""
    if args.data is not None:
        try:
            Path(args.data).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"companion bench: --data {args.data}: not a directory it can use ({exc.strerror or exc})",
                  file=sys.stderr)
            return 2
    report: dict[str, Any] = {}
    for name in args.only or list(BENCHES):
        report.update(BENCHES[name](args))
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {json.dumps(value)}")
    return 0
