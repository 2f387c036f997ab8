"""The pages at real sizes in Debian's Chromium: the table screen on a 1080p and a 4K TV for every game at its
largest seat count (one screen, no scrolling, readable sizes, the full reveal at game over), its banners, and
the table, seat, host and sim pages on a 390x844 phone in both languages (nothing wider than the screen, no word
broken inside)."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import GameConfig, PollingConfig, demo_config
from companion.games import game_names, get_rules
from companion.table.runtime import Runtime
from tests.table.helpers import host_call, hw
from tests.web.pages.browser import ARTIFACTS, csp_errors, serve, shot
from tests.web.pages.conftest import PIN

pytestmark = pytest.mark.browser

GAMES = game_names()
LONG = frozenset({"thief_of_baghdad"})
"""Games followed through a whole game on the TV only by `make soak` (~20-30 s here: a long game); `make test`
checks their TV at the middle of a game in both languages (test_fit, test_tv_1080p_fits_one_screen_in_both_languages)
and every other game's to the reveal."""
TV_PARTS = "#board [data-part]"
"""What must be on a TV screen, whole, in every game: each panel of its board (board_kit.js `panel`)."""
SEAT_NAME = "#board .seat-name"
"""Each seat's name on a board (every renderer marks it)."""
MIN_KEY_PX_1080 = 30
"""Seat names and the Secret Hitler badges at least this font size at 1080p: a cap height of about 21 px, 12 mm on
a 50-inch screen, 14 arcminutes at 3 m (README "The table screen")."""
MIDGAME_STEPS = 40
"""Random actions to a game's middle."""

OVERFLOW = """() => {
  const de = document.documentElement, vw = innerWidth, vh = innerHeight, out = [];
  if (de.scrollWidth > de.clientWidth) out.push(`document ${de.scrollWidth} > ${de.clientWidth}`);
  for (const el of document.body.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > vw + 1 || r.left < -1) out.push(`${el.tagName}.${el.className} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${vw}`);
    const clips = ['auto', 'scroll', 'hidden'].includes(cs.overflowX);
    if (clips && el.scrollWidth > el.clientWidth + 1 && cs.textOverflow !== 'ellipsis')
      out.push(`${el.tagName}.${el.className} scrolls sideways ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return out.slice(0, 12);
}"""
"""Everything wider than the viewport, or scrolling sideways inside its box (an ellipsis is a choice, not a fault)."""

BROKEN_WORDS = """() => {
  // a word (between spaces, hyphens, slashes and punctuation) whose letters sit on more than one line
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('[hidden], .seat-url, code, svg') || !el.getClientRects().length) continue;
    const re = /[^\\s\\-\\u2013\\u2014\\/,.:;()·×+]{2,}/g;
    for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out.slice(0, 12);
}"""

TV_FIT = """(parts) => {
  const de = document.documentElement, vh = innerHeight, vw = innerWidth, out = [];
  if (de.scrollHeight > vh) out.push(`page ${de.scrollHeight} px tall in a ${vh} px screen`);
  if (!document.querySelector(parts)) out.push(`${parts} missing`);
  for (const sel of [...new Set([...document.querySelectorAll(parts)].map((e) => `[data-part="${e.dataset.part}"]`))]) {
    const el = document.querySelector(sel);
    if (!el) { out.push(`${sel} missing`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > vh + 0.5 || r.left < 0 || r.right > vw + 0.5) out.push(`${sel} at ${Math.round(r.top)}..${Math.round(r.bottom)} x ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // nothing clipped inside its own box either (the log alone scrolls, showing the newest lines)
  for (const el of document.querySelectorAll('#board .panel, #board .seat, #board .location, #board .palace, .banners > *')) {
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.className} [${el.dataset.part || el.dataset.seat || ''}] clips ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
  }
  return out;
}"""


def assert_none(problems: list[str], where: str = "") -> None:
    """Fail with every problem listed in full."""
    assert not problems, f"{where}: " + "; ".join(problems)


