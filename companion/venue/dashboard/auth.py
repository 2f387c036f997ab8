"""Staff login: a password checked against the store's PBKDF2 hash, a signed session cookie, a CSRF token for
every POST, and a lock after repeated failures from one address."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Any

from flask import Blueprint, current_app, jsonify, request, session

from companion.web.errors import ApiError, json_body

bp = Blueprint("venue_auth", __name__)

CSRF_HEADER = "X-CSRF-Token"
MAX_FAILURES = 5
LOCK_S = 60.0
MAX_ADDRESSES = 4096


class LoginGuard:
    """Failed logins per address: MAX_FAILURES in a row lock that address for LOCK_S."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}

    def check(self, address: str) -> None:
        """Raise `login_locked` while the address is locked."""
        with self._lock:
            count, until = self._failures.get(address, (0, 0.0))
        if count >= MAX_FAILURES and time.monotonic() < until:
            raise ApiError("login_locked", f"too many failed logins: wait {int(until - time.monotonic()) + 1} s", 429)

    def failed(self, address: str) -> None:
        """Count a failure."""
        with self._lock:
            if len(self._failures) >= MAX_ADDRESSES:
                self._failures.pop(next(iter(self._failures)))
            count, _ = self._failures.get(address, (0, 0.0))
            self._failures[address] = (count + 1, time.monotonic() + LOCK_S)

    def passed(self, address: str) -> None:
        """Forget an address's failures."""
        with self._lock:
            self._failures.pop(address, None)


def logged_in() -> bool:
    """Whether this request carries a staff session."""
    return bool(session.get("staff"))


def require_staff(post: bool = False) -> None:
    """Refuse without a staff session (`unauthorised`), and a POST without its CSRF token (`csrf`)."""
    if not logged_in():
        raise ApiError("unauthorised", "log in as venue staff")
    if post:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), str(session.get("csrf", "")).encode()):
            raise ApiError("csrf", f"missing or wrong {CSRF_HEADER} header")


@bp.post("/api/venue/login")
def login() -> Any:
    """`{login, password}` -> a staff session and its CSRF token."""
    body = json_body({"login": str, "password": str})
    guard: LoginGuard = current_app.extensions["venue_logins"]
    address = request.remote_addr or "?"
    guard.check(address)
    store = current_app.extensions["venue"].store
    if len(body["login"]) > 64 or len(body["password"]) > 256 or not store.check_staff(body["login"], body["password"]):
        guard.failed(address)
        raise ApiError("bad_login", "wrong login or password", 401)
    guard.passed(address)
    session.clear()
    session["staff"] = body["login"]
    session["csrf"] = secrets.token_urlsafe(24)
    return jsonify(ok=True, csrf=session["csrf"])


@bp.post("/api/venue/logout")
def logout() -> Any:
    """End the staff session."""
    require_staff(post=True)
    session.clear()
    return jsonify(ok=True)
