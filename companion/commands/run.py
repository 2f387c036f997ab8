"""`companion run [--config FILE] [--host H] [--port P] [--data DIR]`: the table with its web page."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

from companion.commands._config import add_config_arguments, config_from_args
from companion.hal import BackendError

HELP = "run the table: hardware (mock by default), rules, journal and the web page"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    add_config_arguments(parser)
    parser.add_argument("--host", default=None, help="address to serve on (overrides the config)")
    parser.add_argument("--port", type=int, default=None, help="port to serve on (overrides the config)")


def run(args: argparse.Namespace) -> int:
    """Start the table and serve until SIGINT/SIGTERM."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    cfg = config_from_args(args)
    if cfg is None:
        return 2
    from companion.table.runtime import Runtime
    try:
        runtime = Runtime(cfg).start()
    except BackendError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: data_dir: {exc}", file=sys.stderr)
        return 2

    def stop(signum: int, frame: Any) -> None:
        threading.Thread(target=runtime.close_server, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    url = f"http://{cfg.web.host}:{cfg.web.port}/"
    print(f"table {cfg.name!r} ({cfg.backend} hardware) at {url}  host PIN {runtime.host_pin}  "
          f"data {runtime.db_path}", flush=True)
    try:
        runtime.serve(cfg.web.host, cfg.web.port)
    except OSError as exc:
        print(f"error: cannot serve on {cfg.web.host}:{cfg.web.port}: {exc.strerror}", file=sys.stderr)
        runtime.stop()
        return 1
    except KeyboardInterrupt:
        pass
    runtime.stop()
    return 0