def table_call(rt: Runtime, name: str, **args: Any) -> Any:
    """A loop command as the host page sends it."""
    return host_call(rt.loop, name, **args)


def play(rt: Runtime, game: str, steps: int | None, seed: int) -> None:
    """Random legal actions (`steps` of them, or until the game is over with None)."""
    rules = get_rules(game)
    rng = random.Random(seed)
    done = 0
    while steps is None or done < steps:
        state = rt.loop.session.state
        acting = sorted(rules.to_act(state))
        if not acting or rules.outcome(state) is not None:
            break
        table_call(rt, "submit", seat=None, action=rng.choice(rules.legal_actions(state, acting[0])), source="test")
        done += 1
    rt.loop.wait_idle()


def start(rt: Runtime, game: str, seats: int | None = None) -> int:
    """A fresh game of `game` at its largest seat count the table has (or `seats`); returns the seat count."""
    n = seats or min(get_rules(game).max_seats, len(rt.config.seats))
    table_call(rt, "end_game")
    assert table_call(rt, "new_game", game=game, seats=n, components="digital").get("game_id") is not None
    return n


SEAT_NAMES = ("Mina", "Joon-ho", "Grandma Kim", "서연", "Ari", "Tomás", "", "Sung-min", "Olu", "Christophe")
"""Configured names as a real table has them (one left unnamed: "Seat 7"), long and short, in both scripts."""


def seat_name(seat: int, lang: str) -> str:
    """A seat as the page names it: its configured name, else "Seat N" in the page's language."""
    return SEAT_NAMES[seat] or (f"{seat + 1}번 자리" if lang == "ko" else f"Seat {seat + 1}")


@pytest.fixture(scope="module")
def table() -> Iterator[Runtime]:
    """A table of its own with named seats, its journal on tmpfs when there is one (whole games of Thief of Baghdad
    are long)."""
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as data:
        base = demo_config()
        cfg = replace(base, data_dir=data, game=GameConfig("secret_hitler", 5, "digital"),
                      seats=tuple(replace(seat, name=name) for seat, name in zip(base.seats, SEAT_NAMES)),
                      polling=PollingConfig(interval_ms=5, removal_ms=25), web=replace(base.web, host_pin=PIN))
        rt = Runtime(cfg, rng=random.Random(7)).start()
        try:
            yield rt
        finally:
            rt.stop()


@pytest.fixture(scope="module")
def base_url(table: Runtime) -> Iterator[str]:
    with serve(table.app(SSE_HEARTBEAT_S=1.0)) as url:
        yield url


def open_page(browser: Any, url: str, width: int, height: int, lang: str, phone: bool = False,
              clock: bool = False) -> Any:
    """A page in a fresh context of that size and language (a phone: mobile viewport and touch)."""
    ctx = browser.new_context(locale="ko-KR" if lang == "ko" else "en-US", viewport={"width": width, "height": height},
                              is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    if clock:
        page.clock.install()
    page.goto(url)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    return page


def wait_board(page: Any, rt: Runtime) -> None:
    """Until the table page shows the table's current state."""
    session = rt.loop.session
    want = f"{session.game_id}.{len(session.actions)}"
    page.wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=10000)
    page.wait_for_timeout(150)  # the log scrolls to its end in the next frame


def font_px(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "el => parseFloat(getComputedStyle(el).fontSize)"))


