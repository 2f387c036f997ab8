"""Guided enrollment in a real browser: a full Secret Hitler set (17 tiles, 10 ballot pairs) and a 7-seat
Gangster's Dilemma set enrolled by taps on `/sim` alone (one click per component, no field typed), the host
panel following live; a verify pass, a label sheet; screenshots of the panel and a sheet."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import GameConfig, PollingConfig, demo_config
from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import ARTIFACTS, chromium, csp_errors, serve, shot
from tests.web.pages.conftest import PIN

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    base = demo_config()
    cfg = replace(base, data_dir=str(tmp_path_factory.mktemp("guide")), game=GameConfig("secret_hitler", 5, "digital"),
                  polling=PollingConfig(interval_ms=5, removal_ms=25), web=replace(base.web, host_pin=PIN))
    rt = Runtime(cfg, rng=random.Random(11)).start()
    host_call(rt.loop, "end_game")  # components are enrolled before a game (the host page then draws no QR codes)
    yield rt
    rt.stop()


@pytest.fixture(scope="module")
def url(table: Runtime) -> Iterator[str]:
    with serve(table.app(SSE_HEARTBEAT_S=0.5)) as base:
        yield base


@pytest.fixture(scope="module")
def pages(url: str) -> Iterator[tuple[Any, Any, list[str]]]:
    """The host console and the simulator, side by side in one host session."""
    with chromium() as browser:
        ctx = browser.new_context(locale="en-US", viewport={"width": 1920, "height": 1080})
        host, sim = ctx.new_page(), ctx.new_page()
        errors = csp_errors(host) + csp_errors(sim)
        host.goto(f"{url}/host")
        host.fill("#pin", PIN)
        host.click("#login-form button[type=submit]")
        host.wait_for_selector("#console:not([hidden])")
        host.wait_for_function("() => document.getElementById('gd-game').options.length > 0")
        sim.goto(f"{url}/sim")
        sim.wait_for_selector(".zone[data-reader='r0'] button.tap-new")
        yield host, sim, errors
        ctx.close()


def start_guide(host: Any, game: str, seats: int) -> None:
    host.select_option("#gd-game", game)
    host.select_option("#gd-seats", str(seats))
    host.click("#gd-start")
    host.wait_for_selector("#guide-body:not([hidden])[data-done='0'][data-mode='enroll']")


def tap_new(host: Any, sim: Any, reader: str, done: int) -> None:
    """One click on the simulator; then wait until the host panel shows the component enrolled."""
    sim.click(f".zone[data-reader='{reader}'] button.tap-new")
    host.wait_for_selector(f"#guide-body[data-done='{done}']", timeout=10_000)


def record(name: str, value: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "guided-enrollment.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**data, name: value}, indent=1))


def test_a_secret_hitler_set_is_enrolled_by_one_tap_each_on_the_sim(pages: tuple[Any, Any, list[str]],
                                                                    table: Runtime) -> None:
    host, sim, errors = pages
    start_guide(host, "secret_hitler", 10)
    assert host.inner_text("#gd-prompt") == "Tap next: Liberal policy 1/6"
    clicks = 0
    began = time.monotonic()
    for n in range(1, 38):
        tap_new(host, sim, f"r{n % 10}", n)
        clicks += 1
        if n == 12:
            assert host.inner_text("#gd-prompt") == "Tap next: Fascist policy 7/11"
            assert host.inner_text("#gd-last") == "Enrolled: Fascist policy 6/11"
            assert host.get_attribute("#gd-last", "data-result") == "enrolled"
    seconds = time.monotonic() - began
    record("secret_hitler_10_seats", {"components": 37, "clicks_per_component": clicks / 37,
                                      "fields_typed": 0, "seconds": round(seconds, 2)})
    assert host.inner_text("#gd-prompt") == "Every component on the list is enrolled."
    cards = [c for c in table.loop.cards.all() if c.game == "secret_hitler"]
    assert Counter((c.kind, c.value) for c in cards) == {("policy", "L"): 6, ("policy", "F"): 11,
                                                         ("ballot", "ja"): 10, ("ballot", "nein"): 10}
    assert host.inner_text("#gd-progress li[data-kind='ballot']") == "ballot cards: 20 of 20"

    sim.click(".zone[data-reader='r3'] button.tap-again")  # the last tag once more: named, not enrolled twice
    host.wait_for_selector("#gd-last[data-result='known']")
    assert host.inner_text("#gd-last") == "Already enrolled: Nein ballot 10/10"
    assert len([c for c in table.loop.cards.all() if c.game == "secret_hitler"]) == 37

    host.click("#gd-modes button[data-mode='verify']")
    host.wait_for_selector("#gd-complete")
    sim.click(".zone[data-reader='r3'] button.tap-again")
    host.wait_for_selector("#gd-report li[data-kind='ballot']:has-text('1 of 20')")
    assert host.get_attribute("#gd-complete", "data-complete") == ""
    assert "missing Ja! ballot ×10, Nein ballot ×9" in host.inner_text("#gd-report li[data-kind='ballot']")
    shot(host, "guided-enrollment-host-1080p")
    host.set_viewport_size({"width": 390, "height": 844})
    host.locator("#guide-panel").screenshot(path=str(ARTIFACTS / "guided-enrollment-host-phone.png"))
    host.set_viewport_size({"width": 1920, "height": 1080})
    assert not errors, errors


def test_a_seven_seat_gangsters_dilemma_set_by_taps_alone(pages: tuple[Any, Any, list[str]], table: Runtime) -> None:
    host, sim, errors = pages
    start_guide(host, "gangsters_dilemma", 7)
    assert host.inner_text("#gd-prompt") == "Tap next: Seat 1 gangster: 1 Hideout"
    began = time.monotonic()
    for n in range(1, 67):
        tap_new(host, sim, "center" if n > 42 else f"r{(n - 1) // 6}", n)
    record("gangsters_dilemma_7_seats", {"components": 66, "clicks_per_component": 1.0,
                                         "seconds": round(time.monotonic() - began, 2)})
    cards = [c for c in table.loop.cards.all() if c.game == "gangsters_dilemma"]
    assert Counter(c.kind for c in cards) == {"gangster": 42, "police": 6, "demand": 18}
    assert {c.value for c in cards if c.kind == "gangster"} == {f"{s}:{n}" for s in range(7) for n in range(1, 7)}
    started = host_call(table.loop, "new_game", game="gangsters_dilemma", seats=7, components="physical", replace=True,
                        options={"characters": []})
    assert isinstance(started, dict), started  # the enrolled demand deck is what a physical game reads
    assert not errors, errors


def test_a_label_sheet_prints_one_label_per_component_in_the_guided_order(pages: tuple[Any, Any, list[str]],
                                                                         url: str, tmp_path: Path) -> None:
    host, _, _ = pages
    host.select_option("#gd-game", "gangsters_dilemma")
    host.select_option("#gd-seats", "7")
    host.wait_for_selector("#gd-sheets a.sheet[data-paper='letter'][data-page='2']")
    assert host.inner_text("#gd-sheets a.sheet[data-paper='a4'][data-page='1']") == "Label sheet A4, page 1 of 2"
    sheet = host.context.new_page()
    for paper, size in (("a4", ("210.0mm", "297.0mm")), ("letter", ("215.9mm", "279.4mm"))):
        res = sheet.goto(f"{url}/host/labels/gangsters_dilemma/7.svg?paper={paper}&page=1")
        assert res.headers["content-type"].startswith("image/svg+xml")
        svg = sheet.locator("svg")
        assert (svg.get_attribute("width"), svg.get_attribute("height")) == size
        labels = sheet.eval_on_selector_all("g.label", "els => els.map(e => [e.dataset.position, e.textContent])")
        assert labels[0] == ["1", "Seat 1 gangster: 1 Hideout1번 자리 갱스터 카드: 1 은닉처#1"]
        assert [int(p) for p, _ in labels] == list(range(1, len(labels) + 1))
        assert sheet.eval_on_selector("g.label rect + rect", "r => r.getAttribute('fill')").startswith("#")
    res = sheet.goto(f"{url}/host/labels/gangsters_dilemma/7.svg?page=2")
    assert "Boss demand" in sheet.locator("svg").text_content() and "sample / 샘플" in sheet.locator("svg").text_content()
    sheet.set_viewport_size({"width": 800, "height": 1131})
    sheet.goto(f"{url}/host/labels/gangsters_dilemma/7.svg?paper=a4&page=1")
    sheet.screenshot(path=str(ARTIFACTS / "guided-enrollment-label-sheet.png"))
    for bad in ("chess/5.svg", "gangsters_dilemma/9.svg", "gangsters_dilemma/7.svg?paper=a3",
                "gangsters_dilemma/7.svg?page=9"):
        res = sheet.goto(f"{url}/host/labels/{bad}")
        assert res.status in (400, 404) and "Traceback" not in sheet.content()
    sheet.close()
