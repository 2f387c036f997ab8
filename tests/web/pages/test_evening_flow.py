"""Phones that follow the table through an evening, for every registered game (never named here): an undo in the
middle, a stale tap, a reload, enrollment holding a running game, game over on every phone, and enrollment then a
physical game whose first read says where and how many with a count that moves (TV, phone and LEDs)."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

from companion.bots import get_bot
from companion.config import BotsConfig
from companion.games import get_rules
from companion.games.registry import game_names
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import card_games, enroll_deck, host_call, settle, zone_pixels
from tests.web.pages.browser import csp_errors, serve, shot
from tests.web.pages.conftest import start_table
from tests.web.pages.visible import PLACEHOLDER, SNAKE, ZONE

pytestmark = pytest.mark.browser

WAIT_MS = 8000
PHONES = 2
BEFORE_UNDO = 5


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    """The demo table on mock hardware, shared by the module's games."""
    rt = start_table(tmp_path_factory.mktemp("evening"), game=game_names()[0], seats=get_rules(game_names()[0]).min_seats,
                     bots=BotsConfig(0, 0))
    yield rt
    rt.stop()


@pytest.fixture(scope="module")
def url(table: Runtime) -> Iterator[str]:
    with serve(table.app(SSE_HEARTBEAT_S=1.0)) as base:
        yield base


def seat_version(rt: Runtime, seat: int) -> str:
    return str(rt.handle.seat_state(seat)["version"])


def legal(rt: Runtime, seat: int) -> list[dict[str, Any]]:
    prompt = rt.handle.seat_state(seat)["prompt"] or {}
    return [o["action"] for o in prompt.get("options") or ()] if prompt.get("type") == "prompt" else []


def play_one(rt: Runtime, rng: random.Random) -> bool:
    """One move by the game's bot for a seat to act (through the table, as a phone's would be); False at the end."""
    game = rt.handle.public_state()["game"]
    if game is None or game["outcome"] is not None:
        return False
    seats = [s for s in game["to_act"] if s >= 0 and legal(rt, s)]
    assert seats, f"nobody can act: {game['to_act']}"
    seat = rng.choice(seats)
    options = legal(rt, seat)
    action = get_bot(game["name"]).choose(rt.handle.seat_state(seat)["view"], options, rng)
    result = rt.handle.submit(seat, action, "test")
    assert isinstance(result, dict), result
    return True


def shown_choices(page: Any) -> list[str]:
    return sorted(b.get_attribute("data-action") for b in page.query_selector_all("#choices button.choice"))


def follows(page: Any, rt: Runtime, seat: int) -> None:
    """The phone draws the seat's current state: its version, and its choices when it shows the list."""
    version = seat_version(rt, seat)
    page.wait_for_function("(v) => document.body.dataset.version === v", arg=version, timeout=WAIT_MS)
    if page.query_selector("#choices") is not None:
        shown = sorted(json.dumps(json.loads(a), sort_keys=True) for a in shown_choices(page))
        assert shown == sorted(json.dumps(a, sort_keys=True) for a in legal(rt, seat)), f"seat {seat}: a stale prompt"


def clean(text: str, where: str) -> None:
    """Nothing a player reads is an id, a snake_case key, NaN or a placeholder."""
    bad = [m.group() for r in (PLACEHOLDER, SNAKE, ZONE) for m in r.finditer(text)]
    assert "NaN" not in text and not bad, f"{where}: {bad or 'NaN'} in {text[:400]!r}"


def uid_of(rt: Runtime, game: str, kind: str, used: set[str]) -> str:
    for card in rt.loop.cards.all():
        if card.game == game and card.kind == kind and card.uid not in used:
            return card.uid
    raise AssertionError(f"no {kind} card enrolled")