@pytest.mark.parametrize("game", GAMES)
def test_tv_1080p_fits_one_screen_in_both_languages(browser: Any, base_url: str, table: Runtime, game: str) -> None:
    """At its largest seat count, mid-game, the table page is one 1920x1080 screen: nothing below the fold or
    clipped, the key parts whole on screen, seat names at a size read from 3 m, no word broken inside."""
    n = start(table, game)
    play(table, game, MIDGAME_STEPS, seed=5)
    for lang in ("en", "ko"):
        page = open_page(browser, base_url, 1920, 1080, lang)
        errors = csp_errors(page)
        wait_board(page, table)
        shot(page, f"tv-{game}-1080p-{lang}")
        assert_none(page.evaluate(TV_FIT, TV_PARTS), lang)
        assert_none(page.evaluate(OVERFLOW), lang)
        assert_none(page.evaluate(BROKEN_WORDS), lang)
        assert font_px(page, SEAT_NAME) >= MIN_KEY_PX_1080
        shown = page.eval_on_selector_all(SEAT_NAME, "els => els.map(e => e.textContent)")
        assert len(shown) == n and all(seat_name(i, lang) in text for i, text in enumerate(shown)), shown
        assert not errors, errors
        page.context.close()


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.soak) if g in LONG else g for g in GAMES])
def test_tv_fits_through_a_whole_game(browser: Any, base_url: str, table: Runtime, game: str) -> None:
    """The same page followed live from the deal to the reveal: every few actions it still fits one screen."""
    n = start(table, game)
    page = open_page(browser, base_url, 1920, 1080, "en")
    errors = csp_errors(page)
    rules = get_rules(game)
    for round_ in range(40):  # a look every 12 actions, then spaced out so a long game ends in 40 looks
        play(table, game, max(12, len(table.loop.session.actions) // 3), seed=100 + round_)
        wait_board(page, table)
        misfit = page.evaluate(TV_FIT, TV_PARTS)
        if misfit:
            shot(page, f"tv-{game}-misfit")
        assert_none(misfit, f"after {len(table.loop.session.actions)} actions")
        if rules.outcome(table.loop.session.state) is not None:
            break
    outcome = rules.outcome(table.loop.session.state)
    assert outcome is not None, "the game did not end"
    shot(page, f"tv-{game}-game-over-en")
    assert page.is_visible("#outcome")
    winners = page.eval_on_selector_all("#board .badge.winner", "els => els.map(e => Number(e.dataset.winner))")
    assert sorted(winners) == sorted(outcome.winners)
    assert len(page.eval_on_selector_all("#board [data-seat]", "els => els")) >= n
    assert not errors, errors
    page.context.close()


def test_secret_hitler_game_over_reveals_every_role(browser: Any, base_url: str, table: Runtime) -> None:
    start(table, "secret_hitler")
    play(table, "secret_hitler", None, seed=9)
    session = table.loop.session
    roles = list(session.state.roles)
    for lang in ("en", "ko"):
        page = open_page(browser, base_url, 1920, 1080, lang)
        wait_board(page, table)
        shown = page.eval_on_selector_all("#board .seat", "els => els.map(e => (e.querySelector('[data-role]') || {dataset: {}}).dataset.role)")
        assert shown == roles
        words = page.eval_on_selector_all("#board .seat .badge.role", "els => els.map(e => e.textContent)")
        want = {"en": {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"},
                "ko": {"liberal": "자유당원", "fascist": "파시스트", "hitler": "히틀러"}}[lang]
        assert words == [want[r] for r in roles]
        assert_none(page.evaluate(TV_FIT, TV_PARTS), lang)
        shot(page, f"tv-secret_hitler-reveal-{lang}")
        page.context.close()


def test_boss_wallet_game_over_shows_final_chip_values(browser: Any, base_url: str, table: Runtime) -> None:
    start(table, "boss_wallet")
    play(table, "boss_wallet", None, seed=3)
    view = get_rules("boss_wallet").view(table.loop.session.state, None)
    page = open_page(browser, base_url, 1920, 1080, "en")
    wait_board(page, table)
    shown = page.eval_on_selector_all("#board [data-chip-values]", "els => els.map(e => e.dataset.chipValues)")
    assert shown == [",".join(str(c) for c in p["chip_values"]) for p in view["players"]]
    totals = page.eval_on_selector_all("#board [data-chip-values]", "els => els.map(e => e.querySelector('.chip-total').textContent)")
    assert totals == [str(sum(p["chip_values"])) for p in view["players"]]
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_tv_4k_fills_the_screen(browser: Any, base_url: str, table: Runtime, game: str) -> None:
    """On 3840x2160 the page is the 1080p layout twice the size: it spans the width, still one screen."""
    start(table, game)
    play(table, game, MIDGAME_STEPS, seed=5)
    page = open_page(browser, base_url, 3840, 2160, "en")
    wait_board(page, table)
    shot(page, f"tv-{game}-4k-en")
    assert_none(page.evaluate(TV_FIT, TV_PARTS))
    span = page.evaluate("() => { const r = document.getElementById('layout').getBoundingClientRect(); return [r.width, r.height]; }")
    assert span[0] >= 0.95 * 3840 and span[1] >= 0.85 * 2160, span
    assert font_px(page, SEAT_NAME) >= 2 * MIN_KEY_PX_1080
    page.context.close()


SHOWN_AT = """() => { const el = document.getElementById('table-notice');
  new MutationObserver(() => { if (!el.hidden && !window.__shownAt) window.__shownAt = Date.now(); })
    .observe(el, {attributes: true}); }"""
"""Note on the page's own clock when the banner went up."""


def notice_text(page: Any) -> str:
    return page.inner_text("#table-notice") if page.is_visible("#table-notice") else ""


def test_refusal_and_unknown_tag_banners_name_the_seat_and_expire(browser: Any, base_url: str, table: Runtime) -> None:
    """A refusal reads "Refused on <seat name>: <reason>", an unknown tag "Unknown tag on <seat name>"; each is gone
    about 8 s later (the page's clock is driven by the test), and neither survives the game's end."""
    start(table, "secret_hitler", 5)
    table.loop.wait_idle()
    page = open_page(browser, base_url, 1920, 1080, "en", clock=True)
    errors = csp_errors(page)
    wait_board(page, table)
    names = SEAT_NAMES
    page.evaluate(SHOWN_AT)
    hw(table).press(1, "ja")  # no vote is open: refused on seat 2's zone
    page.wait_for_selector("#table-notice:not([hidden])")
    text = notice_text(page)
    assert text.startswith(f"Refused on {names[1]}: ") and "seat:" not in text and "{" not in text, text
    # the page's time stands still from a moment a little ahead (pause_at refuses a time already past, and the page's
    # clock runs on while the call travels)
    page.clock.pause_at((page.evaluate("() => Date.now()") + 500) / 1000)
    waited = page.evaluate("() => Date.now() - window.__shownAt")
    page.clock.run_for(7000 - waited)
    assert page.is_visible("#table-notice"), "gone before 7 s"
    shot(page, "tv-refusal-banner-en")
    page.clock.run_for(1500)
    page.wait_for_selector("#table-notice", state="hidden")
    hw(table).place("r2", "04DEADBEEF0001")  # nobody enrolled it
    try:
        page.wait_for_selector("#table-notice:not([hidden])")
        assert notice_text(page) == f"Unknown tag on {names[2]}"
        page.click("button[data-lang=ko]")  # the banner follows the language
        page.wait_for_function("() => document.getElementById('table-notice').textContent.includes('등록되지 않은 태그')")
        # the game ends: the banner goes with it at once, without waiting for its time
        table_call(table, "end_game")
        page.wait_for_selector("#table-notice", state="hidden", timeout=3000)
    finally:
        hw(table).remove("r2")
    page.click("button[data-lang=en]")
    start(table, "secret_hitler", 5)
    hw(table).press(0, "ja")
    page.wait_for_selector("#table-notice:not([hidden])")
    start(table, "secret_hitler", 5)  # a new game: the old game's banner is not shown over it
    page.wait_for_selector("#table-notice", state="hidden", timeout=3000)
    assert not errors, errors
    page.context.close()


def test_end_the_game_leaves_no_board(browser: Any, base_url: str, table: Runtime) -> None:
    start(table, "gangsters_dilemma")
    play(table, "gangsters_dilemma", 20, seed=2)
    page = open_page(browser, base_url, 1920, 1080, "en")
    wait_board(page, table)
    assert page.inner_text("#game-title") == "Gangster's Dilemma"
    table_call(table, "end_game")
    page.wait_for_selector("#idle:not([hidden])")
    assert page.inner_html("#board") == "" and page.inner_html("#log") == ""
    assert page.inner_text("#game-title") == "Table companion"
    assert page.is_hidden("#phase") and page.inner_text("#to-act") == "" and page.is_hidden("#outcome")
    shot(page, "tv-no-game-en")
    page.context.close()


def test_thief_of_baghdad_colours_survive_live_updates(browser: Any, base_url: str, table: Runtime) -> None:
    """Seat chips and palace colours are CSS variables; a live update that changes them keeps them (an inline style
    written with setAttribute is blocked by our own CSP and left them grey)."""
    start(table, "thief_of_baghdad")
    page = open_page(browser, base_url, 1920, 1080, "en")
    errors = csp_errors(page)
    wait_board(page, table)
    before = page.eval_on_selector_all("#board .palace .chip-seat", "els => els.length")
    play(table, "thief_of_baghdad", 60, seed=4)
    wait_board(page, table)
    chips = page.eval_on_selector_all(
        "#board .chip-seat:not(.neutral)",
        "els => els.map(e => [e.textContent, getComputedStyle(e).getPropertyValue('--sc').trim(), getComputedStyle(e).backgroundColor])")
    assert page.eval_on_selector_all("#board .palace .chip-seat", "els => els.length") != before, "no guard moved"
    assert chips and all(sc and bg != "rgb(102, 102, 102)" for _, sc, bg in chips), chips
    palaces = page.eval_on_selector_all("#board .palace", "els => els.map(e => getComputedStyle(e).borderTopColor)")
    assert "rgb(136, 136, 136)" not in palaces, palaces
    assert not errors, errors
    page.context.close()


def phone_problems(page: Any, name: str) -> list[str]:
    """What is wider than a 390 px phone or broken inside a word, by page; keeps a full-page screenshot."""
    shot(page, name)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    for i in range(min(3, -(-height // 844))):  # also screen by screen, to be read at the phone's own size
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-screen{i + 1}.png"), full_page=True,
                        clip={"x": 0, "y": i * 844, "width": 390, "height": min(844, height - i * 844)})
    return [f"{name}: {p}" for p in page.evaluate(OVERFLOW)] + [f"{name}: broken word {w!r}" for w in page.evaluate(BROKEN_WORDS)]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_phone_pages_fit_390px(browser: Any, base_url: str, table: Runtime, lang: str) -> None:
    """Table, seat, host and sim pages on a 390x844 phone in both languages: no sideways scrolling anywhere (tables
    included) and no word split across lines."""
    problems: list[str] = []
    for game in GAMES:
        start(table, game)
        play(table, game, MIDGAME_STEPS, seed=5)
        page = open_page(browser, base_url, 390, 844, lang, phone=True)
        wait_board(page, table)
        problems += phone_problems(page, f"phone-table-{game}-{lang}")
        page.context.close()
        tokens = table.loop.session.tokens
        rules = get_rules(game)
        acting = [s for s in sorted(rules.to_act(table.loop.session.state)) if s >= 0]
        seat = acting[0] if acting else 0
        page = open_page(browser, f"{base_url}/seat/{tokens[seat]}", 390, 844, lang, phone=True)
        page.wait_for_selector("#prompt button, #no-prompt")
        if page.is_visible("#secret-toggle"):
            page.click("#secret-toggle")
        problems += phone_problems(page, f"phone-seat-{game}-{lang}")
        page.context.close()
    page = open_page(browser, f"{base_url}/host", 390, 844, lang, phone=True)
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_selector("a.seat-link")
    page.wait_for_timeout(300)
    problems += phone_problems(page, f"phone-host-{lang}")
    page.context.close()
    page = open_page(browser, f"{base_url}/sim", 390, 844, lang, phone=True)
    page.fill("#pin", PIN)  # the simulator is the host's: the same PIN form first
    page.click("#login-form button[type=submit]")
    page.wait_for_selector(".zone")
    problems += phone_problems(page, f"phone-sim-{lang}")
    page.context.close()
    assert_none(problems)
