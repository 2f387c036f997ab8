"""`/host`: the host console page, its seat QR codes (SVG, drawn here) and its downloads; PIN session only."""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from companion.games.binding import get_binding
from companion.games.option_spec import option_specs
from companion.games.registry import game_names, get_rules
from companion.web.auth import host_csrf, require_host
from companion.web.errors import ApiError, small_number
from companion.web.lan import seat_url
from companion.web.pages import preferred_lang
from companion.web.replay import export_record_text
from companion.web.site import templates_dir

bp = Blueprint("host", __name__, template_folder=str(templates_dir()))


def games_catalogue() -> list[dict[str, Any]]:
    """Every registered game with its seat range and house-rule options (defaults and declarations: type,
    range, ids), for the new-game form; not the options the table sets from the components."""
    out = []
    for name in game_names():
        rules = get_rules(name)
        tables = get_binding(name).mode_options
        out.append({
            "name": name, "title": rules.title, "min_seats": rules.min_seats, "max_seats": rules.max_seats,
            "options": {k: v for k, v in rules.option_defaults.items() if k not in tables},
            "option_specs": {k: spec.to_json() for k, spec in option_specs(rules).items() if k not in tables},
        })
    return out


def seat_tokens(host_state: dict[str, Any]) -> dict[int, str]:
    """Seat -> token from the table's host state (tokens are listed per seat)."""
    game = host_state.get("game") or {}
    return {int(e["seat"]): str(e["token"]) for e in game.get("seat_tokens", ())
            if isinstance(e, dict) and isinstance(e.get("token"), str)}


@bp.get("/host")
def host_page() -> str:
    """The console; before the PIN only the login form does anything."""
    csrf = host_csrf()
    return render_template("host.html", lang=preferred_lang(), logged_in=csrf is not None, csrf_token=csrf or "")


@bp.get("/host/games.json")
def games() -> Any:
    """The games the table knows (public facts: names, seat ranges, option defaults)."""
    return jsonify(ok=True, games=games_catalogue())


@bp.get("/host/qr/<int:seat>.svg")
def seat_qr(seat: int) -> Response:
    """The QR code of a seat's link, as SVG (host session only: it carries the seat's token); the address is
    one a phone can follow (see companion.web.lan)."""
    require_host(post=False)
    token = seat_tokens(current_app.extensions["table"].host_state()).get(seat)
    if token is None:
        raise ApiError("not_found", f"no seat {seat} in the running game")
    out = io.BytesIO()
    segno.make(seat_url(token), error="m").save(out, kind="svg", scale=4, border=2, omitsize=True)
    body = out.getvalue()
    return Response(body, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/host/export/<kind>.json")
def export(kind: str) -> Response:
    """Download the deck file (`cards.json`) or a finished game's record (`record.json`, `?game=ID` for any
    finished game, else the newest: JSON lines in the replay format, a setup line then one action per line) as
    an attachment."""
    require_host(post=False)
    table = current_app.extensions["table"]
    if kind == "cards":
        result = table.host_command("export_cards", {})
    elif kind == "record":
        game = request.args.get("game")
        number = small_number(game)
        if game is not None and number is None:
            raise ApiError("bad_game_id", f"a game is named by its number, not {game!r}"[:200])
        result = table.host_command("export_record", {} if number is None else {"game": number})
    else:
        raise ApiError("not_found", f"nothing to export called {kind!r}")
    if not isinstance(result, dict):
        raise ApiError(getattr(result, "code", "bad_request"), getattr(result, "message", "export failed"))
    if kind == "cards":
        body, name = json.dumps(result.get("deck", result), ensure_ascii=False, indent=1), "cards.json"
    else:
        body, name = export_record_text(result), f"game-{result.get('id')}.jsonl"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


def register(app: Flask) -> None:
    """Add the host console to an app."""
    app.register_blueprint(bp)
