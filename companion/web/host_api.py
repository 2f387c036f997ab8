"""Host console API (PIN session + CSRF): login, state, new game, undo, redo, end, resume, enrollment, deck files,
terminal binding."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.web.api import table
from companion.web.auth import client_address, login_host, logout_host, require_host
from companion.web.errors import ApiError, json_body, reply
from companion.web.lan import join_check, seat_base_url, seat_url

bp = Blueprint("host_api", __name__)



@bp.post("/api/host/login")
def login() -> Any:
    """Exchange the host PIN for a session; answers the CSRF token to send with every host POST."""
    body = json_body({"pin": str})
    current_app.extensions["pin_guard"].attempt(table(), body["pin"], client_address())
    return jsonify(ok=True, csrf=login_host())


@bp.post("/api/host/logout")
def logout() -> Any:
    """End the host session."""
    require_host(post=True)
    logout_host()
    return jsonify(ok=True)


@bp.get("/api/host/state")
def host_state() -> Any:
    """Seat tokens (each with the link its QR code carries), terminals, health, history, expected-vs-seen and
    enrollment status."""
    require_host(post=False)
    state = table().host_state()
    base = seat_base_url()  # once per request: finding the LAN address asks the kernel for a route
    game = state.get("game")
    if isinstance(game, dict) and isinstance(game.get("seat_tokens"), list):
        entries = [e for e in game["seat_tokens"] if isinstance(e, dict) and isinstance(e.get("token"), str)]
        holders = current_app.extensions["seat_holders"]
        holders.forget_except([e["token"] for e in entries])
        phones = dict(zip([e["token"] for e in entries], holders.counts([e["token"] for e in entries])))
        state = {**state, "game": {**game, "seat_tokens": [
            {**e, "url": seat_url(e["token"], base), "phones": phones[e["token"]]} if e in entries else e
            for e in game["seat_tokens"]]}}
    return jsonify({**state, "join": join_check(base)})


@bp.get("/api/host/cards")
def export_cards() -> Any:
    """The card registry as a deck file."""
    require_host(post=False)
    return reply(table().host_command("export_cards", {}))


@bp.post("/api/host/bind_terminal")
def bind_terminal() -> Any:
    """Body {terminal, seat}: bind a seat terminal to a seat (seat null unbinds it); the seat's old terminal is
    unbound. The binding is journaled and outlives a restart."""
    require_host(post=True)
    body = json_body({"terminal": str})
    if "seat" not in body:
        raise ApiError("bad_seat", "field 'seat' is required: a seat number, or null to unbind")
    return reply(table().host_command("bind_terminal", {"terminal": body["terminal"], "seat": body["seat"]}))


@bp.post("/api/host/<command>")
def command(command: str) -> Any:
    """Run one host command with the JSON body as its arguments."""
    require_host(post=True)
    known = table().posted_commands()
    if command not in known:
        raise ApiError("unknown_command", f"unknown host command {command!r} (known: {', '.join(known)})")
    return reply(table().host_command(command, json_body()))
