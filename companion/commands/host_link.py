"""`companion host-link [--config FILE] [--data DIR]`: print a one-time host login link for the table running
on this computer (it works even while the PIN is refused to everyone)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path

from companion.commands._config import add_config_arguments, config_from_args
from companion.config import TableConfig

HELP = "print a one-time host login link for the table running here (works once, for 10 minutes)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    add_config_arguments(parser)
    parser.add_argument("--port", type=int, default=None,
                        help="the port the table serves (default: the running table's, else the config's)")


def base_urls(cfg: TableConfig) -> list[tuple[str, str]]:
    """Where the link can be opened: (base URL, for whom), the config's public address first."""
    from companion.web.lan import lan_ipv4

    port = cfg.web.port
    out: list[tuple[str, str]] = []
    if cfg.web.public_url:
        out.append((cfg.web.public_url.rstrip("/"), "the table's public address"))
    host = cfg.web.host
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is not None and ip.is_unspecified:
        lan = lan_ipv4()
        if lan:
            out.append((f"http://{lan}:{port}", "from a phone or laptop on the table's network"))
        out.append((f"http://127.0.0.1:{port}", "on this computer"))
    elif ip is not None and ip.is_loopback:
        out.append((f"http://{host}:{port}", "on this computer (the table listens on it only)"))
    else:
        shown = f"[{host}]" if ip is not None and ip.version == 6 else host
        out.append((f"http://{shown}:{port}", "the address the table listens on"))
    return out


def table_running(directory: Path) -> bool:
    """Whether a table holds the data directory's lock now."""
    from companion.table.dbfile import held_lock_text

    return held_lock_text(directory) is not None


def served_config(cfg: TableConfig, directory: Path) -> TableConfig:
    """The config with the host and port the table running on `directory` announced (a `--port` or `--host`
    given to `companion run` is not in the config), unchanged when none runs there."""
    from dataclasses import replace

    from companion.table.dbfile import served_address

    served = served_address(directory)
    if served is None:
        return cfg
    host, port = served
    return replace(cfg, web=replace(cfg.web, host=host, port=port))


def run(args: argparse.Namespace) -> int:
    """Write the link's record into the data directory and print the link (exit 0); exit 2 when it cannot."""
    from companion.table.hostlink import LIFETIME_S, issue
    from companion.table.runtime import data_dir

    cfg = config_from_args(args)
    if cfg is None:
        return 2
    directory = data_dir(cfg)
    cfg = served_config(cfg, directory)
    if args.port is not None:
        from dataclasses import replace
        cfg = replace(cfg, web=replace(cfg.web, port=args.port))
    try:
        token = issue(directory)
    except OSError as exc:
        print(f"error: data_dir: {directory}: {exc.strerror or exc} (run this as the table's user, e.g. "
              f"`sudo -u companion companion host-link --config FILE`)", file=sys.stderr)
        return 2
    minutes = int(LIFETIME_S // 60)
    print(f"One-time host login (works once, for {minutes} minutes; a new link replaces this one):")
    for base, who in base_urls(cfg):
        print(f"  {base}/host/link/{token}    ({who})")
    if not table_running(directory):
        print(f"note: no table is running on {directory} now; the link works once one does, within {minutes} "
              f"minutes", file=sys.stderr)
    return 0
