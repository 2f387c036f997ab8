"""One-time host login links: `companion host-link` on the table's computer hands the running table a secret
through the data directory, and the link carrying it logs one browser in as host, once, within minutes.

The host can always get in this way, even while the PIN guard refuses every PIN (someone on the LAN guessing):
whoever can write the table's data directory owns the table anyway. The file (`host-link`, mode 0600, written
under a temporary name and renamed) holds only the SHA-256 of the token, the machine's boot id and a deadline
on the monotonic clock (which every process of one boot shares, and which no wall-clock change moves). The
table trusts it only when it is a plain file owned by its own user and readable by nobody else; redeeming
renames it away before anything else, so two browsers racing with one link cannot both get in. A new link
replaces the previous one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
from pathlib import Path
from typing import Callable

from companion.errors import CompanionError

LINK_FILE = "host-link"
LIFETIME_S = 600.0
"""A link works for this long after `companion host-link` printed it (10 minutes)."""
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")
"""secrets.token_urlsafe(32): 256 bits."""
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
MAX_FILE_BYTES = 1024


class HostLinkError(CompanionError, PermissionError):
    """A host link that does not log in: `bad_link` (unknown, used, or not this table's) or `link_expired`."""

    code = "bad_link"


def boot_id() -> str:
    """This boot of the machine (Linux), so a deadline on the monotonic clock is never read in another boot."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return ""


def issue(directory: Path, lifetime_s: float = LIFETIME_S, clock: Callable[[], float] = time.monotonic) -> str:
    """Write a new one-time link's record into the data directory (replacing any earlier one); the token."""
    token = secrets.token_urlsafe(32)
    record = {"v": 1, "sha256": hashlib.sha256(token.encode()).hexdigest(), "boot": boot_id(),
              "until": clock() + lifetime_s}
    directory.mkdir(parents=True, exist_ok=True)
    partial = directory / f".{LINK_FILE}.{secrets.token_hex(6)}"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        if os.geteuid() == 0:  # `sudo companion host-link`: the file is the table's user's, as its directory is
            owner = directory.stat()
            os.fchown(fd, owner.st_uid, owner.st_gid)
        os.write(fd, json.dumps(record).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, directory / LINK_FILE)
    return token


def redeem(directory: Path, token: str, clock: Callable[[], float] = time.monotonic) -> None:
    """Use a link's token once: returns when it is the current link's and in time (the link is then gone), else
    raises HostLinkError bad_link / link_expired."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        raise HostLinkError("bad_link", "this host link is not valid")
    path = directory / LINK_FILE
    record, inode = _read(path)
    digest = hashlib.sha256(token.encode()).hexdigest()
    if not hmac.compare_digest(str(record.get("sha256", "")), digest):
        raise HostLinkError("bad_link", "this host link is not valid (used, replaced by a newer one, or not this "
                                        "table's)")
    claimed = directory / f".{LINK_FILE}.used.{secrets.token_hex(6)}"
    try:
        os.rename(path, claimed)  # atomic: of two requests with the same link, one finds nothing to rename
    except FileNotFoundError:
        raise HostLinkError("bad_link", "this host link was used already") from None
    if os.stat(claimed, follow_symlinks=False).st_ino != inode:  # a newer link came in between: put it back
        os.replace(claimed, path)
        raise HostLinkError("bad_link", "this host link was replaced by a newer one")
    os.unlink(claimed)
    until = record.get("until")
    if record.get("boot") != boot_id() or not isinstance(until, (int, float)) or clock() > until:
        raise HostLinkError("link_expired", "this host link has expired: run `companion host-link` again")


def _read(path: Path) -> tuple[dict[str, object], int]:
    """The link record and its inode, from a file the table can trust (its own user's, private, plain)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        raise HostLinkError("bad_link", "no host link is waiting: run `companion host-link` on the table's "
                                        "computer") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise HostLinkError("bad_link", f"{path} is not a private file of this table's user; not trusted")
        raw = os.read(fd, MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    try:
        record = json.loads(raw) if len(raw) <= MAX_FILE_BYTES else None
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise HostLinkError("bad_link", f"{path} is not a host link record")
    return record, info.st_ino
