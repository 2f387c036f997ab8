"""A seat page draws only its newest state: a slow answer to a tap never brings the old choices back, and a
phone whose game was replaced forgets that game at once (its secrets too)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import csp_errors, shot

pytestmark = pytest.mark.browser

REPLY_DELAY_S = 0.6

WATCH_OLD_CHOICES = """(old) => {
  window.__oldChoices = 0;
  window.__watching = true;
  new MutationObserver(() => {
    if (!window.__watching) return;
    const shown = [...document.querySelectorAll('#choices button.choice')].some((b) => b.dataset.action === old);
    if (shown) window.__oldChoices += 1;
  }).observe(document.getElementById('prompt'), {childList: true, subtree: true});
}"""


def fresh_game(runtime: Runtime) -> list[str]:
    """A new tiny game (no other running); its seat tokens."""
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital").get("game_id")
    runtime.loop.wait_idle()
    return list(runtime.loop.session.tokens)


def delay_replies(page: Any, seconds: float) -> list[float]:
    """Hold every answer to POST /api/action for `seconds` after the table has judged it (the state event
    reaches the page first); returns the list of times each answer was let through."""
    released: list[float] = []

    def handler(route: Any) -> None:
        response = route.fetch()
        time.sleep(seconds)
        released.append(time.monotonic())
        route.fulfill(response=response)

    page.route("**/api/action", handler)
    return released


def test_a_slow_answer_never_redraws_the_choices_it_answered(browser: Any, base_url: str, runtime: Runtime) -> None:
    tokens = fresh_game(runtime)
    page = browser.new_context(locale="en-US").new_page()
    errors = csp_errors(page)
    released = delay_replies(page, REPLY_DELAY_S)
    page.goto(f"{base_url}/seat/{tokens[0]}")
    ja = "#choices button.choice[data-action*='\"vote\":\"ja\"']"
    old = page.wait_for_selector(ja).get_attribute("data-action")
    before = len(runtime.loop.session.actions)
    page.click(ja)
    page.wait_for_selector("#confirm")
    # watched from the confirm on: before the tap the stream's first snapshot may redraw the same choices
    page.evaluate(WATCH_OLD_CHOICES, old)
    with page.expect_response("**/api/action"):
        page.click("#confirm-yes")
    assert released, "the answer was not held"
    page.wait_for_selector("#no-prompt")  # the vote is in: this seat has nothing more to do
    page.wait_for_timeout(300)  # time for a late redraw to show itself
    assert page.evaluate("() => window.__oldChoices") == 0, "the old choices came back after the answer"
    assert len(runtime.loop.session.actions) == before + 1
    assert page.query_selector("#refusal") is None
    assert not errors, errors
    page.context.close()


def test_a_choice_answered_before_the_state_moves_stays_sent(browser: Any, base_url: str, runtime: Runtime) -> None:
    """The answer comes first (the page's stream is held back): the page says the choice was sent instead of
    offering the same choices for a second tap."""
    tokens = fresh_game(runtime)
    page = browser.new_context(locale="en-US").new_page()
    page.route("**/api/events", lambda route: route.abort())  # no live updates: the answer is all it hears
    page.goto(f"{base_url}/seat/{tokens[0]}")
    page.wait_for_selector("#choices button.choice")
    page.click("#choices button.choice[data-action*='\"vote\":\"ja\"']")
    page.click("#confirm-yes")
    page.wait_for_selector("#sent")
    assert page.inner_text("#sent").startswith("Sent: ") and "ja" in page.inner_text("#sent")
    assert page.query_selector("#choices") is None
    page.context.close()


def test_a_replaced_game_wipes_an_open_seat_page_at_once(browser: Any, base_url: str, runtime: Runtime) -> None:
    tokens = fresh_game(runtime)
    page = browser.new_context(locale="en-US").new_page()
    errors = csp_errors(page)
    page.goto(f"{base_url}/seat/{tokens[0]}")
    page.wait_for_selector("#choices button.choice")
    page.click("#secret-toggle")
    page.wait_for_selector("#private [data-field=secret]")
    secret = page.inner_text("#private [data-field=secret]")
    assert secret
    assert host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital").code == "game_running"
    assert host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital", replace=True).get("game_id")
    page.wait_for_selector("#game-changed", timeout=5000)  # the next event, no reload
    assert page.inner_text("#secret-body") == "" and page.is_hidden("#secret-body")
    assert page.inner_text("#board") == ""
    assert page.query_selector("#private") is None and page.is_hidden("#secret-toggle")
    assert "The game changed" in page.inner_text("#game-changed")
    shot(page, "seat-game-changed-en")
    page.click("button[data-lang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert "게임이 바뀌었습니다" in page.inner_text("#game-changed")
    shot(page, "seat-game-changed-ko")
    assert not [e for e in errors if "401" not in e], errors
    page.context.close()
