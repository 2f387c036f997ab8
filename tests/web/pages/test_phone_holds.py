"""A phone and the seat it holds: a second phone on a seat is told another holds it (and the host sees it); a
phone that loses the table says so in words, never "Failed to fetch" under a "Live" pill, and comes back by
itself."""

from __future__ import annotations

from typing import Any

import pytest

from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import csp_errors, shot
from tests.web.pages.test_host_page import host_page
from tests.web.pages.test_seat_versions import fresh_game

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WAIT_MS = 8000


def phone(browser: Any, url: str, lang: str = "en") -> Any:
    ctx = browser.new_context(locale={"en": "en-US", "ko": "ko-KR"}[lang], viewport=PHONE)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#choices button.choice, #no-prompt", timeout=WAIT_MS)
    return page


def test_a_second_phone_on_a_seat_is_told_and_the_host_sees_it(browser: Any, base_url: str, runtime: Runtime) -> None:
    tokens = fresh_game(runtime)
    first = phone(browser, f"{base_url}/seat/{tokens[0]}")
    other = phone(browser, f"{base_url}/seat/{tokens[1]}")
    assert first.query_selector("#other-phone") is None
    second = phone(browser, f"{base_url}/seat/{tokens[0]}", "ko")  # another device opens seat 1's link
    second.wait_for_selector("#other-phone", timeout=WAIT_MS)
    assert "다른 휴대폰" in second.inner_text("#other-phone")
    shot(second, "flow-second-phone-ko")
    first.reload()  # the first phone hears of it at its next request too
    first.wait_for_selector("#other-phone", timeout=WAIT_MS)
    assert "Another phone has this seat open" in first.inner_text("#other-phone")
    assert other.query_selector("#other-phone") is None
    host = host_page(browser, base_url)
    host.wait_for_selector(".phones[data-seat='0']", timeout=WAIT_MS)
    assert "2 phones" in host.inner_text(".phones[data-seat='0']")
    assert host.query_selector(".phones[data-seat='1']") is None
    shot(host, "flow-host-two-phones-en")
    for page in (first, second, other, host):
        page.context.close()


def test_a_phone_that_loses_the_table_says_so_and_comes_back(browser: Any, base_url: str, runtime: Runtime) -> None:
    tokens = fresh_game(runtime)
    page = phone(browser, f"{base_url}/seat/{tokens[0]}")
    errors = csp_errors(page)
    page.wait_for_selector("#status.live")
    page.click("#choices button.choice")
    page.context.set_offline(True)
    page.click("#confirm-yes")  # the tap cannot reach the table: said in words
    page.wait_for_selector("#refusal", timeout=WAIT_MS)
    assert "Failed to fetch" not in page.inner_text("body")
    assert "Lost the connection" in page.inner_text("#refusal")
    page.wait_for_selector("#offline", timeout=WAIT_MS)
    assert not page.eval_on_selector("#status", "(el) => el.classList.contains('live')"), "a green pill while offline"
    assert "reconnects by itself" in page.inner_text("#offline")
    shot(page, "flow-phone-offline-en")
    host_call(runtime.loop, "submit", seat=1, action={"type": "vote", "vote": "ja"}, source="test")
    page.context.set_offline(False)  # back: the page catches up by itself, no reload
    page.wait_for_selector("#offline", state="detached", timeout=WAIT_MS * 2)
    page.wait_for_selector("#status.live", timeout=WAIT_MS * 2)
    version = runtime.handle.seat_state(0)["version"]
    page.wait_for_function("(v) => document.body.dataset.version === v", arg=version, timeout=WAIT_MS)
    assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e], errors
    page.context.close()
