"""The page in a real browser (Debian's Chromium via Playwright) against the app served by waitress."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from companion.games import game_names, get_rules
from companion.table.runtime import Runtime
from tests.web.pages.browser import csp_errors, serve, shot
from tests.table.helpers import host_call, live_rows
from tests.web.pages.conftest import PIN

pytestmark = pytest.mark.browser


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(locale="en-US")
    yield ctx
    ctx.close()


def host_login(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/host")
    page.fill("#pin", PIN)
    with page.expect_response(lambda r: r.url.endswith("/api/host/login"), timeout=60000) as answer:
        page.click("#login-form button[type=submit]")
    assert answer.value.ok, (answer.value.status, answer.value.text())
    # the page reloads itself once logged in; under a loaded CI machine that can take a while
    page.wait_for_selector("#console:not([hidden])", timeout=60000)
    page.wait_for_function("() => document.getElementById('ng-game').options.length > 0")


def sim_login(page: Any, base_url: str) -> None:
    """Open the simulator, which asks for the host PIN first, and log in there."""
    page.goto(f"{base_url}/sim")
    assert page.locator(".zone").count() == 0, "the simulator shows nothing before the PIN"
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector(".zone")


def host_new_game(page: Any, game: str, seats: int) -> list[str]:
    """Start a game from the host console; returns the seat links in seat order."""
    page.select_option("#ng-game", game)
    page.select_option("#ng-seats", str(seats))
    page.click("#ng-start")
    page.wait_for_function(f"() => document.querySelectorAll('a.seat-link').length === {seats}")
    return page.eval_on_selector_all("a.seat-link", "els => els.map(e => e.href)")


def test_pin_form_waits_for_its_script(context: Any, base_url: str) -> None:
    """Before the page's script has wired the PIN form (a slow Pi, a fast thumb) the form cannot be sent: its
    button is disabled and Enter does nothing, so the PIN never lands in the address bar or the server's log."""
    page = context.new_page()
    page.route("**/assets/js/**", lambda route: route.abort())
    for path in ("/host", "/sim"):
        page.goto(f"{base_url}{path}")
        assert page.is_disabled("#login-form button[type=submit]"), path
        page.fill("#pin", PIN)
        page.press("#pin", "Enter")
        page.wait_for_timeout(300)  # a native submission would have navigated by now
        assert "pin" not in page.url and page.url.endswith(path), page.url
    page.unroute("**/assets/js/**")
    page.goto(f"{base_url}/host")
    page.wait_for_selector("#login-form button[type=submit]:not([disabled])")
    page.close()


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
    # the server already names the language in <html lang>: wait for the script to have filled the texts too
    page.wait_for_function("() => document.querySelector(\"h2[data-i18n='ui.about']\").textContent !== 'About'")
    assert page.inner_text("h2[data-i18n='ui.about']") == "정보"
    ctx.close()


def test_enrollment_sees_a_simulated_tap(browser: Any, base_url: str) -> None:
    host_ctx, sim_ctx = browser.new_context(locale="en-US"), browser.new_context(locale="en-US")
    host, sim = host_ctx.new_page(), sim_ctx.new_page()
    errors = csp_errors(host) + csp_errors(sim)
    host_login(host, base_url)
    host.click("#enroll-toggle")
    host.wait_for_function("() => document.getElementById('enroll-toggle').dataset.on === '1'")
    sim_login(sim, base_url)
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