@pytest.mark.parametrize("game", game_names())
def test_phones_follow_a_whole_game(browser: Any, table: Runtime, url: str, game: str) -> None:
    rt = table
    rules = get_rules(game)
    seats = rules.min_seats
    rng = random.Random(11)
    host_call(rt.loop, "enroll_mode", on=False)
    assert host_call(rt.loop, "new_game", game=game, seats=seats, components="digital", replace=True).get("game_id")
    rt.loop.wait_idle()
    tokens = list(rt.loop.session.tokens)
    tv = browser.new_context(locale="en-US", viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{url}/")
    phones, errors = [], []
    for seat, token in enumerate(tokens[:PHONES]):  # every phone refetches at each move: two keep the test lean
        ctx = browser.new_context(locale="ko-KR" if seat % 2 else "en-US", viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        errors.append(csp_errors(page))
        page.goto(f"{url}/seat/{token}")
        phones.append(page)
    for seat, page in enumerate(phones):
        follows(page, rt, seat)

    # a phone that hears nothing live keeps an old prompt: its tap after the table moved on gets the fresh one
    stale = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
    stale.route("**/api/events", lambda route: route.abort())
    for _ in range(BEFORE_UNDO):
        play_one(rt, rng)
    for seat, page in enumerate(phones):
        follows(page, rt, seat)
    actor = next(s for s in range(seats) if legal(rt, s))
    stale.goto(f"{url}/seat/{tokens[actor]}")
    stale.wait_for_selector("#choices button.choice", timeout=WAIT_MS)
    before = rt.handle.health()["loop"]["rejected"]

    # the host's undo: every phone follows at once (the new actor gets its buttons, nobody keeps the undone ones)
    assert "undone" in host_call(rt.loop, "undo")
    rt.loop.wait_idle()
    for seat, page in enumerate(phones):
        follows(page, rt, seat)
        assert page.query_selector("#refusal") is None
    if seat_version(rt, actor) != stale.evaluate("() => document.body.dataset.version"):
        stale.click("#choices button.choice")
        with stale.expect_response("**/api/action") as answer:
            stale.click("#confirm-yes")
        stale.wait_for_selector("#prompt-moved, #sent, #refusal", timeout=WAIT_MS)
        assert stale.query_selector("#refusal") is None, stale.inner_text("#refusal")
        if answer.value.status != 200:  # refused on the old prompt: answered with the prompt that holds now
            assert stale.query_selector("#prompt-moved") is not None
            stale.wait_for_function("(v) => document.body.dataset.version === v", arg=seat_version(rt, actor),
                                    timeout=WAIT_MS)
            assert rt.handle.health()["loop"]["rejected"] == before, "a stale tap was counted as a refusal"
    stale.context.close()

    # a bot takes seat 0 and hands it back: the phone says so, then offers the seat's choices again
    assert not isinstance(host_call(rt.loop, "seat_player", seat=0, player="bot"), Refusal)
    phones[0].wait_for_selector("#bot-plays", timeout=WAIT_MS)
    settle(rt, lambda: not isinstance(host_call(rt.loop, "seat_player", seat=0, player="human"), Refusal))
    rt.loop.wait_idle()
    phones[0].wait_for_selector("#bot-plays", state="detached", timeout=WAIT_MS)
    follows(phones[0], rt, 0)

    # enrollment switched on mid-game holds the table, and the TV and phones say so
    host_call(rt.loop, "enroll_mode", on=True)
    tv.wait_for_selector("#enrolling:not([hidden])", timeout=WAIT_MS)
    phones[0].wait_for_selector("#enrolling", timeout=WAIT_MS)
    clean(phones[0].inner_text("body"), f"{game} phone while enrolling")
    host_call(rt.loop, "enroll_mode", on=False)
    tv.wait_for_selector("#enrolling", state="hidden", timeout=WAIT_MS)

    # the rest of the game with one phone following it live; the TV and the other phone come back at the end
    # (a reload, in the middle of the game and at its end: the page shows the table as it is now)
    phones[-1].reload()
    follows(phones[-1], rt, len(phones) - 1)
    for page in (tv, phones[-1]):
        page.goto("about:blank")
    moves = 0
    while play_one(rt, rng):
        moves += 1
        assert moves < 2000, "the game did not end"
    tv.goto(f"{url}/")
    phones[-1].goto(f"{url}/seat/{tokens[len(phones) - 1]}")
    outcome = rt.handle.public_state()["game"]["outcome"]
    for seat, page in enumerate(phones):
        page.wait_for_selector("#seat-outcome", timeout=WAIT_MS)
        won = page.get_attribute("#seat-outcome", "data-won") == "1"
        assert won == (seat in outcome["winners"]), (game, seat, outcome)
        text = page.inner_text("body")
        clean(text, f"{game} phone {seat} at game over")
        assert page.inner_text("#outcome-text")
    tv.wait_for_selector("#outcome:not([hidden])", timeout=WAIT_MS)
    shot(tv, f"flow-{game}-tv-over-en")
    shot(phones[0], f"flow-{game}-phone-over-en")
    shot(phones[1], f"flow-{game}-phone-over-ko")
    for e in errors:
        assert not e, e
    for page in phones + [tv]:
        page.context.close()


@pytest.mark.parametrize("game", card_games())
def test_enrollment_then_a_physical_game(browser: Any, table: Runtime, url: str, game: str) -> None:
    """Guided enrollment left open ends when the game starts; the first physical read says where and how many,
    and the count moves on the TV, the phone and the reader's LEDs as cards are tapped."""
    rt = table
    rules = get_rules(game)
    seats = rules.min_seats
    host_call(rt.loop, "end_game")
    start = 0x10000000 + 0x1000 * sorted(game_names()).index(game)
    if not any(c.game == game for c in rt.loop.cards.all()):
        enroll_deck(rt, game, seats, start)
    host_call(rt.loop, "guide_start", game=game, seats=seats, mode="check")
    assert rt.loop.state.enrolling
    assert host_call(rt.loop, "new_game", game=game, seats=seats, components="physical", replace=True).get("game_id")
    rt.loop.wait_idle()
    assert not rt.loop.state.enrolling and rt.loop.state.guide is None, "the new game left enrollment running"
    tv = browser.new_context(locale="ko-KR", viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{url}/")
    tv.wait_for_selector("#board *", timeout=WAIT_MS)
    assert tv.is_hidden("#enrolling")
    reading = rt.handle.public_state()["game"]["reading"]
    if not reading:
        return  # this game's first moves read no cards (its reads are checked at the table: tests/table)
    r = reading[0]
    zone = r["zone"]
    seat = int(zone.split(":")[1]) if zone.startswith("seat:") else 0
    phone = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{url}/seat/{rt.loop.session.tokens[seat]}")
    sel = f".reading[data-zone='{zone}']"
    phone.wait_for_selector(sel, timeout=WAIT_MS)
    text = phone.inner_text(sel)
    assert "0" in text and (r["need"] is None or str(r["need"]) in text), text
    clean(phone.inner_text("body"), f"{game} physical phone")
    tv.wait_for_selector(f"#reading [data-zone='{zone}'][data-got='0']", timeout=WAIT_MS)
    clean(tv.inner_text("#reading"), f"{game} physical TV")
    reader = next(rd.name for rd in rt.loop.config.readers if rd.zone == zone)
    uid = uid_of(rt, game, r["kind"], set())
    rt.handle.sim.place(reader, uid)
    rt.handle.sim.remove(reader)
    settle(rt, lambda: rt.handle.public_state()["game"]["reading"][0]["got"] == 1 or
           rt.handle.public_state()["game"]["reading"] != reading)
    now = rt.handle.public_state()["game"]["reading"]
    if now and now[0]["zone"] == zone:
        phone.wait_for_selector(f"{sel}[data-got='1']", timeout=WAIT_MS)
        tv.wait_for_selector(f"#reading [data-zone='{zone}'][data-got='1']", timeout=WAIT_MS)
        if r["need"] and r.get("lights", True):
            lit = [p for p in zone_pixels(rt, zone) if p != (0, 0, 0)]
            assert lit, "the reader's LEDs show no count"
    shot(tv, f"flow-{game}-tv-reading-ko")
    shot(phone, f"flow-{game}-phone-reading-en")
    phone.context.close()
    tv.context.close()
    host_call(rt.loop, "end_game")
