"""Public and seat API: GET /api/state, GET /api/events (SSE), GET /api/seat/<token>, POST /api/action."""

from __future__ import annotations

import json
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.web.auth import is_host, require_host, seat_from_token
from companion.web.errors import ApiError, json_body, reply
from companion.web.facade import Event, TableFacade

bp = Blueprint("api", __name__)


def table() -> TableFacade:
    """The table handle the app was made with."""
    return current_app.extensions["table"]


def sse_format(event: Event) -> str:
    """One event in text/event-stream framing, with its `id:` line."""
    data = json.dumps(event.data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event.id}\nevent: {event.type}\ndata: {data}\n\n"


@bp.get("/api/state")
def state() -> Any:
    """The public view, table status and hardware health."""
    return jsonify(table().public_state())


@bp.get("/api/events")
def events() -> Response:
    """Server-sent public events; resumes after Last-Event-ID; a comment heartbeat keeps dead clients from
    holding a server thread forever."""
    last_id = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    heartbeat = float(current_app.config["SSE_HEARTBEAT_S"])
    limit = current_app.config.get("SSE_MAX_MESSAGES")  # tests end the stream after N events + heartbeats
    sub = table().subscribe(last_id)

    def stream() -> Iterator[str]:
        sent = 0
        try:
            yield "retry: 2000\n\n"
            while (limit is None or sent < limit) and not sub.closed:
                event = sub.get(heartbeat)
                sent += 1
                yield ": heartbeat\n\n" if event is None else sse_format(event)
        finally:
            sub.close()

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/api/seat/<token>")
def seat_state(token: str) -> Any:
    """A seat's own view and prompt, for the phone holding that seat's token."""
    seat = seat_from_token(table(), token)
    return jsonify(table().seat_state(seat))


@bp.post("/api/action")
def action() -> Any:
    """An action from a seat (body {token, action}) or from the host session (body {action}, CSRF header)."""
    body = json_body({"action": dict})
    token = body.get("token")
    if token is not None:
        seat: int | None = seat_from_token(table(), token)
        acted = body["action"].get("seat", seat)
        if acted != seat:
            raise ApiError("not_your_seat", "this token acts only for its own seat")
        source = f"seat_page:{seat}"
    elif is_host():
        require_host(post=True)
        seat, source = None, "host"
    else:
        raise ApiError("unauthorised", "a seat token or a host session is required")
    return reply(table().submit(seat, body["action"], source))
