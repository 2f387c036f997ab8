"""Public and seat API: GET /api/state, GET /api/events (SSE), GET /api/seat/<token>, POST /api/action; and the
host's live stream, GET /api/host/events."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from companion.web.auth import host_session_check, is_host, require_host, seat_from_token
from companion.web.errors import ApiError, json_body, reply
from companion.web.facade import TableFacade
from companion.web.streams import connection_writer, event_stream

bp = Blueprint("api", __name__)


def table() -> TableFacade:
    """The table handle the app was made with."""
    return current_app.extensions["table"]


@bp.get("/api/state")
def state() -> Any:
    """The public view, table status and hardware health."""
    return jsonify(table().public_state())


@bp.get("/api/events")
def events() -> Response:
    """Server-sent public events; resumes after Last-Event-ID (the header, or `?last_event_id=` when a page
    opens a new stream itself). At most SSE_MAX_STREAMS streams are open at once, SSE_STREAMS_PER_CLIENT from one
    device (above that: 503 stream_limit). Each wake-up (an event, else a heartbeat every SSE_HEARTBEAT_S) checks that
    the client is still there, so a closed stream frees its slot within one heartbeat."""
    return _stream(host=False)


@bp.get("/api/host/events")
def host_events() -> Response:
    """The host's stream (host session): the public events with what only the host may know (a refusal's code
    and seat, a tag's UID) and the host-only ones (enrollment, terminals, reader faults). It ends within one
    heartbeat of the session's end."""
    require_host(post=False)
    return _stream(host=True, live=host_session_check())


def _stream(host: bool, live: Callable[[], bool] | None = None) -> Response:
    """One live stream in a stream slot (`live`: whether its client may still have it)."""
    last_id = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    slot = current_app.extensions["stream_slots"].acquire(request.remote_addr)
    config = current_app.config
    heartbeat = float(config["SSE_HEARTBEAT_S"])
    limit = config.get("SSE_MAX_MESSAGES")  # tests end the stream after N chunks + heartbeats
    client_gone = request.environ.get("waitress.client_disconnected") or (lambda: False)
    gone = client_gone if live is None else (lambda: client_gone() or not live())
    writer = connection_writer(request.environ)
    try:
        sub = table().subscribe(last_id, host)
    except BaseException:
        slot.release()
        raise

    def end() -> None:
        sub.close()
        slot.release()

    def stream() -> Iterator[bytes]:
        try:
            yield from event_stream(sub, heartbeat, gone, limit, writer)
        finally:
            end()

    response = Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(end)  # also when the client left before the first chunk was asked for
    return response


@bp.get("/api/seat/<token>")
def seat_state(token: str) -> Any:
    """A seat's own view and prompt, for the phone holding that seat's token; `others`: how many other phones
    asked for this seat lately (header X-Phone-Id names the asking one), so each is told another holds it."""
    seat = seat_from_token(table(), token)
    others = current_app.extensions["seat_holders"].seen(token, request.headers.get("X-Phone-Id"))
    return jsonify({**table().seat_state(seat), "others": others})


@bp.post("/api/action")
def action() -> Any:
    """An action from a seat (body {token, action[, version]}: the seat state it was chosen on) or from the host
    session (body {action}, CSRF header)."""
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
    return reply(table().submit(seat, body["action"], source, body.get("version") if token is not None else None))
