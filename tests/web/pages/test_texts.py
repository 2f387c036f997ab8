"""Korean and English texts: every code of every registered engine (and of the table and API) has both."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from companion.games.registry import game_names, get_rules
from companion.web import texts
from companion.web.site import static_dir, templates_dir


def test_every_code_and_key_has_korean_and_english_text() -> None:
    problems = texts.missing(texts.all_texts(), texts.all_required())
    assert not problems, "missing or inconsistent texts:\n" + "\n".join(problems)


def test_the_check_catches_a_missing_text_and_a_placeholder_mismatch() -> None:
    data = copy.deepcopy(texts.all_texts())
    del data["ko"]["codes"]["not_your_turn"]
    data["en"]["ui"]["seat_n"] = "Seat {number}"
    problems = texts.missing(data, texts.all_required(seeds=range(1)))
    assert "ko: codes.not_your_turn" in problems
    assert any(p.startswith("ui.seat_n: placeholders differ") for p in problems)


def test_the_check_asks_for_a_code_an_engine_adds() -> None:
    needed = texts.common_codes()
    assert "codes.wrong_phase" in needed and "codes.csrf" in needed
    assert "ko: codes.no_such_code" in texts.missing(texts.all_texts(), needed | {"codes.no_such_code"})


@pytest.mark.parametrize("game", game_names())
def test_each_engine_lists_its_codes_and_phases(game: str) -> None:
    rules = get_rules(game)
    keys = texts.required_keys(game, seeds=range(1))
    assert {f"games.{game}.actions.{a}" for a in rules.actions} <= keys
    assert {f"games.{game}.phases.{p}" for p in rules.phases} <= keys


KEY_IN_SOURCE = re.compile(r"""(?:data-i18n(?:-label|-placeholder)?="|\bt\(\s*["'`]|t\(\s*)((?:ui|host|sim|about|codes)\.[a-z_]+)""")


def test_every_text_key_the_page_uses_exists() -> None:
    """Keys named literally in the templates and scripts exist in both languages."""
    used: set[str] = set()
    for path in [*Path(templates_dir()).glob("*.html"), *Path(static_dir()).rglob("*.js")]:
        used |= set(KEY_IN_SOURCE.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 40, sorted(used)
    problems = texts.missing(texts.all_texts(), used)
    assert not problems, "\n".join(problems)
