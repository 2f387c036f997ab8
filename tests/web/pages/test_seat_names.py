"""The page names and colours seats as the table config does (table, seat, host and sim pages, prompts and log
lines, in both languages), and the simulator suggests the enrolled cards of the game running."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import GameConfig, PollingConfig, SeatConfig, demo_config
from companion.table.runtime import Runtime
from tests.table.helpers import host_call
from tests.web.pages.browser import ARTIFACTS, csp_errors, serve, shot
from tests.web.pages.conftest import PIN

pytestmark = pytest.mark.browser

NAMES = ("Mina", "Joon", "", "서연", "Ari")
"""Seat 2 has no name: the page says "Seat 3" / "3번 자리" for it."""
COLOURS = ("#c62828", "#1a237e", "#2e7d32", "#f9a825", "#6a1b9a")
"""Not the demo table's colours, and seat 1 dark enough to need white text on its chip."""


def named_config(data: Path) -> Any:
    base = demo_config()
    seats = tuple(SeatConfig(n, c, f"T{i}") for i, (n, c) in enumerate(zip(NAMES, COLOURS)))
    return replace(base, data_dir=str(data), game=GameConfig("secret_hitler", 5, "digital"), seats=seats,
                   buttons=tuple(b for b in base.buttons if b.seat < len(seats)),
                   polling=PollingConfig(interval_ms=5, removal_ms=25), web=replace(base.web, host_pin=PIN))


@pytest.fixture(scope="module")
def named_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    rt = Runtime(named_config(tmp_path_factory.mktemp("named")), rng=random.Random(5)).start()
    for uid, kind, value in (("04AA0001", "ballot", "ja"), ("04AA0002", "policy", "F")):
        assert isinstance(host_call(rt.loop, "enroll", uid=uid, game="secret_hitler", kind=kind, value=value,
                                       label=f"{kind} {value}"), dict)
    assert isinstance(host_call(rt.loop, "enroll", uid="04BB0001", game="thief_of_baghdad", kind="palace", value="red",
                                   label="red palace"), dict)
    yield rt
    rt.stop()


@pytest.fixture(scope="module")
def url(named_table: Runtime) -> Iterator[str]:
    with serve(named_table.app(SSE_HEARTBEAT_S=0.2)) as base:
        yield base
        # closed pages' streams end at their next heartbeat: let them, rather than close the server under them
        deadline = time.monotonic() + 5
        while named_table.loop.bus.clients() and time.monotonic() < deadline:
            time.sleep(0.05)


def shown(i: int, lang: str = "en") -> str:
    """How the page names seat i: its configured name, else the default in that language."""
    return NAMES[i] or (f"Seat {i + 1}" if lang == "en" else f"{i + 1}번 자리")


def chip(page: Any, selector: str) -> dict[str, str]:
    return page.eval_on_selector(selector, """el => ({title: el.title, colour: el.style.getPropertyValue('--sc'),
        ink: el.style.getPropertyValue('--sc-ink'), background: getComputedStyle(el).backgroundColor})""")


