"""Public pages: the table screen `/`, `/about`, the page's assets and translations, and the headers."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, abort, render_template, request, send_from_directory

from companion.web.headers import CSP, secure
from companion.web.site import LANGS, i18n_dir, static_dir, templates_dir

__all__ = ["CSP", "create_blueprint", "error_page", "preferred_lang", "register"]


def preferred_lang() -> str:
    """The browser's language if we have it, else English (the page's switch overrides it client-side)."""
    return request.accept_languages.best_match(LANGS) or "en"


def error_page(key: str, status: int) -> tuple[str, int]:
    """The error page in the browser's language: the words of `key` are in the HTML as served, so a page whose
    script has not run yet (or never runs) never shows another language's text under its own `lang`."""
    from companion.web import texts

    lang = preferred_lang()
    words = texts.flatten(texts.load(lang))
    message = words.get(key) or texts.flatten(texts.load("en"))[key]
    return render_template("error.html", lang=lang, csrf_token="", key=key, message=message), status


def create_blueprint() -> Blueprint:
    """The `pages` blueprint."""
    bp = Blueprint("pages", __name__, template_folder=str(templates_dir()))

    @bp.get("/")
    def table() -> str:
        """The table screen (public view only)."""
        return render_template("table.html", lang=preferred_lang(), csrf_token="",
                               state_url="/api/state", events_url="/api/events")

    @bp.get("/about")
    def about() -> str:
        """Credits and licences."""
        return render_template("about.html", lang=preferred_lang(), csrf_token="")

    @bp.get("/assets/<path:filename>")
    def asset(filename: str) -> Response:
        """CSS and JS (a missing file is a 404)."""
        response = send_from_directory(static_dir(), filename, max_age=300)
        return response

    @bp.get("/i18n/<lang>.json")
    def texts(lang: str) -> Response:
        """One language's texts."""
        if lang not in LANGS:
            abort(404)
        return send_from_directory(i18n_dir(), f"{lang}.json", max_age=300)

    @bp.after_app_request
    def headers(response: Response) -> Response:
        """Security headers on every response of the app."""
        return secure(response)

    return bp


def register(app: Flask) -> None:
    """Add the public pages to an app."""
    app.register_blueprint(create_blueprint())
