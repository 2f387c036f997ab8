"""`/sim`: the simulator page (mock backend only): virtual cards on zones, terminal buttons, the LED strip."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, render_template

from companion.web.auth import host_csrf
from companion.web.pages import error_page, preferred_lang
from companion.web.site import templates_dir

bp = Blueprint("sim", __name__, template_folder=str(templates_dir()))


@bp.get("/sim")
def sim_page() -> tuple[str, int] | str:
    """The simulator, or a 404 page saying it needs the mock backend."""
    if current_app.extensions["table"].sim is None:
        return error_page("ui.sim_off", 404)
    csrf = host_csrf()  # the simulator is the host's: without the session only the PIN form shows
    return render_template("sim.html", lang=preferred_lang(), logged_in=csrf is not None, csrf_token=csrf or "")


def register(app: Flask) -> None:
    """Add the simulator page to an app."""
    app.register_blueprint(bp)