def test_table_and_seat_pages_name_and_colour_seats_from_the_config(browser: Any, url: str,
                                                                    named_table: Runtime) -> None:
    ctx = browser.new_context(locale="en-US")
    table, seat = ctx.new_page(), ctx.new_page()
    errors = csp_errors(table) + csp_errors(seat)
    table.goto(f"{url}/")
    table.wait_for_selector(".seat[data-seat='4'] .chip-seat")
    for i in range(5):
        assert table.inner_text(f".seat[data-seat='{i}'] .name") == f"{i + 1} {shown(i)}"
        assert chip(table, f".seat[data-seat='{i}'] .chip-seat")["colour"] == COLOURS[i]
    assert chip(table, ".seat[data-seat='1'] .chip-seat")["ink"] == "#fff"  # dark navy: white text
    assert chip(table, ".seat[data-seat='0'] .chip-seat")["background"] == "rgb(198, 40, 40)"
    view = named_table.handle.public_state()["game"]["view"]
    president = view["president"]
    assert table.inner_text("#to-act") == f"Waiting for {shown(president)}"
    assert f"{shown(view['log'][0]['params']['first_president'])} is the first president." in table.inner_text("#log")

    target = 2 if president != 2 else 0  # nominate the unnamed seat if the president may
    tokens = [e["token"] for e in named_table.handle.host_state()["game"]["seat_tokens"]]
    seat.goto(f"{url}/seat/{tokens[president]}")
    seat.wait_for_selector("#choices button.choice")
    assert seat.inner_text("#seat-name") == shown(president)
    choices = seat.eval_on_selector_all("#choices button.choice", "els => els.map(e => e.textContent)")
    assert f"Nominate {shown(target)} as chancellor" in choices
    assert not any("Seat 1" in c or "Seat 2" in c for c in choices)  # configured names, not generated ones
    seat.click(f"#choices button.choice >> text='Nominate {shown(target)} as chancellor'")
    seat.click("#confirm-yes")
    line = f"{shown(president)} nominated {shown(target)} as chancellor."
    table.wait_for_function("line => document.getElementById('log').textContent.includes(line)", arg=line)
    shot(table, "seat-names-table-en")
    shot(seat, "seat-names-seat-en")

    table.click("button[data-lang=ko]")
    table.wait_for_function("() => document.documentElement.lang === 'ko'")
    for i in range(5):  # configured names are proper names: the same in Korean; the unnamed seat is translated
        assert table.inner_text(f".seat[data-seat='{i}'] .name") == f"{i + 1} {shown(i, 'ko')}"
    assert table.inner_text(f".seat[data-seat='2'] .name") == "3 3번 자리"
    shot(table, "seat-names-table-ko")
    seat.reload()
    seat.wait_for_function("() => document.documentElement.lang === 'ko'")
    seat.wait_for_function("name => document.getElementById('seat-name').textContent === name", arg=shown(president))
    table.click("button[data-lang=en]")
    assert not errors, errors
    ctx.close()


def test_host_and_sim_pages_name_seats_and_the_sim_suggests_this_games_cards(browser: Any, url: str,
                                                                             named_table: Runtime) -> None:
    ctx = browser.new_context(locale="en-US")
    host, sim = ctx.new_page(), ctx.new_page()
    errors = csp_errors(host) + csp_errors(sim)
    sim.goto(f"{url}/sim")  # not logged in: the simulator (and the registry it suggests from) is the host's
    sim.wait_for_selector("#login-form")
    assert sim.eval_on_selector_all(".zone, #known-cards option", "els => els.length") == 0
    host.goto(f"{url}/host")
    host.fill("#pin", PIN)
    host.click("#login-form button[type=submit]")
    host.wait_for_selector(".seat-qr[data-seat='4'] .name .chip-seat")
    for i in range(5):
        assert host.inner_text(f".seat-qr[data-seat='{i}'] .name") == f"{i + 1} {shown(i)}"
        assert chip(host, f".seat-qr[data-seat='{i}'] .chip-seat")["colour"] == COLOURS[i]
    options = host.eval_on_selector_all("#terminal-table tr[data-terminal='T0'] select.bind-seat option",
                                        "els => els.map(e => e.textContent)")
    assert options[1:6] == [shown(i) for i in range(5)]
    shot(host, "seat-names-host")

    sim.reload()  # now with the host's session: the enrolled cards of the game running (Secret Hitler) only
    sim.wait_for_function("() => document.querySelectorAll('#known-cards option').length === 2")
    cards = sim.eval_on_selector_all("#known-cards option", "els => els.map(e => [e.value, e.textContent])")
    assert cards == [["04AA0001", "Ja!"], ["04AA0002", "Fascist"]]  # in the game's words, not "ballot ja"
    assert isinstance(host_call(named_table.loop, "enroll", uid="04AA0003", game="secret_hitler", kind="ballot",
                                            value="nein", label=""), dict)
    sim.wait_for_function("() => document.querySelectorAll('#known-cards option').length === 3")
    assert sim.inner_text("#known-cards option[value='04AA0003']") == "Nein"  # no label: what it is, in the game's words
    for i in range(5):
        assert sim.inner_text(f".zone[data-reader='r{i}'] .name").startswith(f"{i + 1} {shown(i)} · ")
        assert "seat:" not in sim.inner_text(f".zone[data-reader='r{i}'] .name")  # words, never a zone id
        assert chip(sim, f".zone[data-reader='r{i}'] .chip-seat")["colour"] == COLOURS[i]
    assert sim.inner_text(".zone[data-reader='board'] .name") == "the board"  # a shared zone in words, no chip
    shot(sim, "seat-names-sim")
    assert (ARTIFACTS / "seat-names-sim.png").stat().st_size > 0
    assert not errors, errors
    ctx.close()
