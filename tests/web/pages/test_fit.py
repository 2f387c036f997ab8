"""Every panel fits its screen: the table, host and sim pages at TV (1920x1080), laptop (1366x768) and phone
(390x844) sizes, the seat pages at laptop and phone sizes, in both languages, measured in Chromium: nothing outside the screen, nothing scrolled or clipped
sideways inside its box, no ellipsis actually cutting a text, no log entry cut in half, nothing the TV cannot
scroll to, and no raw key on screen. One browser, one context per size and language, pages reused across games."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games import get_rules
from tests.web.pages.browser import shot
from tests.web.pages.conftest import PIN
from tests.web.pages.test_layout import GAMES, MIDGAME_STEPS, SEAT_NAMES, base_url, play, start, table, wait_board  # noqa: F401

pytestmark = pytest.mark.browser

SIZES = {"tv": (1920, 1080), "laptop": (1366, 768), "phone": (390, 844)}

FIT = """(tv) => {
  const vw = innerWidth, out = [];
  const de = document.documentElement;
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
    (el.dataset.part ? `[${el.dataset.part}]` : '');
  const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 50);
  if (de.scrollWidth > de.clientWidth + 1) out.push(`the page scrolls sideways (${de.scrollWidth} > ${de.clientWidth})`);
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.getClientRects().length || el.closest('[hidden], svg, .seat-url')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 1 || r.left < -1) out.push(`${name(el)} lies outside the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}): "${text(el)}"`);
    const wide = el.scrollWidth > el.clientWidth + 1;
    if (wide && cs.textOverflow === 'ellipsis') out.push(`${name(el)} is cut by its ellipsis: "${text(el)}"`);
    else if (wide && cs.overflowX !== 'visible') out.push(`${name(el)} hides its width (${el.scrollWidth} > ${el.clientWidth}): "${text(el)}"`);
    const tall = el.scrollHeight > el.clientHeight + 1;
    if (tall && ['hidden', 'clip'].includes(cs.overflowY) && !el.matches('ol.log, .log'))
      out.push(`${name(el)} cuts its bottom (${el.scrollHeight} > ${el.clientHeight}): "${text(el)}"`);
    if (tv && tall && ['auto', 'scroll'].includes(cs.overflowY) && !el.matches('ol.log, .log'))
      out.push(`${name(el)} needs scrolling a TV cannot do (${el.scrollHeight} > ${el.clientHeight}): "${text(el)}"`);
  }
  for (const log of document.querySelectorAll('ol.log')) {
    if (!log.getClientRects().length || getComputedStyle(log).overflowY !== 'hidden') continue;  // one that scrolls may
    const box = log.getBoundingClientRect();
    for (const li of log.children) {
      if (getComputedStyle(li).visibility === 'hidden') continue;
      const r = li.getBoundingClientRect();
      if ((r.top < box.top - 1 && r.bottom > box.top + 1) || (r.top < box.bottom - 1 && r.bottom > box.bottom + 1))
        out.push(`a log entry is cut in half at the log's edge: "${text(li)}"`);
    }
  }
  return out;
}"""

FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames: what the page lays out after drawing (the log's end, the reveal's size) is done."""
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|=null|\bNaN\b|\bundefined\b|\{\w+(:[^{}]*)?\}|sample-\d+|\[object")
"""A key, an id or a template on screen."""
LATIN = re.compile(r"[A-Za-z]{2,}")
ALLOWED_LATIN = {"PIN", "QR", "UID", "LED", "CU", "JSON", "CSV", "Ja", "Nein", "English", "en", "ko"}
ENGLISH_FREE = ["#health", "#sim-hint", ".suggestions", "#phase", "#to-act", "#outcome"]
"""Parts of a Korean page with no configured name in them: any English word there is an untranslated text."""
SCREEN_TEXT = """(sels) => ({ body: document.body.innerText,
  parts: sels.flatMap((s) => [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length)
    .map((e) => [s, e.innerText])) })"""


def raw_problems(page: Any, lang: str) -> list[str]:
    got = page.evaluate(SCREEN_TEXT, ENGLISH_FREE)
    out = [f"raw text on screen: {m.group(0)!r} in {line.strip()[:80]!r}"
           for line in got["body"].splitlines() for m in [RAW.search(line)] if m]
    if lang == "ko":
        names = {w for n in SEAT_NAMES for w in LATIN.findall(n)}
        for sel, text in got["parts"]:
            latin = sorted({w for w in LATIN.findall(text) if w not in ALLOWED_LATIN and w not in names})
            if latin:
                out.append(f"{sel} shows English on the Korean page: {latin[:6]}")
    return out


def check(page: Any, where: str, lang: str, tv: bool, keep: bool = False) -> list[str]:
    """What does not fit or reads raw on this page (a screenshot kept when `keep`)."""
    if keep:
        shot(page, f"fit-{where}")
    return [f"{where}: {p}" for p in [*page.evaluate(FIT, tv), *raw_problems(page, lang)]]


def crowd(rt: Any, game: str) -> None:
    """Play on (at most 30 actions) until most seats are to act at once, as in a vote: the header's longest line."""
    rules = get_rules(game)
    for _ in range(30):
        state = rt.loop.session.state
        if len(rules.to_act(state)) >= 3 or rules.outcome(state) is not None:
            break
        play(rt, game, 1, seed=len(rt.loop.session.actions))


def login(page: Any) -> None:
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")


@pytest.mark.parametrize("size", ["tv", pytest.param("laptop", marks=pytest.mark.soak),
                                  pytest.param("phone", marks=pytest.mark.soak)])
def test_every_page_fits_its_screen_in_both_languages(browser: Any, base_url: str, table: Any, size: str) -> None:  # noqa: F811
    """The table, seat, host, replay and sim pages at one size, in English and Korean, through four games."""
    contexts = {}
    w, h = SIZES[size]
    for lang in ("en", "ko"):
        ctx = browser.new_context(locale="ko-KR" if lang == "ko" else "en-US", viewport={"width": w, "height": h},
                                  is_mobile=size == "phone", has_touch=size == "phone")
        contexts[size, lang] = {"ctx": ctx, "table": ctx.new_page(), "seat": ctx.new_page(), "host": ctx.new_page()}
    problems: list[str] = []
    for n, game in enumerate(GAMES):
        start(table, game)
        if n == 0:
            play(table, game, None, seed=5)  # the first game played to its end: the reveal on every screen
        else:
            play(table, game, MIDGAME_STEPS, seed=5)
            crowd(table, game)
        session = table.loop.session
        if n == 0:
            finished = session.game_id
        acting = [s for s in sorted(get_rules(game).to_act(session.state)) if s >= 0]
        seat = acting[0] if acting else 0
        for (size, lang), pages in contexts.items():
            tp = pages["table"]
            if n == 0:
                tp.goto(base_url)
            wait_board(tp, table)
            if n == 0:
                tp.wait_for_function("() => document.body.dataset.revealed", timeout=30000)
            tp.evaluate(FRAMES)
            problems += check(tp, f"table-{game}-{size}-{lang}", lang, tv=size == "tv", keep=size != "laptop")
            if size == "tv":
                continue  # a seat's page is a phone's (or a laptop's), never the TV's
            sp = pages["seat"]
            sp.goto(f"{base_url}/seat/{session.tokens[seat]}")
            sp.wait_for_selector("#prompt button, #no-prompt")
            if sp.is_visible("#secret-toggle"):
                sp.click("#secret-toggle")
            problems += check(sp, f"seat-{game}-{size}-{lang}", lang, tv=False, keep=size == "phone")
    for (size, lang), pages in contexts.items():
        hp = pages["host"]
        hp.goto(f"{base_url}/host")
        login(hp)
        hp.wait_for_selector("#console:not([hidden])")
        hp.wait_for_selector("#health-table")
        problems += check(hp, f"host-{size}-{lang}", lang, tv=False, keep=True)
        hp.goto(f"{base_url}/replay/{finished}")
        hp.wait_for_selector("#timeline li")
        hp.click("#show-hidden")
        hp.wait_for_selector("#hidden-panel:not([hidden])")
        problems += check(hp, f"replay-{size}-{lang}", lang, tv=False, keep=True)
        hp.goto(f"{base_url}/sim")
        hp.wait_for_selector(".zone")
        problems += check(hp, f"sim-{size}-{lang}", lang, tv=False)
        assert pages["table"].title() == ("테이블 도우미" if lang == "ko" else "Table companion") or size != "tv"
        pages["ctx"].close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
