"""JSON errors with stable codes for every API failure (4xx; a 500 is a bug and still answers JSON)."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError, RefusedError
from companion.ratelog import RateLimitedLog

STATUS_BY_CODE: dict[str, int] = {
    "bad_json": 400, "malformed": 400, "bad_field": 400, "unknown_reader": 400, "unknown_button": 400,
    "unknown_terminal": 400, "bad_request": 400, "unknown_command": 400, "bad_deck": 400, "bad_uid": 400,
    "bad_card": 400, "bad_choice": 400, "bad_terminal": 400, "bad_seat": 400, "unknown_game": 400,
    "bad_seat_count": 400, "no_deck_list": 404, "bad_game_id": 400, "bad_step": 400,
    "journal_full": 409, "journal_locked": 409, "journal_readonly": 409, "journal_io": 409, "journal_error": 409,
    "unauthorised": 401, "bad_pin": 401, "pin_locked": 429, "pin_table_locked": 429,
    "csrf": 403, "not_your_seat": 403, "forbidden": 403, "bad_share": 403, "foreign_origin": 403, "bad_link": 403,
    "not_found": 404, "no_such_game": 404, "no_sim": 404, "stream_limit": 503, "connection_limit": 503,
    "foreign_host": 421, "link_expired": 410, "journal_gone": 409,
    "method_not_allowed": 405, "too_large": 413, "unsupported_media_type": 415,
}
"""HTTP status per refusal code; any other code (the rules' own: not_your_turn, term_limited...) is 409."""


TYPE_NAMES: dict[type, str] = {dict: "JSON object", str: "string", int: "integer", list: "list", bool: "boolean"}


class ApiError(RefusedError, ValueError):
    """Abort a request with a refusal code; turned into a JSON error response."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(code, message)
        self.status = status or status_of(code)


def status_of(code: str) -> int:
    """The HTTP status for a refusal code (409 for the rules' and the table's own codes)."""
    return STATUS_BY_CODE.get(code, 409)


def refusal_response(refusal: CompanionError) -> tuple[Response, int]:
    """Any refusal of the error root (from the table, the rules, a card check) as an HTTP error."""
    extra = {"params": refusal.params} if refusal.params else {}  # words a refusal names, in each language
    return jsonify(ok=False, code=refusal.code, message=refusal.message, **extra), status_of(refusal.code)


def reply(result: Any) -> Any:
    """A table result (dict or a refusal) as an HTTP answer."""
    if isinstance(result, CompanionError):
        return refusal_response(result)
    return jsonify({"ok": True, **result})


def json_body(required: dict[str, type | tuple[type, ...]] | None = None) -> dict[str, Any]:
    """The request's JSON object, with required fields type-checked; anything else raises ApiError (400)."""
    if request.mimetype != "application/json":
        raise ApiError("unsupported_media_type", "send a JSON body with Content-Type: application/json")
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8") if raw else "")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError("bad_json", f"the body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ApiError("bad_json", "the body is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError("bad_json", "the body must be a JSON object")
    if not _encodable(body):
        raise ApiError("bad_json", "the body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is no character")
    for name, kind in (required or {}).items():
        value = body.get(name)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if value is None or isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise ApiError("bad_field", f"field {name!r} must be a {names}")
    return body


MAX_DIGITS = 18
"""A number read from a query or header has at most this many digits (far above any id the table makes, below
where int() of a long string gets slow or refuses: 4,300 digits)."""


def small_number(text: str | None) -> int | None:
    """A non-negative integer written in 1 to MAX_DIGITS ASCII digits, else None (`str.isdigit` alone lets
    superscripts and other scripts' digits through, and int() accepts those or fails on them)."""
    if not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def _encodable(value: Any) -> bool:
    """Whether every string in a parsed JSON value is real text (JSON's `\\ud800` escapes decode to lone surrogates,
    which no PIN, token or name holds and which cannot be written out as UTF-8)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def install(app: Flask) -> None:
    """Register the JSON error handlers; a bug is logged with its traceback once a minute per kind, with a count
    (a client repeating what triggers it cannot fill the log)."""
    limited = RateLimitedLog(app.logger)

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> tuple[Response, int]:
        return jsonify(ok=False, code=exc.code, message=exc.message), exc.status

    @app.errorhandler(CompanionError)
    def _refused(exc: CompanionError) -> tuple[Response, int]:
        return refusal_response(exc)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> tuple[Response, int]:
        status = exc.code or 400
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type"}.get(
            status, "bad_request")
        return jsonify(ok=False, code=code, message=exc.description or code), status

    @app.errorhandler(Exception)
    def _bug(exc: Exception) -> tuple[Response, int]:
        limited.error(f"{type(exc).__name__}:{request.endpoint}", "unhandled error in %s %s", request.method,
                      request.path[:200], exc_info=exc)
        return jsonify(ok=False, code="internal", message="internal error (logged)"), 500
