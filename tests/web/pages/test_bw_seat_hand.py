"""A digital Boss's Wallet seat's phone, in a real browser at 390 px: its hand is listed from the deal, card by
card in full (what it is, its value and unit), and a put chosen there names one of those cards."""

from __future__ import annotations

from typing import Any

import pytest

from companion.table.runtime import Runtime
from tests.table.helpers import host_call, live_rows
from tests.web.pages.browser import csp_errors, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WORDS = {"en": ("bill", "jewellery"), "ko": ("지폐", "귀금속")}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_digital_seat_sees_its_hand_right_after_the_deal(browser: Any, base_url: str, runtime: Runtime,
                                                           lang: str) -> None:
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="boss_wallet", seats=4, components="digital").get("game_id")
    runtime.loop.wait_idle()
    session = runtime.loop.session
    seat = session.state.turn  # the start seat: to act at once
    mine = session.rules.view(session.state, seat)
    assert len(mine["hand"]) == 5 and mine["hand_complete"] is True
    ctx = browser.new_context(viewport=PHONE, locale="ko-KR" if lang == "ko" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    errors = csp_errors(page)
    page.goto(f"{base_url}/seat/{session.tokens[seat]}")
    page.wait_for_selector("#prompt button")
    page.click("#secret-toggle")
    page.wait_for_selector("#private ul.cards li")
    items = page.query_selector_all("#private [data-field=hand] li")
    assert [li.get_attribute("data-card") for li in items] == mine["hand"]
    bill, jewel = WORDS[lang]
    for li, card in zip(items, mine["hand"]):
        entry = mine["card_info"][card]
        text = li.inner_text()
        if entry["type"] in ("bill", "jewel"):  # named with its value and unit
            assert f"{entry['value']} CU" in text and (bill if entry["type"] == "bill" else jewel) in text, text
        assert card not in text, "a card shown by its words, never its id"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scroll"
    shot(page, f"boss_wallet-digital-seat-after-deal-{lang}")
    if lang == "en":
        # the phone's put choices are the hand's cards; one chosen there leaves the hand
        page.click('#prompt button[data-type="put"]')
        page.wait_for_selector("#choices button.choice")
        offered = [b.get_attribute("data-action") for b in page.query_selector_all("#choices button.choice")]
        assert offered and all('"card":' in a for a in offered)
        button = page.query_selector_all("#choices button.choice")[-1]
        label = button.inner_text()
        button.click()
        page.wait_for_selector("#confirm")
        page.click("#confirm-yes")
        page.wait_for_function("n => document.querySelectorAll('#private [data-field=hand] li').length === n", arg=4)
        put = live_rows(runtime)[-1]["action"]
        assert put["type"] == "put" and put["seat"] == seat and put["card"] in mine["hand"]
        assert "CU" in label or "badge" in label or "card" in label, label
        left = [li.get_attribute("data-card") for li in page.query_selector_all("#private [data-field=hand] li")]
        assert left == [c for c in mine["hand"] if c != put["card"]]
    assert not errors, errors
    ctx.close()
