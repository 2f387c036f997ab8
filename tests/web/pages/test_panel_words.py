"""Every button and every private panel, rendered by the page's own modules from random playouts of every game in
both languages: a card by its name and what it does (never an id such as "sample-14" or a tag id), no `NaN`, no
seat names where a seat's own values are listed, and no two buttons of one prompt alike."""

from __future__ import annotations

import random
import re
from typing import Any, Iterator

import pytest

from companion.games.binding import get_binding
from companion.games.registry import game_names, get_rules
from companion.web import texts
from companion.web.texts import choose_action
from tests.web.pages.test_korean import page  # noqa: F401  (the blank page serving web/static)

pytestmark = pytest.mark.browser

SPECIALS = {"04A1B2C3": {"name": "Bent cop", "timing": "turn_start"},
            "04D5E6F7": {"name": "Alibi", "timing": "round_end"}}
"""Boss's Wallet special cards as a host enrolls them: the id is the card's tag."""
OPTIONS = {"boss_wallet": {"specials": SPECIALS}}
SAMPLES_PER_GAME = 40

RENDER = """async ([game, facts, samples, ko, en]) => {
    const { I18n } = await import("/static/js/i18n.js");
    const { privateFields, secretText } = await import("/static/js/secrets.js");
    const out = [];
    for (const lang of ["en", "ko"]) {
        const i = new I18n(lang, lang === "ko" ? ko : en, en);
        i.facts = facts;
        for (const s of samples) {
            i.setView(game, s.view);
            const buttons = s.legal.map((a) => i.action(a));
            const panel = privateFields({ view: s.view, info: s.info }, facts.catalogue_fields).map((k) => [k, secretText(i, k, s.view[k])]);
            out.push({ lang, step: s.step, seat: s.seat, buttons, panel });
        }
    }
    return out;
}"""

RAW = re.compile(r"sample-\d+|NaN|undefined|\[object|\{\w+(:[^{}]*)?\}|\b[0-9A-F]{8,}\b|\b[a-z]+_[a-z_]+\b")
"""An id, a snake_case key, a tag id, an unfilled placeholder or a number that is not one."""
SEAT_VALUE = re.compile(r"(Seat \d+|\d+번 자리) \d")
"""A seat's name before a bare number: "Seat 1 1" lists a seat's own chips as other seats' scores."""


def samples(game: str, seats: int, seed: int) -> list[dict[str, Any]]:
    """Seat views and legal actions of the acting seats, every few steps of one random game."""
    rules = get_rules(game)
    rng = random.Random(seed)
    state = rules.initial_state(seats, OPTIONS.get(game))
    out: list[dict[str, Any]] = []
    step = 0
    while rules.to_act(state) and step < 600 and len(out) < SAMPLES_PER_GAME:
        acting = [s for s in sorted(rules.to_act(state)) if s >= 0]
        if acting and step % 4 == 0:
            seat = acting[step % len(acting)]
            view, public = rules.view(state, seat), rules.view(state, None)
            info = {k: v for k, v in view.items() if k not in public or public[k] != v}
            out.append({"step": step, "seat": seat, "view": view, "info": info,
                        "legal": rules.legal_actions(state, seat)})
        state = rules.apply(state, choose_action(rules, state, rng))
        step += 1
    return out


@pytest.fixture(scope="module")
def rendered(page: Any) -> dict[str, list[dict[str, Any]]]:  # noqa: F811
    out = {}
    for game in game_names():
        rules = get_rules(game)
        seats = rules.max_seats
        out[game] = page.evaluate(RENDER, [game, get_binding(game).facts(seats), samples(game, seats, seats),
                                           texts.load("ko"), texts.load("en")])
    return out


def test_every_game_was_sampled_with_buttons_and_panels(rendered: dict[str, list[dict[str, Any]]]) -> None:
    for game, rows in rendered.items():
        assert sum(len(r["buttons"]) for r in rows) > 40, game
        assert sum(len(r["panel"]) for r in rows) > 20, game
    labels = {g: " | ".join(b for r in rows for b in r["buttons"]) for g, rows in rendered.items()}
    assert re.search(r"demand \d+ VP \(", labels["gangsters_dilemma"]) and "승점" in labels["gangsters_dilemma"]
    assert "Play special card Bent cop" in labels["boss_wallet"] or "Alibi" in labels["boss_wallet"]


def test_buttons_and_panels_name_cards_never_ids(rendered: dict[str, list[dict[str, Any]]]) -> None:
    problems = set()
    for game, rows in rendered.items():
        for r in rows:
            where = f"{game} {r['lang']} step {r['step']} seat {r['seat'] + 1}"
            for label in r["buttons"]:
                if RAW.search(label):
                    problems.add(f"{where}: button {label!r} shows {RAW.search(label).group(0)!r}")
            for field, text in r["panel"]:
                if RAW.search(text):
                    problems.add(f"{where}: private {field} reads {text!r} ({RAW.search(text).group(0)!r})")
                if SEAT_VALUE.search(text):
                    problems.add(f"{where}: private {field} reads {text!r}: a seat's own values by seat names")
    assert not problems, "\n".join(sorted(problems))


def test_no_two_buttons_of_a_prompt_read_alike(rendered: dict[str, list[dict[str, Any]]]) -> None:
    problems = set()
    for game, rows in rendered.items():
        for r in rows:
            twins = sorted({b for b in r["buttons"] if r["buttons"].count(b) > 1})
            if twins:
                problems.add(f"{game} {r['lang']}: {len(r['buttons'])} buttons, alike: {twins}")
    assert not problems, "\n".join(sorted(problems))
