"""The venue dashboard: a Flask app factory in the table page's style (one blueprint per concern, JSON errors with
stable codes, no inline script or style), drawn by web/templates/venue*.html and web/static/js/venue*.js with the
table page's own translations (web/i18n), so game names and phases read exactly as at the table."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping

from flask import Flask, Response

from companion.venue.board import Board
from companion.venue.collector import Collector
from companion.venue.dashboard import api, auth, pages
from companion.venue.store import VenueStore
from companion.web.errors import install as install_errors
import companion.web.hosts as hosts
from companion.web.headers import secure

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "HEARTBEAT_S": 10.0,
    "MAX_STREAMS": 32,
}
"""HEARTBEAT_S: a comment line on each live stream this often; MAX_STREAMS: live streams open at once."""


@dataclass(frozen=True)
class Venue:
    """What the dashboard reads and drives: the live board, the store, and the broker client (None in tests that
    drive the board directly)."""

    board: Board
    store: VenueStore
    collector: Collector | None


def create_app(config: Mapping[str, Any] | None, venue: Venue) -> Flask:
    """The dashboard app for `venue`; `config` overrides DEFAULTS."""
    app = Flask(__name__, static_folder=None)
    app.config.update(DEFAULTS)
    app.config["SECRET_KEY"] = secrets.token_bytes(32)  # staff log in again after a restart
    app.config.update(dict(config or {}))
    app.extensions["venue"] = venue
    hosts.install(app)  # staff's page on the LAN: a page elsewhere may neither rebind its name nor post to it
    app.extensions["venue_logins"] = auth.LoginGuard()
    app.extensions["venue_streams"] = api.Streams(int(app.config["MAX_STREAMS"]))
    install_errors(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Cache-Control", "no-store")  # staff's data: never kept by a cache
        return secure(response)

    return app
