"""Every word a player sees is a translation: random games of every game, in Korean and English, read off the
table page and every seat page (document.body.innerText) after each action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import CHANCE, game_names, get_rules
from companion.games.playout import choose_action
from companion.table.handle import MockSim
from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from companion.web import texts
from tests.web.pages.visible import Problem, identifiers, problems

pytestmark = pytest.mark.browser

CHECKED = 36
"""Actions per game read off every page; the rest of the game is played with the pages parked, then the
game-over screens are read."""
BY_PAGE = 4
"""Every this many checked actions one is tapped on its seat page (prompt and confirm) instead of the API."""
SWAP_AT = CHECKED // 2
"""Seat pages change language here, so every seat page is read in both languages."""

WORDS = {lang: frozenset(texts.flatten(texts.load(lang)).values()) for lang in ("en", "ko")}

READ = """() => {
  const body = document.getElementById('secret-body');
  if (body && body.hidden) document.getElementById('secret-toggle').click();
  return document.body.innerText;
}"""
HAS_CHOICE = """(want) => {
  const canon = (o) => JSON.stringify(Object.keys(o).sort().reduce((a, k) => (a[k] = o[k], a), {}));
  const w = canon(want);
  const b = [...document.querySelectorAll('#choices button.choice')].find((x) => canon(JSON.parse(x.dataset.action)) === w);
  if (b) { b.click(); return 'choice'; }
  const kind = document.querySelector(`#prompt button[data-type="${want.type}"]`);
  if (kind) { kind.click(); }
  return '';
}"""


def open_page(browser: Any, url: str, lang: str) -> Any:
    """One phone or screen in its own context, starting in `lang`."""
    page = browser.new_context(locale={"en": "en-US", "ko": "ko-KR"}[lang]).new_page()
    page.goto(url)
    return page


def switch(page: Any, lang: str) -> None:
    page.click(f"button[data-lang={lang}]")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


class Reader:
    """Reads every page after each step and keeps the problems, first sighting of each only."""

    def __init__(self, runtime: Runtime, game: str) -> None:
        self.runtime, self.game = runtime, game
        self.found: dict[tuple[str, str, str, str], Problem] = {}
        self.refusals: set[str] = set()

    def raw(self) -> set[str]:
        """Identifiers the pages are drawn from now: every view, prompt and log code (the ids, not the words)."""
        session = self.runtime.loop.session
        rules = session.rules
        trees: list[Any] = [rules.view(session.state, None)]
        for seat in range(session.seats):
            trees += [rules.view(session.state, seat), self.runtime.loop.seat_prompt(seat)]
        return identifiers(*trees) - {self.game}

    def read(self, pages: list[tuple[str, str, Any]]) -> None:
        raw = self.raw()
        for name, lang, page in pages:
            for p in problems(page.evaluate(READ), lang, raw, f"{self.game} {name}", public=name.startswith("table"),
                              words=WORDS[lang]):
                self.found.setdefault((p.kind, p.text, name.split()[0], lang), p)

    def watch(self, page: Any) -> None:
        """Collect the refusal codes a seat page is answered with."""
        def on_response(res: Any) -> None:
            if res.url.endswith("/api/action") and res.status >= 400:
                try:
                    self.refusals.add(res.json()["code"])
                except Exception:  # noqa: BLE001 - a body that is not JSON is reported by the status check
                    self.refusals.add(f"http_{res.status}")
        page.on("response", on_response)


def untranslated(game: str, codes: set[str]) -> list[str]:
    """Refusal codes with no text in some language (the game's own, else the common one)."""
    out = []
    for lang in ("en", "ko"):
        flat = texts.flatten(texts.load(lang))
        out += [f"{lang}: {c}" for c in sorted(codes) if f"games.{game}.codes.{c}" not in flat and f"codes.{c}" not in flat]
    return out


def tap(page: Any, action: dict[str, Any]) -> None:
    """Tap the action's choice on its seat page (opening its kind first when the prompt groups them), confirm."""
    for _ in range(3):
        handle = page.wait_for_function(f"(w) => ({HAS_CHOICE})(w) || null", arg=action, timeout=10000)
        if handle.json_value() == "choice":
            break
    with page.expect_response(lambda r: r.url.endswith("/api/action")):
        page.click("#confirm-yes")


def play(runtime: Runtime, browser: Any, base_url: str, game: str, seed: int) -> Reader:
    """One random game: checked for CHECKED actions on every page, then played out, then read at game over."""
    rules = get_rules(game)
    host_call(runtime.loop, "end_game")
    started = host_call(runtime.loop, "new_game", game=game, seats=rules.min_seats, components="digital")
    assert isinstance(started, dict) and started.get("game_id"), started
    runtime.loop.wait_idle()
    session = runtime.loop.session
    reader = Reader(runtime, game)
    langs = ["en", "ko"]
    tables = [(f"table {lang}", lang, open_page(browser, base_url, lang)) for lang in langs]
    seats = []
    for seat, token in enumerate(session.tokens):
        lang = langs[seat % 2]
        page = open_page(browser, f"{base_url}/seat/{token}", lang)
        reader.watch(page)
        seats.append([f"seat {seat + 1}", lang, page])
    for _, _, page in seats:
        page.wait_for_selector("#prompt button.choice, #prompt button[data-type], #no-prompt")  # choices, or their kinds
    rng = random.Random(seed)
    sim = MockSim(runtime.loop)

    def settle() -> None:
        runtime.loop.wait_idle()
        want = f"{session.game_id}.{len(runtime.loop.session.actions)}"
        for _, _, page in tables:
            page.wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=10000)
        for _, _, page in seats:
            page.wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=10000)

    def all_pages() -> list[tuple[str, str, Any]]:
        return [*tables, *[tuple(s) for s in seats]]

    settle()
    reader.read(all_pages())
    step = 0
    while rules.to_act(runtime.loop.session.state) and step < CHECKED:
        state = runtime.loop.session.state
        action = choose_action(rules, state, rng)
        acting = action.get("seat")
        if step % BY_PAGE == 1 and isinstance(acting, int) and acting != CHANCE:
            tap(seats[acting][2], action)
        else:
            result = host_call(runtime.loop, "submit", seat=None, action=action, source="test")
            assert isinstance(result, dict), (action, result)
        step += 1
        if step == SWAP_AT:
            for entry in seats:
                entry[1] = "ko" if entry[1] == "en" else "en"
                switch(entry[2], entry[1])
            sim.press(0, "ja")  # a button that may mean nothing now: the table says why, in words
            sim.place("r1", "04DEADBEEF0001")  # a tag nobody enrolled
        settle()
        reader.read(all_pages())
    for _, _, page in all_pages():  # parked while the rest of the game is played at full speed
        page.goto("about:blank")
    while rules.to_act(runtime.loop.session.state):
        result = host_call(runtime.loop, "submit", seat=None, action=choose_action(rules, runtime.loop.session.state, rng),
                                   source="test")
        assert isinstance(result, dict), result
    tokens = runtime.loop.session.tokens
    for (name, lang, page), url in zip(all_pages(), [base_url] * 2 + [f"{base_url}/seat/{t}" for t in tokens]):
        page.goto(url)
    settle()
    for name, lang, page in all_pages():  # game over, in both languages
        reader.read([(name, lang, page)])
        other = "ko" if lang == "en" else "en"
        switch(page, other)
        reader.read([(name, other, page)])
    for _, _, page in all_pages():
        page.context.close()
    return reader


@pytest.mark.parametrize("game", game_names())
def test_every_visible_word_is_a_translation(runtime: Runtime, base_url: str, browser: Any, game: str) -> None:
    reader = play(runtime, browser, base_url, game, seed=game_names().index(game))
    found = list(reader.found.values())
    refused = untranslated(game, reader.refusals)
    report = "\n".join(str(p) for p in found)
    assert not found and not refused, f"{len(found)} untranslated texts:\n{report}\n{refused}"
