"""Where the page's files are: the installed copy inside the package, else the repository's top-level web/."""

from __future__ import annotations

from pathlib import Path

INSTALLED = Path(__file__).resolve().parent / "_site"
"""build_py copies top-level web/ here in a non-editable install (see setup.py)."""

SOURCE = Path(__file__).resolve().parents[2] / "web"
"""The repository's web/ folder (editable installs and running from a checkout)."""

LANGS = ("ko", "en")
"""The page's languages; the first is the table's home language."""


def web_root() -> Path:
    """The folder holding templates/, static/ and i18n/; raises when neither copy exists."""
    for root in (INSTALLED, SOURCE):
        if (root / "templates" / "base.html").is_file():
            return root
    raise FileNotFoundError(f"the page's files are missing (looked in {INSTALLED} and {SOURCE})")


def templates_dir() -> Path:
    """Jinja templates."""
    return web_root() / "templates"


def static_dir() -> Path:
    """CSS and JS."""
    return web_root() / "static"


def i18n_dir() -> Path:
    """Translations, one JSON file per language."""
    return web_root() / "i18n"
