"""Bots and advisory timers in a real browser: the host seats a bot from the new-game form and hands a seat
over and back, sets a phase's timer (a bad number refused in words), sees it run out and chooses; the table
screen names bot seats and counts the timer down; a bot's phone says a bot plays it. Screenshots: the host
page with a bot seat and a running timer, the TV with the timer, a phone; 1920x1080 and 390x844, both
languages."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

from companion.config import BotsConfig
from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import ARTIFACTS, csp_errors, shot
from tests.web.pages.conftest import PIN, start_table

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SH = "secret_hitler"


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    """A table whose bots play at once (the table tests time their pause)."""
    rt = start_table(tmp_path_factory.mktemp("table"), SH, 5, BotsConfig(0, 0))
    yield rt
    rt.stop()


def page_of(browser: Any, url: str, lang: str, size: dict[str, int]) -> Any:
    page = browser.new_context(locale={"en": "en-US", "ko": "ko-KR"}[lang], viewport=size).new_page()
    page.goto(url)
    return page


def host_page(browser: Any, base_url: str, lang: str = "en") -> Any:
    page = page_of(browser, f"{base_url}/host", lang, TV)
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_function("() => document.getElementById('ng-game').options.length > 0")
    return page


def test_the_host_seats_a_bot_and_times_a_phase(browser: Any, base_url: str, runtime: Runtime) -> None:
    page = host_page(browser, base_url)
    errors = csp_errors(page)
    page.select_option("#ng-game", SH)
    page.select_option("#ng-seats", "5")
    page.check("#ng-bots input[data-bot-seat='4']")
    page.click("#ng-start")
    page.wait_for_selector("#confirm-box:not([hidden])")  # the table's own game runs: replace it
    page.click("#confirm-ok")
    page.wait_for_selector("#flash:not([hidden])")
    page.wait_for_selector(".seat-player[data-seat='4'][data-player='bot'] .badge.bot")
    assert runtime.handle.public_state()["game"]["bots"] == [4]
    # a bad timer is refused in words, and nothing is set
    page.select_option("#timer-phase", "vote")
    page.fill("#timer-seconds", "0")
    page.click("#set-timer")
    page.wait_for_selector("#host-error:not([hidden])")
    assert "whole number of seconds" in page.inner_text("#host-error")
    assert runtime.loop.state.timers.settings == {}
    # a vote timer of 2 seconds: the table screen counts it down, and at zero the host chooses
    for phase, seconds in (("vote", "2"), ("nominate", "600")):
        page.select_option("#timer-phase", phase)
        page.fill("#timer-seconds", seconds)
        page.click("#set-timer")
        page.wait_for_selector(f"[data-timer-set={phase}]")
    assert runtime.handle.host_state()["timers"]["settings"] == {"nominate": 600, "vote": 2}
    tv = page_of(browser, base_url + "/", "en", TV)
    tv_errors = csp_errors(tv)
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game=SH, seats=5, bots=[4])
    president = runtime.handle.public_state()["game"]["to_act"][0]
    tv.wait_for_selector("#timer:not([hidden])")
    assert "Time left for" in tv.inner_text("#timer") and "(bot)" in tv.inner_text("body") or president == 4
    if president != 4:
        runtime.handle.submit(president, {"type": "nominate", "seat": president, "target": 4 if president != 4 else 0},
                              f"seat_page:{president}")
    tv.wait_for_function("() => document.getElementById('timer').dataset.state === 'expired'", timeout=15000)
    assert "Time is up" in tv.inner_text("#timer")
    page.wait_for_selector("#timer-choice")
    shot(page, "bots-host-expired-en")
    page.locator("#timers-panel").screenshot(path=str(ARTIFACTS / "bots-host-timers-expired-en.png"))
    shot(tv, "bots-tv-expired-en")
    rows = len(runtime.journal.rows(runtime.loop.session.game_id))  # type: ignore[union-attr]
    page.click("#timer-wait")
    page.wait_for_function("() => !document.getElementById('timer-wait')")  # waiting: more time or a bot remain
    tv.wait_for_function("() => document.getElementById('timer').textContent.includes('the table waits')")
    assert len(runtime.journal.rows(runtime.loop.session.game_id)) == rows  # type: ignore[union-attr]
    assert not [e for e in errors if "409" not in e and "400" not in e], errors
    assert not tv_errors, tv_errors
    tv.context.close()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_screens_with_a_bot_and_a_running_timer(browser: Any, base_url: str, runtime: Runtime, lang: str) -> None:
    host_call(runtime.loop, "set_timer", game=SH, phase="nominate", seconds=90)
    host_call(runtime.loop, "set_timer", game=SH, phase="vote", seconds=45)
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game=SH, seats=5, bots=[2])
    state = runtime.handle.host_state()
    token = state["game"]["seat_tokens"][2]["token"]  # the seat's owner (who left) still has its link
    host = host_page(browser, base_url, lang)
    host.wait_for_selector("#host-timer:not([hidden])")
    host.wait_for_selector(".seat-player[data-seat='2'][data-player='bot']")
    shot(host, f"bots-host-{lang}")
    for part in ("timers-panel", "seats", "new-game"):
        host.locator(f"#{part}").screenshot(path=str(ARTIFACTS / f"bots-host-{part}-{lang}.png"))
    tv = page_of(browser, base_url + "/", lang, TV)
    tv.wait_for_selector("#timer:not([hidden])")
    bot_word = {"en": "(bot)", "ko": "(봇)"}[lang]
    time.sleep(1.2)  # the countdown moves on the screen
    assert tv.inner_text("#timer").strip() and tv.get_attribute("#timer", "data-state") == "running"
    shot(tv, f"bots-tv-{lang}")
    phone = page_of(browser, f"{base_url}/seat/{token}", lang, PHONE)
    phone.wait_for_selector("#bot-plays")
    assert bot_word in phone.inner_text("#seat-name")
    shot(phone, f"bots-phone-{lang}")
    if lang == "en":
        assert "A bot plays this seat" in phone.inner_text("#bot-plays")
    for p in (host, tv, phone):
        p.context.close()


def test_a_seat_is_handed_to_a_bot_and_back_from_the_host_page(browser: Any, base_url: str, runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game=SH, seats=5)
    page = host_page(browser, base_url)
    page.click(".seat-player[data-seat='1'] button.hand-to-bot")
    page.wait_for_selector(".seat-player[data-seat='1'][data-player='bot']")
    assert runtime.handle.public_state()["game"]["bots"] == [1]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # hand it back as soon as the bot is not deciding
        page.click(".seat-player[data-seat='1'] button.hand-back")
        page.wait_for_timeout(300)
        if runtime.handle.public_state()["game"]["bots"] == []:
            break
        assert "deciding" in page.inner_text("#host-error")  # refused in words while the bot decides
    assert runtime.handle.public_state()["game"]["bots"] == []
    page.context.close()



def test_the_replay_shows_each_bot_decision_with_its_reason(browser: Any, base_url: str, runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    host_call(runtime.loop, "new_game", game=SH, seats=5, bots=[0, 1, 2, 3, 4])
    game_id = runtime.loop.session.game_id  # type: ignore[union-attr]
    deadline = time.monotonic() + 120
    while runtime.loop.status != "over" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert runtime.loop.status == "over"
    for lang, said in (("en", ("It nominated", "Ja:", "Nein:")), ("ko", ("지명했습니다", "찬성:", "반대:"))):
        page = host_page(browser, base_url, lang)
        page.goto(f"{base_url}/replay/{game_id}")
        page.wait_for_selector("#timeline li[data-bot]")
        # reasons tell roles: hidden first (the moves' public lines may say "지명했습니다" themselves, so the check
        # is on the reasons' own "찬성:" / "반대:" openings)
        assert not any(word in page.inner_text("#timeline") for word in said[1:])
        page.check("#show-hidden")
        page.wait_for_function("(w) => document.getElementById('timeline').textContent.includes(w)", arg=said[0])
        timeline = page.inner_text("#timeline")
        assert any(word in timeline for word in said[1:])
        page.click("#timeline li[data-bot] button")
        page.wait_for_function("() => document.getElementById('step-action').textContent.includes(' — ')")
        shot(page, f"bots-replay-{lang}")
        page.context.close()
