"""Who may POST: a seat token (unguessable, new each game) or the host session (PIN login or a one-time host
link) with a CSRF token.

Host sessions live on the server: the cookie carries only a random session id, so logging out revokes it for good
(a copied cookie is worthless afterwards). Nothing in the cookie is signed or dated: a session's age is kept on
the server by the monotonic clock, so a wall clock that NTP sets right (a Pi has no clock of its own) logs no
one out. They are held in memory and end with the table process: a restart cannot prove that an old cookie was
not copied before a logout it forgot, so the host logs in again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Callable

from flask import Response, after_this_request, current_app, request

from companion.web.errors import ApiError
from companion.web.facade import TableFacade

CSRF_HEADER = "X-CSRF-Token"
HOST_COOKIE = "host_session"
"""The cookie holding a host session's id: random, unsigned, meaningless without the server's record of it."""
MAX_SESSIONS = 16
SESSION_IDLE_S = 12 * 3600.0


@dataclass(frozen=True)
class HostSession:
    """A logged-in host: the CSRF token its POSTs carry, and when it was last used."""

    csrf: str
    last_used: float


@dataclass
class HostSessions:
    """Server-side host sessions by id; at most MAX_SESSIONS (the oldest goes), idle ones expire."""

    clock: Callable[[], float] = time.monotonic
    sessions: "OrderedDict[str, HostSession]" = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self) -> tuple[str, str]:
        """A new session: (id, csrf token)."""
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self.lock:
            self.sessions[sid] = HostSession(csrf, self.clock())
            while len(self.sessions) > MAX_SESSIONS:
                self.sessions.popitem(last=False)
        return sid, csrf

    def get(self, sid: object) -> HostSession | None:
        """The live session with this id (and mark it used), or None."""
        if not isinstance(sid, str):
            return None
        with self.lock:
            found = self.sessions.get(sid)
            now = self.clock()
            if found is None or now - found.last_used > SESSION_IDLE_S:
                self.sessions.pop(sid, None)
                return None
            self.sessions[sid] = replace(found, last_used=now)
            return found

    def revoke(self, sid: object) -> None:
        """End a session for good."""
        with self.lock:
            if isinstance(sid, str):
                self.sessions.pop(sid, None)


def _sessions() -> HostSessions:
    return current_app.extensions["host_sessions"]


def client_address() -> str:
    """The address the request came from (the table serves its LAN directly, with no proxy in front)."""
    return request.remote_addr or "unknown"


def _sid() -> str | None:
    return request.cookies.get(HOST_COOKIE)


def login_host() -> str:
    """Start a host session (ending the one this browser had); returns its CSRF token. The response sets the
    session's cookie (HttpOnly, SameSite=Strict)."""
    _sessions().revoke(_sid())
    sid, csrf = _sessions().open()

    @after_this_request
    def set_cookie(response: Response) -> Response:
        response.set_cookie(HOST_COOKIE, sid, httponly=True, samesite="Strict", secure=request.is_secure)
        return response

    return csrf


def logout_host() -> None:
    """End this browser's host session on the server and forget its cookie."""
    _sessions().revoke(_sid())

    @after_this_request
    def drop_cookie(response: Response) -> Response:
        response.delete_cookie(HOST_COOKIE, httponly=True, samesite="Strict", secure=request.is_secure)
        return response


def host_csrf() -> str | None:
    """The CSRF token of the request's live host session, or None when it has none."""
    found = _sessions().get(_sid())
    return found.csrf if found else None


def is_host() -> bool:
    """Whether the request carries a live host session."""
    return host_csrf() is not None


def host_session_check() -> Callable[[], bool]:
    """A check, callable after the request has returned (a live stream's), that this request's host session
    is still live."""
    sessions, sid = _sessions(), _sid()
    return lambda: sessions.get(sid) is not None


def require_host(post: bool = True) -> None:
    """Refuse unless host; POSTs must also carry the session's CSRF token in the X-CSRF-Token header."""
    csrf = host_csrf()
    if csrf is None:
        raise ApiError("unauthorised", "log in as host first")
    if post:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf.encode()):
            raise ApiError("csrf", f"missing or wrong {CSRF_HEADER} header")


def seat_from_token(table: TableFacade, token: object) -> int:
    """The seat a token belongs to; unknown tokens are refused without saying why."""
    if not isinstance(token, str) or not token:
        raise ApiError("unauthorised", "a seat token is required")
    seat = table.seat_for_token(token)
    if seat is None:
        raise ApiError("unauthorised", "unknown or expired seat token")
    return seat
