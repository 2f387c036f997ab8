"""`/host/link/<token>`: the one-time host login link `companion host-link` prints on the table's computer.

Opening the link shows one button; pressing it (a POST, so a chat app's link preview or a prefetch cannot use
the link up) logs the browser in as host and goes to the host console. The link works once, for minutes, even
while the PIN guard refuses every PIN (companion.table.hostlink holds the record; this page only asks the table).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, redirect, render_template

from companion.web.auth import login_host
from companion.web.pages import error_page, preferred_lang
from companion.web.site import templates_dir

bp = Blueprint("host_link", __name__, template_folder=str(templates_dir()))

STATUS = {"link_expired": 410}


@bp.get("/host/link/<token>")
def link_page(token: str) -> str:
    """The button that uses the link (nothing is checked or used up by opening it)."""
    return render_template("host_link.html", lang=preferred_lang(), csrf_token="", token=token)


@bp.post("/host/link/<token>")
def use_link(token: str) -> Any:
    """Use the link: a host session and the console, or the error page saying why not."""
    refusal = current_app.extensions["table"].redeem_host_link(token)
    if refusal is not None:
        return error_page(f"codes.{refusal.code}", STATUS.get(refusal.code, 403))
    login_host()
    return redirect("/host", 303)


def register(app: Flask) -> None:
    """Add the host-link page to an app."""
    app.register_blueprint(bp)
