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
    problems += texts.placeholder_problems(texts.all_texts())
    assert not problems, "missing or inconsistent texts:\n" + "\n".join(problems)


def test_the_check_covers_the_refusals_of_the_table_and_of_each_binding() -> None:
    codes = texts.refusal_codes()
    every = set(game_names())
    assert {"table_paused", "busy", "chance_loop", "no_game", "unauthorised"} <= set(codes)
    assert all(codes[c] == every for c in ("table_paused", "busy", "chance_loop"))
    assert codes["choose_payment"] == {"gangsters_dilemma"}
    assert {"hand_full", "not_in_hand"} <= {c for c, games in codes.items() if "thief_of_baghdad" in games}
    data = copy.deepcopy(texts.all_texts())
    del data["ko"]["codes"]["table_paused"]
    del data["en"]["games"]["thief_of_baghdad"]["codes"]["hand_full"]
    del data["ko"]["games"]["gangsters_dilemma"]["codes"]["choose_payment"]
    problems = texts.missing(data, texts.all_required(seeds=range(1)))
    assert {"ko: codes.table_paused", "en: games.thief_of_baghdad.codes.hand_full",
            "ko: games.gangsters_dilemma.codes.choose_payment"} <= set(problems)


def test_the_check_asks_for_secret_panel_fields_zones_and_kinds() -> None:
    needed = texts.required_keys("boss_wallet", seeds=range(1)) | texts.required_keys("gangsters_dilemma", seeds=range(1))
    assert {"games.boss_wallet.fields.credit_drawn", "games.boss_wallet.fields.hand_complete",
            "games.gangsters_dilemma.fields.private_demands", "games.gangsters_dilemma.fields.choice",
            "zones.seat", "zones.location", "zones.center", "games.gangsters_dilemma.kinds.patrol"} <= needed
    assert not any(k.endswith((".card_info", ".log")) or k.endswith("fields.seat") for k in needed)


def test_the_check_catches_a_placeholder_the_engine_never_fills() -> None:
    data = copy.deepcopy(texts.all_texts())
    data["en"]["games"]["secret_hitler"]["log"]["peeked"] = "{seat} looked at the top three policies."
    problems = texts.placeholder_problems(data)
    assert problems == ["en: games.secret_hitler.log.peeked names {seat}, which its entries never carry"]


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
