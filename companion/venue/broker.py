"""`companion venue init`: a Mosquitto 2 configuration for a venue of N tables, as Mosquitto itself does security:
no anonymous access, one account per table (passwords hashed by `mosquitto_passwd`), an ACL whose `%u` patterns
let each table write only its own subtree and read only the announcement, and the venue's account reading all.

    DIR/mosquitto/mosquitto.conf   the broker (mqtt:// on --port, mqtts:// on --tls-port with --tls-cert/--tls-key)
    DIR/mosquitto/passwd           hashed passwords (mode 0600)
    DIR/mosquitto/acl              who may read and write what
    DIR/accounts/<table>.password  each table's password, to copy to its Pi (`[venue] password_file`)
    DIR/accounts/venue.password    the dashboard's broker account
    DIR/accounts/staff.password    the dashboard's staff login (also kept, hashed, in DIR/venue.db)
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from companion.venue.errors import VenueError
from companion.venue.topics import ANNOUNCEMENT, ROOT, TABLE_ID, TABLES

VENUE_ACCOUNT = "venue"
STAFF_LOGIN = "staff"
MAX_TABLES = 500
MAX_PACKET_BYTES = 65536
"""The broker drops a larger packet before any client sees it (every payload of ours is under 16 KiB)."""


@dataclass(frozen=True)
class Layout:
    """Where `venue init` writes each file under the venue's data directory."""

    root: Path

    @property
    def conf(self) -> Path:
        """The broker's configuration."""
        return self.root / "mosquitto" / "mosquitto.conf"

    @property
    def passwd(self) -> Path:
        """The broker's hashed password file."""
        return self.root / "mosquitto" / "passwd"

    @property
    def acl(self) -> Path:
        """The broker's access control list."""
        return self.root / "mosquitto" / "acl"

    @property
    def persistence(self) -> Path:
        """Where the broker keeps retained messages and sessions across its restarts."""
        return self.root / "mosquitto" / "data"

    def account(self, name: str) -> Path:
        """An account's password file."""
        return self.root / "accounts" / f"{name}.password"


def table_ids(count: int, prefix: str = "t") -> list[str]:
    """Table ids `t01`, `t02`... (as many digits as the count needs, at least two)."""
    if not 1 <= count <= MAX_TABLES:
        raise VenueError("bad_table_count", f"a venue has 1 to {MAX_TABLES} tables, not {count}")
    width = max(2, len(str(count)))
    ids = [f"{prefix}{n:0{width}d}" for n in range(1, count + 1)]
    if not all(TABLE_ID.match(i) for i in ids) or VENUE_ACCOUNT in ids:
        raise VenueError("bad_table_id", f"{prefix!r} makes table ids no account can have")
    return ids


def mosquitto_passwd() -> str:
    """The path of Debian's `mosquitto_passwd` (package `mosquitto`); raises VenueError `mosquitto_missing`."""
    found = shutil.which("mosquitto_passwd") or next(
        (p for p in ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd") if os.access(p, os.X_OK)), None)
    if found is None:
        raise VenueError("mosquitto_missing", "mosquitto_passwd not found: install Debian's package `mosquitto` "
                                              "(sudo apt install mosquitto)")
    return found


def acl_text() -> str:
    """The ACL: the venue reads every topic and writes under the venue's own; each table (its account named by
    its id, `%u`) writes only its own subtree and reads only the announcement."""
    return (f"# written by `companion venue init`: who may read and write what (docs/VENUE.md)\n"
            f"user {VENUE_ACCOUNT}\n"
            f"topic read #\n"
            f"topic write {ROOT}/venue/#\n\n"
            f"# every table: its own subtree only, and the venue's announcement\n"
            f"pattern write {TABLES}/%u/#\n"
            f"pattern read {ANNOUNCEMENT}\n")


def conf_text(layout: Layout, port: int | None, bind: str, tls: tuple[Path, Path] | None, tls_port: int) -> str:
    """The broker's configuration: listeners (plain and/or TLS), no anonymous access, the password file and ACL,
    persistence (retained statuses and unsent QoS 1 messages survive a broker restart)."""
    lines = ["# written by `companion venue init` (docs/VENUE.md); run: mosquitto -c " + str(layout.conf),
             "per_listener_settings false", "allow_anonymous false",
             f"password_file {layout.passwd}", f"acl_file {layout.acl}",
             "persistence true", f"persistence_location {layout.persistence}/", "autosave_interval 30",
             f"max_packet_size {MAX_PACKET_BYTES}", "log_dest stderr", "log_type error", "log_type warning",
             "log_type notice", "log_type information", "connection_messages true", ""]
    if port is not None:
        lines += [f"listener {port} {bind}", "protocol mqtt", ""]
    if tls is not None:
        cert, key = tls
        lines += [f"listener {tls_port} {bind}", "protocol mqtt", f"certfile {cert}", f"keyfile {key}",
                  "tls_version tlsv1.2", ""]
    return "\n".join(lines)


def _private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o600)


def write_broker(root: Path, tables: list[str], *, port: int | None = 1883, bind: str = "0.0.0.0",
                 tls: tuple[Path, Path] | None = None, tls_port: int = 8883, force: bool = False,
                 passwords: dict[str, str] | None = None) -> dict[str, str]:
    """Write the broker's config, password file and ACL and every account's password file under `root`; returns
    account -> password. Refuses (`venue_exists`) to overwrite an earlier init unless `force`, and
    (`no_listener`) a broker with neither listener."""
    layout = Layout(root)
    if layout.conf.exists() and not force:
        raise VenueError("venue_exists", f"{layout.conf} exists: pass --force to write new accounts over it")
    if port is None and tls is None:
        raise VenueError("no_listener", "the broker needs a plain port or a TLS certificate and key")
    for path in tls or ():
        if not path.is_file():
            raise VenueError("tls_file_missing", f"{path}: no such file")
    tool = mosquitto_passwd()
    accounts = {name: (passwords or {}).get(name) or secrets.token_urlsafe(18) for name in [VENUE_ACCOUNT, *tables]}
    layout.persistence.mkdir(parents=True, exist_ok=True)
    # plain `user:password` lines, then hashed in place by mosquitto_passwd -U (one run for every account)
    _private(layout.passwd, "".join(f"{name}:{password}\n" for name, password in accounts.items()))
    done = subprocess.run([tool, "-U", str(layout.passwd)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        layout.passwd.unlink(missing_ok=True)
        raise VenueError("mosquitto_passwd_failed", f"mosquitto_passwd -U: {done.stderr.strip() or done.returncode}")
    _private(layout.acl, acl_text())
    for name, password in accounts.items():
        _private(layout.account(name), password + "\n")
    tls_abs = None if tls is None else (tls[0].resolve(), tls[1].resolve())
    _private(layout.conf, conf_text(layout, port, bind, tls_abs, tls_port))
    return accounts
