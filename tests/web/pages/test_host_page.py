"""The host console and the simulator in a real browser: house rules as typed fields with their errors beside
them, the record download's reason, health times, the running game's seats only, the sim's buttons and
terminals; screenshots of the host page and a phone's seat page in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.table.runtime import Runtime
from companion.web import texts
from tests.table.helpers import host_call
from tests.web.pages.browser import csp_errors, shot
from tests.web.pages.conftest import PIN

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def host_page(browser: Any, base_url: str, lang: str = "en") -> Any:
    page = browser.new_context(locale={"en": "en-US", "ko": "ko-KR"}[lang]).new_page()
    page.goto(f"{base_url}/host")
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_function("() => document.getElementById('ng-game').options.length > 0")
    return page


def field_error(page: Any, option: str) -> str:
    return page.inner_text(f"[data-error-for={option}]")


def test_house_rules_are_typed_fields_with_errors_beside_them(browser: Any, base_url: str, runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    page = host_page(browser, base_url)
    errors = csp_errors(page)
    page.select_option("#ng-game", "thief_of_baghdad")
    first = page.wait_for_selector("input[data-option=first_hand]")
    assert (first.get_attribute("type"), first.get_attribute("min"), first.get_attribute("max")) == ("number", "1", "12")
    assert "default 6" in page.inner_text("[data-option-row=first_hand]")
    first.fill("40")
    page.click("#ng-start")
    page.wait_for_selector("[data-error-for=first_hand]:not([hidden])")
    assert field_error(page, "first_hand") == "Enter a number from 1 to 12."
    assert page.is_hidden("#flash") and runtime.loop.session is None  # nothing started
    page.select_option("#ng-game", "gangsters_dilemma")
    page.wait_for_selector("[data-option=characters] input[data-choice=lookout]")
    assert page.inner_text("[data-option=characters]").count("\n") >= 8  # a box per character, by name
    assert "Lookout" in page.inner_text("[data-option=characters]")
    page.select_option("#ng-game", "boss_wallet")
    page.fill("textarea[data-option=cards]", "{not json")
    page.click("#ng-start")
    page.wait_for_selector("[data-error-for=cards]:not([hidden])")
    assert field_error(page, "cards") == "This is not valid JSON."
    page.fill("textarea[data-option=cards]", '{"x": 1}')  # JSON, but not a catalogue: the engine says why
    page.click("#ng-start")
    page.wait_for_function("() => document.querySelector('[data-error-for=cards]').textContent.includes('cards')")
    assert page.is_hidden("#flash") and page.is_hidden("#host-error")
    shot(page, "host-option-error-en")
    assert not [e for e in errors if "409" not in e], errors  # the engine's refusal is a 409, said beside the field
    page.context.close()


def test_console_says_why_the_record_waits_and_lists_only_the_games_seats(browser: Any, base_url: str,
                                                                        runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital").get("game_id")
    runtime.loop.wait_idle()
    for lang in ("en", "ko"):
        page = host_page(browser, base_url, lang)
        errors = csp_errors(page)
        page.wait_for_selector("#terminal-table tr[data-terminal=T9]")
        page.click("#export-record")
        page.wait_for_selector("#host-error:not([hidden])")
        said = page.inner_text("#host-error")
        assert said and ("once the game is over" in said if lang == "en" else "게임이 끝난 뒤" in said)
        # terminals of seats 6-10 serve nobody in a 5-seat game; only its seats can be picked
        assert page.inner_text("#terminal-table tr[data-terminal=T7] td:nth-child(3)").startswith(
            "no seat in this game" if lang == "en" else "이 게임에 없는 자리")
        assert page.eval_on_selector("#terminal-table tr[data-terminal=T0] select.bind-seat",
                                     "s => s.options.length") == 6
        page.wait_for_selector("#health-table tr[data-component='readers: r0'] td.last-seen")
        seen = page.inner_text("#health-table tr[data-component='readers: r0'] td.last-seen")
        assert re.search(r"\d{1,2}:\d{2}", seen), seen
        page.click("#undo")
        page.wait_for_selector("#confirm-box:not([hidden])")
        question = page.inner_text("#confirm-text")
        assert not question.endswith(".?") and ".." not in question
        shot(page, f"host-page-{lang}")
        page.click("#confirm-cancel")
        assert not [e for e in errors if "409" not in e], errors  # the refused download is a 409, said in words
        page.context.close()


def test_starting_over_a_running_game_asks_first(browser: Any, base_url: str, runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital").get("game_id")
    runtime.loop.wait_idle()
    running = runtime.loop.session.game_id
    page = host_page(browser, base_url)
    page.select_option("#ng-game", "secret_hitler")
    page.click("#ng-start")
    page.wait_for_selector("#confirm-box:not([hidden])")
    assert "A game is running" in page.inner_text("#confirm-text")
    page.click("#confirm-cancel")
    assert runtime.loop.session.game_id == running, "cancel left the game alone"
    page.click("#ng-start")
    page.wait_for_selector("#confirm-box:not([hidden])")
    page.click("#confirm-ok")
    page.wait_for_function("() => document.getElementById('flash').textContent === 'Game started.'")
    runtime.loop.wait_idle()
    assert runtime.loop.session.game_id != running
    page.context.close()


def test_sim_offers_each_seats_buttons_and_keeps_unplugged_terminals(browser: Any, base_url: str,
                                                                   runtime: Runtime) -> None:
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital").get("game_id")
    runtime.loop.wait_idle()
    ctx = browser.new_context(locale="en-US")
    assert ctx.request.post(f"{base_url}/api/host/login", data={"pin": PIN}).ok
    page = ctx.new_page()
    errors = csp_errors(page)
    page.goto(f"{base_url}/sim")
    page.wait_for_selector("#buttons .zone[data-seat='4'] button.press[data-key=nein]")
    assert page.query_selector("#buttons .zone[data-seat='5']") is None  # a 5-seat game
    assert page.query_selector("#press-key") is None
    assert page.inner_text("#buttons .zone[data-seat='0'] button[data-key=ja]") == "Ja!"
    assert "seat:" not in page.inner_text("#zones")
    president = runtime.loop.session.rules.view(runtime.loop.session.state)["president"]
    before = runtime.loop.counters.inputs
    with page.expect_response("**/api/sim/press") as pressed:
        page.click(f"#buttons .zone[data-seat='{president}'] button[data-key=ja]")
    assert pressed.value.ok
    runtime.loop.wait_idle()
    assert runtime.loop.counters.inputs > before, "the press never reached the table"
    assert page.is_hidden("#sim-error")
    page.fill("#terminal-id", "PICO-7")
    page.click("#terminal-form button[type=submit]")
    page.wait_for_selector(".zone[data-terminal='PICO-7'][data-plugged='1']")
    with page.expect_response("**/api/sim/terminal") as tapped:  # a new tag at the terminal's own reader
        page.click(".zone[data-terminal='PICO-7'] button.tap-here")
    assert tapped.value.ok and len(tapped.value.json()["uid"]) == 14
    assert page.is_hidden("#sim-error")
    page.fill(".zone[data-terminal='PICO-7'] input[data-terminal]", "04A1")  # typing survives a live update
    box = page.query_selector(".zone[data-terminal='PICO-7']")
    host_call(runtime.loop, "end_game")
    page.wait_for_function("box => !box.isConnected", arg=box)  # the terminals were drawn again
    assert page.input_value(".zone[data-terminal='PICO-7'] input[data-terminal]") == "04A1"
    page.click(".zone[data-terminal='PICO-7'] button:has-text('Unplug')")
    page.wait_for_selector(".zone[data-terminal='PICO-7'][data-plugged='']")
    page.fill(".zone[data-terminal='PICO-7'] input[data-terminal]", "")
    page.click(".zone[data-terminal='PICO-7'] button.tap-here")
    page.wait_for_selector("#sim-error:not([hidden])")
    assert "unplugged: connect it first" in page.inner_text("#sim-error")  # the refusal in words, not its code
    refused = "Failed to load resource: the server responded with a status of 409 (CONFLICT)"  # that refusal's
    errors[:] = [e for e in errors if e != refused]
    page.reload()
    page.wait_for_selector(".zone[data-terminal='PICO-7'][data-plugged='']")  # still listed after a reload
    assert "unplugged" in page.inner_text(".zone[data-terminal='PICO-7']").lower()
    shot(page, "sim-en")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_phone_seat_page_pictures(browser: Any, base_url: str, runtime: Runtime, lang: str) -> None:
    if runtime.loop.session is None or runtime.loop.session.ended is not None or runtime.loop.session.game != "secret_hitler":
        host_call(runtime.loop, "end_game")
        host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital")
        runtime.loop.wait_idle()
    ctx = browser.new_context(locale={"en": "en-US", "ko": "ko-KR"}[lang], viewport=PHONE, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(f"{base_url}/seat/{runtime.loop.session.tokens[0]}")
    page.wait_for_selector("#prompt button.choice, #no-prompt")
    page.click("#secret-toggle")
    page.wait_for_selector("#private [data-secret=role]")
    shot(page, f"seat-phone-{lang}")
    ctx.close()


def test_each_change_at_the_table_costs_the_host_page_one_request_at_most(browser: Any, base_url: str,
                                                                          runtime: Runtime) -> None:
    """The public state comes with the live update; only the host's own state is fetched, once per change (and
    a burst of changes while a request is out is one more request, not one each)."""
    import random

    from companion.table.core.commands import Submit
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="secret_hitler", seats=5, components="digital").get("game_id")
    page = host_page(browser, base_url)
    page.wait_for_timeout(500)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("?")[0].removeprefix(base_url)))
    rng = random.Random(3)
    changes = 0
    for burst in (1, 1, 1, 4):
        for _ in range(burst):
            session = runtime.loop.session
            seat = sorted(session.rules.to_act(session.state))[0]
            action = rng.choice(session.rules.legal_actions(session.state, seat))
            assert "accepted" in runtime.loop.call(Submit(seat, action, "test"))
            changes += 1
        page.wait_for_timeout(600)
    assert "/api/state" not in asked, asked
    fetched = asked.count("/api/host/state")
    assert 4 <= fetched <= changes, asked  # each pause sees its change; the burst of four is coalesced
    summary = page.inner_text("#game-summary")
    assert "Secret Hitler" in summary and "5" in summary
    page.context.close()


def test_redo_is_offered_right_after_an_undo_and_brings_the_move_back(browser: Any, base_url: str,
                                                                      runtime: Runtime) -> None:
    """The Redo button beside Undo: off until an undo, on after it (in both languages), and a redo brings the
    undone move back and turns it off again; screenshots of the console at 1920x1080 with Redo on."""
    host_call(runtime.loop, "end_game")
    assert host_call(runtime.loop, "new_game", game="tiny", seats=3, components="digital").get("game_id")
    for seat in range(3):
        assert isinstance(host_call(runtime.loop, "submit", seat=seat, action={"type": "vote", "seat": seat,
                                                                                "vote": "ja"}, source="test"), dict)
    runtime.loop.wait_idle()
    played = runtime.loop.session.state  # type: ignore[union-attr]
    page = browser.new_context(locale="en-US", viewport={"width": 1920, "height": 1080}).new_page()
    errors = csp_errors(page)
    page.goto(f"{base_url}/host")
    page.fill("#pin", PIN)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_selector("#undo:not([disabled])")
    assert page.is_disabled("#redo"), "nothing was undone: nothing to redo"
    page.click("#undo")
    page.wait_for_selector("#confirm-box:not([hidden])")
    page.click("#confirm-ok")
    page.wait_for_selector("#redo:not([disabled])")
    assert runtime.loop.session.state != played  # type: ignore[union-attr]
    for lang, words in (("en", "Redo the undone action"), ("ko", "되돌린 행동 다시 하기")):
        page.click(f"button[data-lang={lang}]")
        page.wait_for_function("(w) => document.getElementById('redo').textContent === w", arg=words)
        said = texts.load(lang)["host"]["undone"]  # the answer already on screen is said again in the new language
        page.wait_for_function("(w) => document.getElementById('flash').textContent === w", arg=said)
        shot(page, f"host-redo-{lang}")
    page.click("button[data-lang=en]")
    page.click("#redo")
    page.wait_for_function("() => document.getElementById('flash').textContent === 'Redone.'")
    page.wait_for_selector("#redo[disabled]")
    runtime.loop.wait_idle()
    assert runtime.loop.session.state == played, "the redo brought the undone move back as it was"  # type: ignore[union-attr]
    assert not errors, errors
    page.context.close()
