"""A refused input as each page shows it, in a real browser: the table screen names the seat and, only when the
reason is public, the reason; the seat's own phone and the host console say why. In English and Korean, at the
sizes they are used at (the table on a 1080p TV, the seat on a 390 px phone)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from companion.table.runtime import Runtime
from tests.table.helpers import host_call, hw
from tests.web.pages.browser import csp_errors, shot
from tests.web.pages.conftest import PIN

TILE = "0A0B0C0D"
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {"hidden": "Not accepted on {seat}.", "seat": "Refused: That card is not expected here now.",
           "public": "Refused on {seat}: It is not your turn.", "host": "Refused on {seat}: That card is not expected"},
    "ko": {"hidden": "{seat}의 입력을 받지 않았습니다.", "seat": "거부됨: ", "public": "{seat}의 입력을 받을 수 없습니다.",
           "host": "{seat}의 입력을 받을 수 없습니다."},
}


@pytest.fixture()
def game(runtime: Runtime) -> Iterator[list[str]]:
    """A digital Secret Hitler game at 5 seats and a policy tile enrolled (a tile means nothing at a seat's
    reader while the president nominates); the seat tokens."""
    host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital", replace=True)
    host_call(runtime.loop, "enroll", uid=TILE, game="secret_hitler", kind="policy", value="F")
    runtime.loop.wait_idle()
    yield list(runtime.loop.session.tokens)  # type: ignore[union-attr]
    host_call(runtime.loop, "forget_card", uid=TILE)


def open_pages(browser: Any, base_url: str, token: str, lang: str) -> dict[str, Any]:
    locale = "ko-KR" if lang == "ko" else "en-US"
    table = browser.new_context(locale=locale, viewport=TV).new_page()
    table.goto(base_url)
    seat = browser.new_context(locale=locale, viewport=PHONE).new_page()
    seat.goto(f"{base_url}/seat/{token}")
    host = browser.new_context(locale=locale).new_page()
    host.goto(f"{base_url}/host")
    host.fill("#pin", PIN)
    host.click("#login-form button[type=submit]")
    host.wait_for_selector("#console:not([hidden])", timeout=60000)
    table.wait_for_selector("#board .seat")
    seat.wait_for_selector("#prompt button.choice, #no-prompt")
    for page in (table, seat, host):  # each has its live stream open: an event before that is not replayed
        page.wait_for_selector("#status.live", timeout=30000)
    return {"table": table, "seat": seat, "host": host}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_hidden_reason_goes_to_the_seat_and_the_host_and_a_public_one_to_everyone(
        browser: Any, base_url: str, runtime: Runtime, game: list[str], lang: str) -> None:
    pages = open_pages(browser, base_url, game[1], lang)
    errors = [csp_errors(p) for p in pages.values()]
    name = (lambda n: f"{n}번 자리") if lang == "ko" else (lambda n: f"Seat {n}")  # the seats have no names here
    words = {k: v.format(seat=name(2)) for k, v in WORDS[lang].items()}
    # a policy tile at seat 1's reader: the binding's code would tell everyone what the card is
    hw(runtime).place("r1", TILE)
    runtime.loop.wait_idle()
    hw(runtime).remove("r1")
    pages["table"].wait_for_selector("#table-notice:not([hidden])")
    assert pages["table"].inner_text("#table-notice") == words["hidden"]
    pages["seat"].wait_for_selector("#seat-refusal:not([hidden])")
    assert pages["seat"].inner_text("#seat-refusal").startswith(words["seat"])
    assert pages["seat"].get_attribute("#seat-refusal", "data-code") == "unexpected_card"
    pages["host"].wait_for_selector("#last-refusal:not([hidden])")
    assert pages["host"].inner_text("#last-refusal").startswith(words["host"])
    shot(pages["table"], f"refusal-hidden-table-{lang}")
    shot(pages["seat"], f"refusal-hidden-seat-{lang}")
    shot(pages["host"], f"refusal-hidden-host-{lang}")
    # seat 0 presses a button while the president nominates: "not your turn" tells nothing hidden, so everyone
    # reads it
    hw(runtime).press(0, "ja")
    runtime.loop.wait_idle()
    pages["table"].wait_for_function(
        "(want) => document.getElementById('table-notice').textContent.startsWith(want)",
        arg=WORDS[lang]["public"].format(seat=name(1)))
    shot(pages["table"], f"refusal-public-table-{lang}")
    assert pages["seat"].get_attribute("#seat-refusal", "data-code") == "unexpected_card", "not seat 1's refusal"
    assert not [e for page_errors in errors for e in page_errors if "401" not in e], errors
    for page in pages.values():
        page.context.close()
