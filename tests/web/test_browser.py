"""The page in a real browser (Debian's Chromium via Playwright) against the app served by waitress."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

from companion.games import game_names, get_rules
from companion.table.runtime import Runtime
from tests.web.browser import chromium, csp_errors, serve, shot
from tests.web.conftest import PIN

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def base_url(runtime: Runtime) -> Iterator[str]:
    with serve(runtime.app(SSE_HEARTBEAT_S=1.0)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(locale="en-US")
    yield ctx
    ctx.close()


def host_login(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/host")
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_function("() => document.getElementById('ng-game').options.length > 0")


def host_new_game(page: Any, game: str, seats: int) -> list[str]:
    """Start a game from the host console; returns the seat links in seat order."""
    page.select_option("#ng-game", game)
    page.select_option("#ng-seats", str(seats))
    page.click("#ng-start")
    page.wait_for_function(f"() => document.querySelectorAll('a.seat-link').length === {seats}")
    return page.eval_on_selector_all("a.seat-link", "els => els.map(e => e.href)")


def test_language_switch(context: Any, base_url: str) -> None:
    page = context.new_page()
    errors = csp_errors(page)
    page.goto(f"{base_url}/about")
    page.wait_for_function("() => document.querySelector('[data-i18n=\"ui.about\"]').textContent === 'About'")
    assert page.get_attribute("html", "lang") == "en"
    page.click("button[data-lang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert page.inner_text("h2[data-i18n='ui.about']") == "정보"
    assert "크리에이티브 커먼즈" in page.inner_text("main")
    shot(page, "about-ko")
    page.goto(f"{base_url}/")  # the choice is remembered
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert page.inner_text("[data-i18n='ui.log']") == "게임 기록"
    page.click("button[data-lang=en]")
    page.wait_for_function("() => document.querySelector('[data-i18n=\"ui.log\"]').textContent === 'Game log'")
    assert not errors, errors


def test_korean_browser_starts_in_korean(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(locale="ko-KR")
    page = ctx.new_page()
    page.goto(f"{base_url}/about")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert page.inner_text("h2[data-i18n='ui.about']") == "정보"
    ctx.close()


def test_enrollment_sees_a_simulated_tap(browser: Any, base_url: str) -> None:
    host_ctx, sim_ctx = browser.new_context(locale="en-US"), browser.new_context(locale="en-US")
    host, sim = host_ctx.new_page(), sim_ctx.new_page()
    errors = csp_errors(host) + csp_errors(sim)
    host_login(host, base_url)
    host.click("#enroll-toggle")
    host.wait_for_function("() => document.getElementById('enroll-toggle').dataset.on === '1'")
    sim.goto(f"{base_url}/sim")
    sim.wait_for_selector(".zone[data-reader=r2] input")
    sim.fill(".zone[data-reader=r2] input", "04a1b2c3d4e5f6")
    sim.click(".zone[data-reader=r2] button[type=submit]")
    try:
        host.wait_for_function("() => document.getElementById('last-uid').textContent === '04A1B2C3D4E5F6'", timeout=5000)
    except Exception:
        print("DEBUG", host.inner_text("#status"), host.inner_text("#last-uid"), sim.inner_text("#zones")[:300], errors)
        raise
    host.fill("#en-kind", "ballot")
    host.fill("#en-value", "ja")
    host.fill("#en-label", "Ja 3")
    host.select_option("#en-game", "tiny")
    host.click("#en-save")
    host.wait_for_function("() => document.getElementById('flash').textContent === 'Saved.'")
    shot(host, "host-enrollment")
    shot(sim, "sim")
    sim.click(".zone[data-reader=r2] button.remove")  # take it off again
    host.click("#enroll-toggle")
    host.wait_for_function("() => !document.getElementById('enroll-toggle').dataset.on")
    assert not errors, errors
    host_ctx.close()
    sim_ctx.close()


def seat_pages(browser: Any, links: list[str]) -> list[Any]:
    """One browser context (a phone) per seat link."""
    pages = []
    for link in links:
        page = browser.new_context(locale="en-US").new_page()
        page.goto(link)
        page.wait_for_selector("#prompt button.choice, #no-prompt")
        pages.append(page)
    return pages


def close_all(pages: list[Any]) -> None:
    for page in pages:
        page.context.close()


def choose(page: Any, needle: str) -> None:
    """Tap the choice whose action JSON contains `needle`, then confirm it."""
    page.click(f"#choices button.choice[data-action*='{needle}']")
    page.wait_for_selector("#confirm")
    page.click("#confirm-yes")


def test_seat_page_secret_prompt_confirm_and_refusal(browser: Any, base_url: str, runtime: Runtime) -> None:
    runtime.loop.call("end_game")
    host = browser.new_context(locale="en-US").new_page()
    host_login(host, base_url)
    links = host_new_game(host, "tiny", 3)
    pages = seat_pages(browser, links)
    errors = [e for p in pages for e in [csp_errors(p)]]
    runtime.loop.wait_idle()
    secrets = [runtime.loop.session.rules.view(runtime.loop.session.state, s)["secret"] for s in range(3)]
    a = pages[0]
    assert a.is_hidden("#secret-body") and a.inner_text("#secret-body") == ""
    a.click("#secret-toggle")
    a.wait_for_selector("#private [data-field=secret]")
    assert a.inner_text("#private [data-field=secret]") == secrets[0]
    shot(a, "seat-secret-shown")
    a.click("#secret-toggle")
    assert a.is_hidden("#secret-body")
    # a second phone for seat 0 that misses the live updates: its stale choice is refused, with the reason
    stale = browser.new_context(locale="en-US").new_page()
    stale.route("**/api/events", lambda route: route.abort())
    stale.goto(links[0])
    stale.wait_for_selector("#choices button.choice")
    stale.click("#choices button.choice[data-action*='\"vote\":\"nein\"']")
    choose(a, '"vote":"ja"')
    a.wait_for_selector("#no-prompt")
    stale.click("#confirm-yes")
    stale.wait_for_selector("#refusal")
    assert stale.inner_text("#refusal") == "Refused: It is not your turn."
    shot(stale, "seat-refused")

    table = browser.new_context(locale="en-US").new_page()
    table.goto(base_url)
    table.wait_for_function("() => (document.body.dataset.version || '') !== ''")
    shot(table, "table-tiny")
    assert not [e for errs in errors for e in errs], errors
    close_all([*pages, stale, host, table])


COUNT_EVENT_SOURCES = """
window.__eventSources = [];
const Original = window.EventSource;
window.EventSource = function (url, init) { const es = new Original(url, init); window.__eventSources.push(url); return es; };
window.EventSource.prototype = Original.prototype;
"""


def test_one_event_source_per_page_and_resume_after_a_cut(browser: Any, runtime: Runtime) -> None:
    """Every page opens one stream; when the server cuts it, the browser comes back with Last-Event-ID and the
    page shows the current state (here the server ends each stream after one event)."""
    runtime.loop.call("end_game")
    runtime.loop.call("new_game", game="tiny", seats=3, components="digital")
    runtime.loop.wait_idle()
    tokens = [t for t in runtime.loop.session.tokens]
    with serve(runtime.app(SSE_MAX_EVENTS=1, SSE_HEARTBEAT_S=1.0)) as url:
        ctx = browser.new_context(locale="en-US")
        ctx.add_init_script(COUNT_EVENT_SOURCES)
        streams: list[Any] = []
        ctx.on("request", lambda r: streams.append(r) if "/api/events" in r.url else None)
        assert ctx.request.post(f"{url}/api/host/login", data={"pin": PIN}).ok  # the host page streams too
        pages = {}
        for path in ("/", f"/seat/{tokens[0]}", "/host", "/sim"):
            page = ctx.new_page()
            page.goto(url + path)
            pages[path] = page
        pages["/"].wait_for_function("() => (document.body.dataset.version || '') !== ''")
        for seat, vote in ((0, "ja"), (1, "nein")):
            assert runtime.loop.call("submit", seat=seat, action={"type": "vote", "seat": seat, "vote": vote},
                                     source="test") is not None
        runtime.loop.wait_idle()
        session = runtime.loop.session
        want = f"{session.game_id}.{len(session.actions)}"
        pages["/"].wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=15000)
        resumed = [r.all_headers().get("last-event-id") for r in streams]
        assert any(resumed), f"no stream was resumed with Last-Event-ID ({len(streams)} streams)"
        for path, page in pages.items():
            sources = page.evaluate("() => window.__eventSources")
            assert sources == ["/api/events"], (path, sources)
        ctx.close()


def test_table_page_weighs_under_200_kb(browser: Any, base_url: str) -> None:
    from companion.webbench import page_weight

    weight = page_weight(browser, base_url + "/")
    assert weight["requests"] >= 10  # HTML, CSS, scripts, texts, state: all counted
    assert weight["kb"] < 200, weight
