"""The replay viewer and the Games panel in a real browser: a whole game stepped through in both languages with
every word a translation (the visible-text check of test_visible_text), the hidden switch, the table page's
reveal at game over; screenshots at 1920x1080 and 390x844."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.table.runtime import Runtime
from tests.replay.helpers import GAMES, play_game
from tests.table.helpers import host_call
from tests.web.pages.browser import csp_errors, shot
from tests.web.pages.test_host_page import host_page
from tests.web.pages.test_visible_text import WORDS, open_page, switch
from tests.web.pages.visible import identifiers, problems

LONG = frozenset({"thief_of_baghdad"})
"""Games whose replay here costs ~45 s (a long game stepped through in both languages): `make soak` runs them;
`make test` keeps every other game's, and this game's words and board are checked live by test_visible_text and
test_fit."""

pytestmark = pytest.mark.browser

READ = "() => document.body.innerText"


@pytest.fixture(scope="module")
def finished(runtime: Runtime) -> dict[str, dict[str, Any]]:
    """One finished game of each kind, with a share link each."""
    out = {}
    for seed, (game, seats) in enumerate(GAMES):
        played = play_game(runtime, game, seats, seed)
        played["token"] = host_call(runtime.loop, "share_game", game=played["id"])["token"]
        out[game] = played
    return out


def raw_of(page: Any, game: dict[str, Any], step: int) -> set[str]:
    """The identifiers the page is drawn from at a step (record, step answer): none may show as a word."""
    record = page.evaluate(f"() => fetch('/api/replay/{game['id']}?t={game['token']}').then((r) => r.json())")
    at = page.evaluate(f"() => fetch('/api/replay/{game['id']}/step/{step}?t={game['token']}').then((r) => r.json())")
    return identifiers(record, at) - {record["game"]}


def wait_step(page: Any, step: int, lang: str, hidden: bool) -> None:
    page.wait_for_function(f"() => document.body.dataset.step === '{step}.{lang}.{1 if hidden else 0}'", timeout=10000)


def check(page: Any, game: dict[str, Any], step: int, lang: str, where: str, raw: set[str] | None = None) -> list[str]:
    text = page.evaluate(READ)
    found = problems(text, lang, raw if raw is not None else raw_of(page, game, step), where, words=WORDS[lang])
    return [str(p) for p in found]


def test_a_whole_game_steps_through_in_both_languages_with_every_word_translated(
        browser: Any, base_url: str, finished: dict[str, dict[str, Any]]) -> None:
    game = finished["secret_hitler"]
    raw_of_all = None
    found: list[str] = []
    for lang in ("en", "ko"):
        page = open_page(browser, f"{base_url}/replay/{game['id']}?t={game['token']}", lang)
        errors = csp_errors(page)
        wait_step(page, 0, lang, False)
        if raw_of_all is None:
            raw_of_all = raw_of(page, game, game["actions"])
        hidden = False
        for step in range(1, game["actions"] + 1):
            page.click("#forward")
            if step == game["actions"] // 2:
                page.check("#show-hidden")
                hidden = True
            wait_step(page, step, lang, hidden)
            if step % 10 == 0 or step == game["actions"]:
                raw = raw_of(page, game, step) | raw_of_all
                found += check(page, game, step, lang, f"replay step {step}", raw)
        assert page.is_visible("#outcome") and page.is_disabled("#forward")
        assert page.eval_on_selector_all("#board .seat [data-role]", "els => els.length") == 5
        assert page.eval_on_selector_all("#reveal .reveal-lines li[data-code=session]", "els => els.length") > 0
        page.click("#back")
        wait_step(page, game["actions"] - 1, lang, True)
        page.click("#first")
        wait_step(page, 0, lang, True)
        other = "ko" if lang == "en" else "en"
        switch(page, other)
        wait_step(page, 0, other, True)
        found += check(page, game, 0, other, "replay switched")
        assert not errors, errors
        page.context.close()
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("name", [pytest.param(g, marks=pytest.mark.soak) if g in LONG else g for g, _ in GAMES])
def test_every_game_replays_and_reveals_in_words(browser: Any, base_url: str, finished: dict[str, dict[str, Any]],
                                                  name: str) -> None:
    game = finished[name]
    found: list[str] = []
    for lang in ("en", "ko"):
        page = open_page(browser, f"{base_url}/replay/{game['id']}?t={game['token']}", lang)
        wait_step(page, 0, lang, False)
        page.check("#show-hidden")
        for step in sorted({1, game["actions"] // 3, game["actions"]}):
            page.fill("#scrub", str(step))
            page.dispatch_event("#scrub", "input")
            wait_step(page, step, lang, True)
            found += check(page, game, step, lang, f"{name} step {step}")
        lines = page.eval_on_selector_all("#reveal .reveal-lines li", "els => els.map((e) => e.textContent)")
        assert lines and all(line.strip() for line in lines)
        page.context.close()
    assert not found, "\n".join(found[:20])


def test_screenshots_of_the_replay_at_tv_and_phone_size(browser: Any, base_url: str,
                                                        finished: dict[str, dict[str, Any]]) -> None:
    game = finished["secret_hitler"]
    for (w, hgt), phone in (((1920, 1080), False), ((390, 844), True)):
        ctx = browser.new_context(viewport={"width": w, "height": hgt}, is_mobile=phone, has_touch=phone, locale="ko-KR")
        page = ctx.new_page()
        page.goto(f"{base_url}/replay/{game['id']}?t={game['token']}")
        wait_step(page, 0, "ko", False)
        page.check("#show-hidden")
        page.fill("#scrub", str(game["actions"] * 2 // 3))
        page.dispatch_event("#scrub", "input")
        wait_step(page, game["actions"] * 2 // 3, "ko", True)
        overflow = page.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth")
        assert not overflow
        shot(page, f"replay-{w}x{hgt}-ko")
        ctx.close()


def test_without_a_session_or_link_the_replay_page_says_why_in_words(browser: Any, base_url: str,
                                                                       finished: dict[str, dict[str, Any]]) -> None:
    game = finished["boss_wallet"]
    for lang, url in (("en", f"/replay/{game['id']}"), ("ko", f"/replay/{game['id']}?t=wrong"),
                      ("en", f"/replay/{finished['secret_hitler']['id']}?t={game['token']}")):
        page = open_page(browser, base_url + url, lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        text = page.evaluate(READ)
        assert not problems(text, lang, {"bad_share", "unauthorised"}, url, words=WORDS[lang]), text
        assert page.is_visible(".error") and not page.query_selector("#board")
        page.context.close()


def test_the_games_panel_lists_shares_and_counts_in_both_languages(browser: Any, base_url: str, runtime: Runtime,
                                                                   finished: dict[str, dict[str, Any]]) -> None:
    page = host_page(browser, base_url, "en")
    page.wait_for_selector("#games-body table.games tbody tr")
    rows = page.eval_on_selector_all("#games-body tr[data-game]", "els => els.map((e) => Number(e.dataset.game))")
    assert {g["id"] for g in finished.values()} <= set(rows)
    listing = page.evaluate("() => fetch('/api/host/games').then((r) => r.json())")
    raw = identifiers(listing, page.evaluate("() => fetch('/api/host/games/stats').then((r) => r.json())"))
    raw -= {"tiny"}  # the table tests' own game has no title in the translations (it is not one players get)
    page.click(f"#games-body button[data-share='{finished['gangsters_dilemma']['id']}']")
    page.wait_for_selector("#share-url")
    url = page.input_value("#share-url")
    assert f"/replay/{finished['gangsters_dilemma']['id']}?t=" in url
    # at the table's public address (the seat links' base), never the host browser's loopback: this test's server
    # listens on loopback alone, so the guest opens the same path there
    base = page.evaluate("() => fetch('/api/host/state').then((r) => r.json())")["join"]["seat_base_url"]
    assert url.startswith(base), (url, base)
    url = f"{base_url}/{url[len(base):]}"
    found = []
    for lang in ("en", "ko"):
        if lang == "ko":
            switch(page, "ko")
        text = page.inner_text("#games-panel")
        found += [str(p) for p in problems(text, lang, raw, "games panel", words=WORDS[lang])]
    shot(page, "host-games-ko")
    guest = browser.new_context().new_page()
    guest.goto(url)
    guest.wait_for_function("() => (document.body.dataset.step || '').startsWith('0.')")
    guest.context.close()
    page.context.close()
    assert not found, "\n".join(found)
    assert json.dumps(listing).count('"id"') >= len(finished)


def test_the_table_page_shows_the_reveal_once_the_game_is_over(browser: Any, base_url: str, runtime: Runtime) -> None:
    play_game(runtime, "secret_hitler", 5, 21)
    session = runtime.loop.session
    for lang in ("en", "ko"):
        page = open_page(browser, base_url, lang)
        want = f"{session.game_id}.{len(session.actions)}"
        page.wait_for_function(f"() => document.body.dataset.revealed === '{want}'", timeout=10000)
        lines = page.eval_on_selector_all("#log li[data-code]", "els => els.map((e) => e.dataset.code)")
        assert lines and set(lines) <= {"session", "vetoed", "chaos", "party"}
        raw = identifiers(runtime.loop.session.rules.view(session.state, None)) - {"secret_hitler"}
        assert not problems(page.evaluate(READ), lang, raw, "table reveal", public=True, words=WORDS[lang])
        page.context.close()
