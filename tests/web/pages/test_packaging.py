"""A non-editable install ships the page: setup.py's build step copies web/ into the package, and the
page finds that copy first."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from companion.web import site

ROOT = Path(__file__).resolve().parents[3]


def load_setup():
    spec = importlib.util.spec_from_file_location("setup_under_test", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # guarded: setup() runs only as __main__
    return module


def test_build_copies_every_page_file_into_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = load_setup().copy_site(str(tmp_path))
    shipped = tmp_path / "companion" / "web" / "_site"
    source = {p.relative_to(ROOT / "web") for p in (ROOT / "web").rglob("*") if p.is_file()}
    assert {Path(p).relative_to(shipped) for p in written} == source
    assert {"templates/base.html", "static/js/table.js", "static/css/app.css", "i18n/ko.json"} <= {str(p) for p in source}
    monkeypatch.setattr(site, "INSTALLED", shipped)
    assert site.web_root() == shipped
    assert (site.i18n_dir() / "en.json").read_bytes() == (ROOT / "web" / "i18n" / "en.json").read_bytes()


def test_a_missing_page_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(site, "INSTALLED", tmp_path / "a")
    monkeypatch.setattr(site, "SOURCE", tmp_path / "b")
    with pytest.raises(FileNotFoundError, match="page's files are missing"):
        site.web_root()


def test_manifest_ships_web_in_the_sdist() -> None:
    assert "graft web" in (ROOT / "MANIFEST.in").read_text().splitlines()


def test_every_game_board_ships_with_its_package() -> None:
    """A game's board.js and board.css are package data of companion.games (pyproject.toml), so a wheel has them."""
    import tomllib

    from companion.games.registry import all_games

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    globs = declared["companion.games"]
    for game in all_games():
        for path in (game.board_script, game.board_style):
            if path is not None:
                assert any(path.relative_to(ROOT / "companion" / "games").match(g) for g in globs), path
    assert "recursive-include companion/games board.js board.css RULINGS.md" in (ROOT / "MANIFEST.in").read_text()
