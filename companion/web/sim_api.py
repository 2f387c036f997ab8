"""Simulated hardware (mock backend only): place/remove tags, press buttons, answer terminals, see the LEDs."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, jsonify, request

from companion.web.api import table
from companion.web.auth import require_host
from companion.web.errors import ApiError, json_body, refusal_response, reply
from companion.errors import CompanionError
from companion.web.facade import SimFacade
from companion.games.json_value import Json

bp = Blueprint("sim_api", __name__)


@bp.before_request
def host_only() -> None:
    """Every simulator route is the host's (it shows what lies on each reader and what each terminal was sent):
    the host session, and its CSRF token on POSTs."""
    require_host(post=request.method != "GET")


def sim() -> SimFacade:
    """The simulator; 404 unless the table runs on the mock backend."""
    s = table().sim
    if s is None:
        raise ApiError("no_sim", "the simulator exists only with the mock backend")
    return s


def done(result: CompanionError | None) -> Any:
    """OK, or the refusal as an error."""
    return refusal_response(result) if result else jsonify(ok=True)


@bp.get("/api/sim/readers")
def readers() -> Any:
    """Every reader, its zone and what rests on it."""
    return jsonify(ok=True, readers=sim().readers())


@bp.get("/api/sim/leds")
def leds() -> Any:
    """The frame showing now and the zone layout."""
    return jsonify(ok=True, **sim().leds())


@bp.post("/api/sim/place")
def place() -> Any:
    """Body {reader, uid}."""
    body = json_body({"reader": str, "uid": str})
    return done(sim().place(body["reader"], body["uid"]))


@bp.post("/api/sim/remove")
def remove() -> Any:
    """Body {reader}."""
    body = json_body({"reader": str})
    return done(sim().remove(body["reader"]))


def new_uid() -> str:
    """A fresh 7-byte UID, as a new tag has."""
    return "04" + secrets.token_hex(6).upper()


@bp.post("/api/sim/tap")
def tap() -> Any:
    """Body {reader, uid?}: put a tag on a reader and take it off again (a tap); without a uid, a new tag's
    (a fresh 7-byte UID), so a whole deck can be enrolled without typing one. Answers the UID tapped."""
    body = json_body({"reader": str})
    uid = body.get("uid")
    if uid is None:
        uid = new_uid()
    elif not isinstance(uid, str):
        raise ApiError("bad_field", "field 'uid' must be a str")
    result = sim().place(body["reader"], uid) or sim().remove(body["reader"])
    return refusal_response(result) if result else jsonify(ok=True, uid=uid.replace(":", "").upper())


@bp.get("/api/sim/buttons")
def buttons() -> Any:
    """The configured buttons, [{seat, key}]: the keys a seat can press."""
    return jsonify(ok=True, buttons=sim().buttons())


@bp.post("/api/sim/press")
def press() -> Any:
    """Body {seat, key}."""
    body = json_body({"seat": int, "key": str})
    return done(sim().press(body["seat"], body["key"]))


@bp.post("/api/sim/terminal")
def terminal() -> Any:
    """Body {terminal, op: connect|disconnect|choose|tap, ballot?, value?, seq?, uid?}; `tap` holds a tag to the
    terminal's own reader and takes it away again (a new tag's without a uid) and answers the UID tapped."""
    body = json_body({"terminal": str, "op": str})
    if body["op"] == "tap":
        uid = body.get("uid")
        if uid is None:
            uid = new_uid()
        elif not isinstance(uid, str):
            raise ApiError("bad_field", "field 'uid' must be a str")
        tapped = sim().tap_terminal(body["terminal"], uid)
        return refusal_response(tapped) if isinstance(tapped, CompanionError) else jsonify(ok=True, uid=tapped)
    seq = body.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise ApiError("bad_field", "field 'seq' must be an int")
    ballot = body.get("ballot")
    if ballot is not None and not isinstance(ballot, str):
        raise ApiError("bad_field", "field 'ballot' must be a str")
    return done(sim().terminal(body["terminal"], body["op"], ballot, body.get("value"), seq))


@bp.get("/api/sim/terminal/<terminal>")
def terminal_screen(terminal: str) -> Any:
    """What a mock terminal has been sent."""
    return reply(_wrap(sim().terminal_messages(terminal)))


def _wrap(result: list[dict[str, Json]] | CompanionError) -> dict[str, Json] | CompanionError:
    return result if isinstance(result, CompanionError) else {"messages": result}


@bp.post("/api/sim/fail")
def fail() -> Any:
    """Body {reader, times} (-1: until healed, 0: heal)."""
    body = json_body({"reader": str, "times": int})
    return done(sim().fail_reader(body["reader"], body["times"]))
