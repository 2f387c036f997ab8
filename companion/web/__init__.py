"""The Flask app factory: one blueprint per concern, talking to the table only through `facade.TableFacade`.

Extending (the page issue): register more blueprints in `create_app`; reach the table through
`current_app.extensions["table"]` (a TableFacade) and nothing else; refuse with `errors.ApiError(code, message)`;
validate bodies with `errors.json_body`; guard host POSTs with `auth.require_host()` (session + X-CSRF-Token)
and seat requests with `auth.seat_from_token`. A seat page listens to the public `/api/events` stream and
refetches `GET /api/seat/<token>` on each `state` event (its private view never goes over the public stream).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, Response, jsonify, request

from companion.web import api, boards, errors, host, host_api, host_link, hosts, labels, pages, replay, seat, sim, sim_api
from companion.web.auth import HostSessions
from companion.web.facade import TableFacade
from companion.web.lan import LanAddress
from companion.web.pin_guard import PinGuard
from companion.web.streams import StreamSlots

DEFAULTS: dict[str, Any] = {
    "SSE_HEARTBEAT_S": 1.5,
    "SSE_MAX_STREAMS": 64,
    "SSE_STREAMS_PER_CLIENT": 6,
    "SSE_MAX_MESSAGES": None,
    "MAX_CONTENT_LENGTH": 1 << 20,
    "PUBLIC_URL": None,
    "ALLOWED_HOSTS": (),
    "LAN_IPV4": None,
    "BIND_HOST": None,
    "PIN_GUARD": None,
}
"""SSE_HEARTBEAT_S: a comment line this often keeps data moving so a vanished phone is noticed (the server's
TCP_USER_TIMEOUT), and a stream checks at each one that its client is still connected; SSE_MAX_STREAMS:
streams open at once (the server has that many threads beyond the ordinary ones); SSE_STREAMS_PER_CLIENT:
streams one device may hold (a browser opens at most 6 connections to one server anyway; the table's own
machine is not capped). PUBLIC_URL: the config's `[web] public_url` (seat QR codes use it); ALLOWED_HOSTS: the
config's `[web] allowed_hosts`, more names the table answers to (companion.web.hosts); LAN_IPV4: a callable
finding this machine's LAN address (None: companion.web.lan.lan_ipv4, asked at most every 5 s; tests inject
one, asked every time); BIND_HOST: the address the server listens on (the host page warns when phones cannot
reach it; None: not known); PIN_GUARD: a PinGuard to use (None: a new one with the table's limits)."""


PRIVATE_PREFIXES = ("/api/seat/", "/seat/", "/api/host/", "/host", "/api/sim/", "/sim", "/api/action", "/replay/",
                    "/api/replay/", "/api/reveal")
"""Answers under these carry a seat's or the host's data: never kept by a browser or a proxy cache."""


def no_store(response: Response) -> Response:
    """`Cache-Control: no-store` on seat, host and simulator answers."""
    if request.path.startswith(PRIVATE_PREFIXES):
        response.headers["Cache-Control"] = "no-store"
    return response


def create_app(config: Mapping[str, Any] | None, table: TableFacade) -> Flask:
    """A Flask app serving the API for `table`; `config` overrides DEFAULTS (e.g. SSE_HEARTBEAT_S)."""
    app = Flask(__name__, static_folder=None)
    app.config.update(DEFAULTS)
    app.config.update(dict(config or {}))
    app.extensions["table"] = table
    app.extensions["pin_guard"] = app.config["PIN_GUARD"] or PinGuard()
    app.extensions["host_sessions"] = HostSessions()
    app.extensions["stream_slots"] = StreamSlots(int(app.config["SSE_MAX_STREAMS"]),
                                                 int(app.config["SSE_STREAMS_PER_CLIENT"]))
    app.extensions["lan_address"] = LanAddress()
    errors.install(app)
    hosts.install(app)  # first of the request hooks: a request for another name is refused before anything
    app.after_request(no_store)
    app.register_blueprint(api.bp)
    app.register_blueprint(host_api.bp)
    app.register_blueprint(sim_api.bp)
    for page in (pages, boards, seat, host, host_link, sim, labels, replay):  # the page itself (web/ templates and assets)
        page.register(app)

    @app.get("/healthz")
    def healthz() -> Any:
        """200 once the table is up (the app is only served after the table started)."""
        state = table.public_state()
        return jsonify(ok=True, status=state.get("table", {}).get("status"))

    return app
