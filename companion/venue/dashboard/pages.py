"""The dashboard's pages (the grid, results, login), its assets and the translations it shares with the table's
page (web/static, web/i18n)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, send_from_directory, session

from companion.venue.dashboard.auth import logged_in
from companion.web.site import LANGS, i18n_dir, static_dir, templates_dir

bp = Blueprint("venue_pages", __name__, template_folder=str(templates_dir()))


def _lang() -> str:
    return request.accept_languages.best_match(LANGS) or "en"


@bp.get("/")
def grid() -> Any:
    """Every table at a glance, the alerts and the announcement (staff only: else the login page)."""
    if not logged_in():
        return redirect("/login")
    return render_template("venue.html", lang=_lang(), csrf_token=session.get("csrf", ""), page="grid",
                           script="venue")


@bp.get("/results")
def results() -> Any:
    """Results and standings with their CSV exports."""
    if not logged_in():
        return redirect("/login")
    return render_template("venue_results.html", lang=_lang(), csrf_token=session.get("csrf", ""),
                           page="results", script="venue-results")


@bp.get("/login")
def login() -> str:
    """The staff login."""
    return render_template("venue_login.html", lang=_lang(), csrf_token="", page="login", script="venue-login")


@bp.get("/assets/<path:filename>")
def asset(filename: str) -> Response:
    """CSS and JS (the table page's folder: the dashboard shares its modules)."""
    return send_from_directory(static_dir(), filename, max_age=300)


@bp.get("/i18n/<lang>.json")
def texts(lang: str) -> Response:
    """One language's texts: the table page's own file."""
    if lang not in LANGS:
        abort(404)
    return send_from_directory(i18n_dir(), f"{lang}.json", max_age=300)
