"""The Flask app factory: one blueprint per concern, talking to the table only through `facade.TableFacade`.

Extending (the page issue): register more blueprints in `create_app`; reach the table through
`current_app.extensions["table"]` (a TableFacade) and nothing else; refuse with `errors.ApiError(code, message)`;
validate bodies with `errors.json_body`; guard host POSTs with `auth.require_host()` (session + X-CSRF-Token)
and seat requests with `auth.seat_from_token`. A seat page listens to the public `/api/events` stream and
refetches `GET /api/seat/<token>` on each `state` event (its private view never goes over the public stream).
"""

from __future__ import annotations

import secrets
from typing import Any, Mapping

from flask import Flask, jsonify

from companion.web import api, errors, host, host_api, pages, seat, sim, sim_api
from companion.web.auth import PinGuard
from companion.web.facade import TableFacade

DEFAULTS: dict[str, Any] = {
    "SSE_HEARTBEAT_S": 15.0,
    "SSE_MAX_MESSAGES": None,
    "MAX_CONTENT_LENGTH": 1 << 20,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "PUBLIC_URL": None,
    "LAN_IPV4": None,
    "BIND_HOST": None,
}
"""PUBLIC_URL: the config's `[web] public_url` (seat QR codes use it); LAN_IPV4: a callable finding this
machine's LAN address (None: companion.web.lan.lan_ipv4; tests inject one); BIND_HOST: the address the server
listens on (the host page warns when phones cannot reach it; None: not known)."""


def create_app(config: Mapping[str, Any] | None, table: TableFacade) -> Flask:
    """A Flask app serving the API for `table`; `config` overrides DEFAULTS (e.g. SSE_HEARTBEAT_S)."""
    app = Flask(__name__, static_folder=None)
    app.config.update(DEFAULTS)
    # A fresh key per process: host sessions end with the process, which is what a table wants.
    app.config["SECRET_KEY"] = secrets.token_bytes(32)
    app.config["SESSION_EPOCH"] = secrets.token_hex(8)
    app.config.update(dict(config or {}))
    app.extensions["table"] = table
    app.extensions["pin_guard"] = PinGuard()
    errors.install(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(host_api.bp)
    app.register_blueprint(sim_api.bp)
    for page in (pages, seat, host, sim):  # the page itself (web/ templates and assets)
        page.register(app)

    @app.get("/healthz")
    def healthz() -> Any:
        """200 once the table is up (the app is only served after the table started)."""
        state = table.public_state()
        return jsonify(ok=True, status=state.get("table", {}).get("status"))

    return app