def test_host_binds_a_plugged_in_terminal_and_it_shows_the_seats_prompt(context: Any, base_url: str,
                                                                       runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital")
    hub = runtime.hardware.mock_terminals  # type: ignore[attr-defined]
    hub.connect("PICO-9")  # a spare terminal nobody configured
    runtime.loop.wait_idle()
    host = context.new_page()
    errors = csp_errors(host)
    host_login(host, base_url)
    row = "#terminal-table tr[data-terminal='PICO-9']"
    host.wait_for_selector(row)
    assert host.inner_text(f"{row} td:nth-child(3)") == "unbound"
    hub.choose("PICO-9", "none", 0)  # a key pressed on the unbound terminal lights its row up, live
    host.wait_for_selector("#terminal-table tr.latest[data-terminal='PICO-9']")
    urls = host.eval_on_selector_all("code.seat-url", "els => els.map(e => e.textContent)")
    assert len(urls) == 3 and all(u.endswith(f"/seat/{t}") for u, t in zip(urls, runtime.loop.session.tokens))
    host.select_option(f"{row} select.bind-seat", "1")
    host.click(f"{row} button.bind")
    host.wait_for_function("() => document.getElementById('flash').textContent === 'Terminal PICO-9 now serves Seat 2.'")
    host.wait_for_selector("#terminal-table tr[data-terminal='PICO-9'][data-seat='1']")
    shot(host, "host-terminal-bound")
    prompt = hub.last_prompt("PICO-9")
    assert prompt is not None and prompt["type"] == "prompt" and prompt == runtime.loop.seat_prompt(1)
    assert hub.last_prompt("T1") is None or hub.last_prompt("T1")["type"] == "idle"
    hub.choose("PICO-9", prompt["ballot"], 0)  # its choice now counts for seat 2
    runtime.loop.wait_idle()
    assert live_rows(runtime)[-1]["source"] == "terminal:PICO-9" and live_rows(runtime)[-1]["action"]["seat"] == 1
    assert host_call(runtime.loop, "bind_terminal", terminal="T1", seat=1)["unbound"] == ["PICO-9"]  # as configured again
    assert not errors, errors


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
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital")
    runtime.loop.wait_idle()
    session = runtime.loop.session
    link = f"{base_url}/seat/{session.tokens[0]}"
    secret = session.rules.view(session.state, 0)["secret"]
    [a] = seat_pages(browser, [link])
    errors = csp_errors(a)
    a.wait_for_selector("#choices button.choice")  # the seat votes first in this game
    assert a.is_hidden("#secret-body") and a.inner_text("#secret-body") == ""
    a.click("#secret-toggle")
    a.wait_for_function(f"() => (document.querySelector('#private [data-field=secret]') || {{}}).textContent === '{secret}'")
    shot(a, "seat-secret-shown")
    a.click("#secret-toggle")
    assert a.is_hidden("#secret-body")
    # a second phone for seat 0 that misses the live updates: its stale choice is refused, with the reason
    stale = a.context.new_page()
    stale.route("**/api/events", lambda route: route.abort())
    stale.goto(link)
    stale.wait_for_selector("#choices button.choice")
    stale.click("#choices button.choice[data-action*='\"vote\":\"nein\"']")
    choose(a, '"vote":"ja"')
    a.wait_for_selector("#no-prompt")
    stale.click("#confirm-yes")
    stale.wait_for_selector("#refusal")
    assert stale.inner_text("#refusal") == "Refused: It is not your turn."
    shot(stale, "seat-refused")
    assert not errors, errors
    close_all([a])


COUNT_EVENT_SOURCES = """
window.__eventSources = [];
const Original = window.EventSource;
window.EventSource = function (url, init) { const es = new Original(url, init); window.__eventSources.push(url); return es; };
window.EventSource.prototype = Original.prototype;
"""


def test_one_event_source_per_page_and_resume_after_a_cut(browser: Any, runtime: Runtime) -> None:
    """Every page opens one stream; when the server cuts it, the browser comes back with Last-Event-ID and the
    page shows the current state (here the server ends each stream after one event)."""
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital")
    runtime.loop.wait_idle()
    tokens = [t for t in runtime.loop.session.tokens]
    with serve(runtime.app(SSE_MAX_MESSAGES=1, SSE_HEARTBEAT_S=1.0)) as url:
        ctx = browser.new_context(locale="en-US")
        ctx.add_init_script(COUNT_EVENT_SOURCES)
        streams: list[Any] = []
        ctx.on("request", lambda r: streams.append(r) if r.url.endswith(("/api/events", "/api/host/events")) else None)
        assert ctx.request.post(f"{url}/api/host/login", data={"pin": PIN}).ok  # the host page streams too
        pages = {}
        for path in ("/", f"/seat/{tokens[0]}", "/host", "/sim"):
            page = ctx.new_page()
            page.goto(url + path)
            pages[path] = page
        pages["/"].wait_for_function("() => (document.body.dataset.version || '') !== ''")
        for seat, vote in ((0, "ja"), (1, "nein")):
            assert host_call(runtime.loop, "submit", seat=seat, action={"type": "vote", "seat": seat, "vote": vote},
                                     source="test") is not None
        runtime.loop.wait_idle()
        session = runtime.loop.session
        want = f"{session.game_id}.{len(session.actions)}"
        pages["/"].wait_for_function(f"() => document.body.dataset.version === '{want}'", timeout=15000)
        resumed = [r.all_headers().get("last-event-id") for r in streams]
        assert any(resumed), f"no stream was resumed with Last-Event-ID ({len(streams)} streams)"
        for path, page in pages.items():  # the host console and the simulator read the host's stream
            sources = page.evaluate("() => window.__eventSources")
            assert sources == ["/api/host/events" if path in ("/host", "/sim") else "/api/events"], (path, sources)
        ctx.close()


def test_table_page_weighs_under_200_kb(browser: Any, base_url: str) -> None:
    from companion.bench.dom import page_weight

    weight = page_weight(browser, base_url + "/")
    assert weight["requests"] >= 10  # HTML, CSS, scripts, texts, state: all counted
    assert weight["kb"] < 200, weight


REVEALED = "() => document.querySelectorAll('#board .vote-card[data-vote=ja], #board .vote-card[data-vote=nein]').length"
RECORD_REVEALS = """() => {
  window.__revealCounts = [];
  new MutationObserver(() => window.__revealCounts.push(document.querySelectorAll(
    '#board .vote-card[data-vote=ja], #board .vote-card[data-vote=nein]').length))
    .observe(document.getElementById('board'), {childList: true, subtree: true, attributes: true});
}"""


@pytest.fixture(scope="module")
def sh_table(browser: Any, base_url: str, runtime: Runtime) -> Iterator[tuple[Any, list[Any], Any]]:
    """The host starts a 5-seat Secret Hitler game from the console; five phones and the table page open it."""
    host_call(runtime.loop, "end_game")
    host = browser.new_context(locale="en-US").new_page()
    host_login(host, base_url)
    links = host_new_game(host, "secret_hitler", 5)
    shot(host, "host-new-game")
    seats = seat_pages(browser, links)
    table = browser.new_context(locale="en-US").new_page()
    table.goto(base_url)
    table.wait_for_selector("#board .seat")
    runtime.loop.wait_idle()
    yield host, seats, table
    close_all([host, table, *seats])


def test_five_phones_vote_and_the_table_flips_all_votes_together(sh_table: Any, runtime: Runtime) -> None:
    host, seats, table = sh_table
    errors = [csp_errors(p) for p in (host, table, *seats)]
    president = runtime.loop.session.rules.view(runtime.loop.session.state)["president"]
    seats[president].wait_for_selector("#choices button.choice[data-action*='nominate']")
    choose(seats[president], '"type":"nominate"')
    for page in seats:
        page.wait_for_selector("#choices button.choice[data-action*='\"vote\":\"ja\"']")
    table.wait_for_selector("#board .seat .badge.chancellor")
    table.evaluate(RECORD_REVEALS)
    votes = ["ja", "nein", "ja", "ja", "nein"]
    for seat in range(4):
        choose(seats[seat], f'"vote":"{votes[seat]}"')
        table.wait_for_function(f"() => document.querySelectorAll('#board .badge.chosen').length === {seat + 1}")
        assert table.evaluate(REVEALED) == 0, "a vote showed before the last one was in"
        assert seats[4].evaluate(REVEALED) == 0
    shot(table, "table-four-votes-in")
    choose(seats[4], f'"vote":"{votes[4]}"')
    table.wait_for_function(f"() => ({REVEALED[6:]}) === 5", timeout=5000)
    counts = table.evaluate("() => window.__revealCounts")
    assert [c for c in counts if c] and min(c for c in counts if c) == 5, f"votes flipped one by one: {counts}"
    shown = table.eval_on_selector_all("#board .vote-card", "els => els.map(e => e.dataset.vote)")
    assert shown == votes
    for page in seats:  # every phone's board flips too
        page.wait_for_function(f"() => ({REVEALED[6:]}) === 5", timeout=5000)
    table.wait_for_timeout(700)  # let the flip animation finish for the picture
    shot(table, "table-votes-revealed")
    shot(seats[0], "seat-after-vote")
    assert not [e for errs in errors for e in errs], errors


def test_a_seat_page_never_shows_another_seats_role(sh_table: Any, runtime: Runtime) -> None:
    host, seats, table = sh_table
    session = runtime.loop.session
    assert session.game == "secret_hitler"
    views = [session.rules.view(session.state, s) for s in range(5)]
    for s, page in enumerate(seats):
        if page.is_hidden("#secret-body"):
            assert page.inner_text("#secret-body") == "", "secrets drawn before the tap"
            page.click("#secret-toggle")
        page.wait_for_selector("#private [data-secret=role]")
        own = page.inner_text("#private [data-secret=role]")
        assert own == {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"}[views[s]["role"]]
        known_text = page.inner_text("#private")
        for other in range(5):
            label = f"Seat {other + 1}:"
            if other != s and views[s]["known"][other] is None:
                assert label not in known_text, f"seat {s} page shows seat {other}'s role"
        if views[s]["role"] == "fascist":
            hitler = views[s]["known"].index("hitler")
            assert f"Seat {hitler + 1}: Hitler" in known_text
        shot(page, f"seat-{s}-private")
    for s, page in enumerate(seats):  # what the page's own request for its state carries
        body = page.evaluate("() => fetch(document.body.dataset.state).then(r => r.json())")
        assert body["seat"] == s and "roles" not in body["view"]
        assert [k if i != s and views[s]["known"][i] is None else None for i, k in enumerate(body["view"]["known"])] \
            == [None] * 5
        seats[s].click("#secret-toggle")  # hide again
        assert seats[s].is_hidden("#secret-body")


def test_host_undoes_the_last_action_after_confirming(sh_table: Any, runtime: Runtime) -> None:
    host, seats, table = sh_table
    runtime.loop.wait_idle()
    before = len(runtime.loop.session.actions)
    host.click("#undo")
    host.wait_for_selector("#confirm-box:not([hidden])")
    assert host.inner_text("#confirm-text").startswith("Undo the last action? It was: ")
    assert not host.inner_text("#confirm-text").endswith(".?")
    host.click("#confirm-cancel")
    assert len(runtime.loop.session.actions) == before, "cancel changed nothing"
    host.click("#undo")
    host.click("#confirm-ok")
    host.wait_for_function("() => document.getElementById('flash').textContent === 'Undone.'")
    runtime.loop.wait_idle()
    after = len(runtime.loop.session.actions)
    assert after < before
    table.wait_for_function(f"() => document.body.dataset.version.endsWith('.{after}')")
    shot(host, "host-undone")


BOARD_PART = "#board .board [data-part]"
"""A panel of a game's own board (board_kit.js `panel`): the game's renderer drew, not the list of fields."""


@pytest.mark.parametrize("game", game_names())
def test_each_game_board_draws_mid_game(browser: Any, base_url: str, runtime: Runtime, game: str) -> None:
    """Each registered game's board, drawn in both languages from its public view after some random play."""
    import random as _random

    rules = get_rules(game)
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game=game, seats=rules.min_seats + 1 if rules.max_seats > rules.min_seats
                             else rules.min_seats, components="digital").get("game_id") is not None
    rng = _random.Random(5)
    for _ in range(40):
        session = runtime.loop.session
        acting = sorted(rules.to_act(session.state))
        if not acting or rules.outcome(session.state) is not None:
            break
        host_call(runtime.loop, "submit", seat=None, action=rng.choice(rules.legal_actions(session.state, acting[0])),
                          source="test")
    runtime.loop.wait_idle()
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    errors = csp_errors(page)
    page.goto(base_url)
    page.wait_for_selector(BOARD_PART)
    from companion.web.texts import load

    assert page.inner_text("#game-title") == load("en")["games"][game]["title"]
    assert page.query_selector_all("#log li"), "the log is empty"
    view = rules.view(runtime.loop.session.state, None)
    assert page.is_visible("#sample") == any(k.startswith("sample") and v for k, v in view.items())
    facts = runtime.loop.session.binding.facts(runtime.loop.session.seats)
    if game == "secret_hitler":  # the tracks come from the engine's facts, not a copy in the page
        assert page.locator("#board .track.fascist .slot").count() == len(facts["power_track"]) == 6
        assert page.locator("#board .track.liberal .slot").count() == facts["liberal_track"] == 5
        assert page.locator("#board .track.election .slot").count() == facts["election_track"] == 3
        assert "Fascists win" in page.inner_text("#board .track.fascist")
    if game == "thief_of_baghdad":
        assert facts["palace_colours"]["red"] in (page.get_attribute("#board .palace[data-palace=red]", "style") or "")
        assert "/ 3" in page.inner_text("#board")
    if game == "gangsters_dilemma":
        words = load("en")["games"][game]["values"]
        header = page.inner_text("#board table.data thead")
        assert facts["loot"] and all(words.get(kind, kind) in header for kind in facts["loot"]), header
    shot(page, f"board-{game}-en")
    page.click("button[data-lang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_selector(BOARD_PART)
    shot(page, f"board-{game}-ko")
    page.click("button[data-lang=en]")
    assert not errors, errors
    ctx.close()


def test_boss_wallet_board_keeps_the_last_rounds_verdicts_into_the_next_round(browser: Any, base_url: str,
                                                                               runtime: Runtime) -> None:
    """A digital table deals round 2 in the step that ends round 1: the verdicts stay on the board as `last_round`."""
    import random as _random

    rules = get_rules("boss_wallet")
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="boss_wallet", seats=4, components="digital").get("game_id")
    rng = _random.Random(11)
    while True:
        state = runtime.loop.session.state
        view = rules.view(state, None)
        if view["round"] == 2 and view["last_round"] and not any(p.get("verdict") for p in view["players"]):
            break
        acting = sorted(rules.to_act(state))
        assert acting and rules.outcome(state) is None, "round 2 never came"
        host_call(runtime.loop, "submit", seat=None, action=rng.choice(rules.legal_actions(state, acting[0])), source="test")
    runtime.loop.wait_idle()
    last = rules.view(runtime.loop.session.state, None)["last_round"]
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.goto(base_url)
    page.wait_for_selector('#board .last-round[data-round="1"]')
    assert page.inner_text("#board .last-round h2") == "Round 1 results"
    rows = page.query_selector_all("#board .last-round tbody tr")
    assert len(rows) == 4
    for row, p in zip(rows, last["players"]):
        assert row.query_selector("[data-verdict]").get_attribute("data-verdict") == p["verdict"]
        assert [li.get_attribute("data-reason") for li in row.query_selector_all("li[data-reason]")] == p["reasons"]
    shown = page.inner_text("#board .last-round")
    assert "Award order" in shown and all(f"Seat {s + 1}" in shown for s in last["ranking"])
    shot(page, "board-boss_wallet-last-round")
    ctx.close()
