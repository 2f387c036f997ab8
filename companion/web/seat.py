"""`/seat/<token>`: a phone as one seat's private terminal (the token alone authorises it)."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, render_template

from companion.web.pages import error_page, preferred_lang
from companion.web.site import templates_dir

bp = Blueprint("seat", __name__, template_folder=str(templates_dir()))


@bp.get("/seat/<token>")
def seat_page(token: str) -> tuple[str, int] | str:
    """The seat page; an unknown token (another game's, a typo) is a 404 that says so."""
    if current_app.extensions["table"].seat_for_token(token) is None:
        return error_page("ui.bad_token", 404)
    return render_template("seat.html", lang=preferred_lang(), csrf_token="", token=token,
                           state_url=f"/api/seat/{token}", events_url="/api/events", action_url="/api/action")


def register(app: Flask) -> None:
    """Add the seat page to an app."""
    app.register_blueprint(bp)
