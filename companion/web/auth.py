"""Who may POST: a seat token (unguessable, new each game) or the host session (PIN login) with a CSRF token."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

from flask import current_app, request, session

from companion.web.errors import ApiError
from companion.web.facade import TableFacade

CSRF_HEADER = "X-CSRF-Token"
MAX_PIN_FAILURES = 5
LOCKOUT_S = 30.0


@dataclass
class PinGuard:
    """Slows PIN guessing: after 5 wrong PINs logins are refused for 30 s."""

    failures: int = 0
    locked_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def attempt(self, table: TableFacade, pin: str) -> None:
        """Check a PIN; raises ApiError bad_pin or pin_locked."""
        with self.lock:
            now = time.monotonic()
            if now < self.locked_until:
                raise ApiError("pin_locked", "too many wrong PINs; try again in a little while")
            if table.check_pin(pin):
                self.failures = 0
                return
            self.failures += 1
            if self.failures >= MAX_PIN_FAILURES:
                self.failures, self.locked_until = 0, now + LOCKOUT_S
            raise ApiError("bad_pin", "wrong host PIN")


def login_host() -> str:
    """Start a host session; returns its CSRF token."""
    session.clear()
    session["host"] = True
    session["csrf"] = secrets.token_urlsafe(24)
    session["epoch"] = current_app.config["SESSION_EPOCH"]
    return str(session["csrf"])


def is_host() -> bool:
    """Whether the request carries a live host session."""
    return bool(session.get("host")) and session.get("epoch") == current_app.config["SESSION_EPOCH"]


def require_host(post: bool = True) -> None:
    """Refuse unless host; POSTs must also carry the session's CSRF token in the X-CSRF-Token header."""
    if not is_host():
        raise ApiError("unauthorised", "log in as host first")
    if post:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), str(session.get("csrf", "")).encode()):
            raise ApiError("csrf", f"missing or wrong {CSRF_HEADER} header")


def seat_from_token(table: TableFacade, token: object) -> int:
    """The seat a token belongs to; unknown tokens are refused without saying why."""
    if not isinstance(token, str) or not token:
        raise ApiError("unauthorised", "a seat token is required")
    seat = table.seat_for_token(token)
    if seat is None:
        raise ApiError("unauthorised", "unknown or expired seat token")
    return seat
