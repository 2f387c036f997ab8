"""Advisory turn timers: off by default, set per game and phase by the host, shown on the table page and the
timed seats' LEDs; at zero the seats flash and the host is told, and nothing is played; the host waits,
extends or hands the seats to a bot; the pause button stops every timer."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.games.binding import RED
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import host_call, hw, live_rows, settle

SH = "secret_hitler"


@pytest.fixture()
def table(bot_table: Any) -> Any:
    """5-seat tables whose bots play at once."""
    return lambda **kwargs: bot_table(**{"seats": 5, "seed": 4, **kwargs})


def timer(rt: Runtime) -> dict[str, Any] | None:
    return rt.handle.public_state()["game"]["timer"]


def phase(rt: Runtime) -> str:
    return rt.handle.public_state()["game"]["view"]["phase"]


def test_timers_are_off_by_default(table: Any) -> None:
    rt = table()
    assert timer(rt) is None and rt.handle.public_state()["game"]["to_act"]
    assert rt.handle.host_state()["timers"]["settings"] == {}


@pytest.mark.parametrize(("args", "code"), [
    ({"phase": "nominate", "seconds": 0}, "bad_timer"),
    ({"phase": "nominate", "seconds": -30}, "bad_timer"),
    ({"phase": "nominate", "seconds": 3601}, "bad_timer"),
    ({"phase": "nominate", "seconds": "30"}, "bad_timer"),
    ({"phase": "nominate", "seconds": True}, "bad_timer"),
    ({"phase": "nominate", "seconds": 2.5}, "bad_timer"),
    ({"phase": "nominate"}, "bad_timer"),
    ({"phase": "siesta", "seconds": 30}, "unknown_phase"),
    ({"phase": "nominate", "seconds": 30, "game": "chess"}, "bad_setup"),
])
def test_bad_timers_are_refused_and_change_nothing(table: Any, args: dict[str, Any], code: str) -> None:
    rt = table()
    refused = host_call(rt.loop, "set_timer", **args)
    assert isinstance(refused, Refusal) and refused.code == code, refused
    assert rt.journal.timer_settings() == {} and rt.loop.state.timers.settings == {}
    assert timer(rt) is None


def test_a_timer_runs_for_the_seats_to_act_and_never_plays_at_zero(table: Any) -> None:
    rt = table()
    assert phase(rt) == "nominate"
    president = rt.handle.public_state()["game"]["to_act"][0]
    assert host_call(rt.loop, "set_timer", phase="nominate", seconds=30) == {"game": SH, "timers": {"nominate": 30}}
    assert timer(rt) is None  # a new setting applies from the next turn on
    assert host_call(rt.loop, "set_timer", phase="vote", seconds=1) == {"game": SH,
                                                                       "timers": {"nominate": 30, "vote": 1}}
    nominee = (president + 1) % 5
    assert isinstance(rt.handle.submit(president, {"type": "nominate", "seat": president, "target": nominee},
                                       f"seat_page:{president}"), dict)
    running = timer(rt)
    assert running is not None and running["phase"] == "vote" and running["seats"] == [0, 1, 2, 3, 4]
    assert seat_pixels(rt, 0, at=0.0) == seat_pixels(rt, 0, at=0.25) != ((0, 0, 0),) * 6  # time left, steady
    assert 0 < running["remaining_ms"] <= 1000 and running["seconds"] == 1 and not running["expired"]
    sub = rt.handle.subscribe(None)
    assert isinstance(rt.handle.submit(2, {"type": "vote", "seat": 2, "vote": "ja"}, "seat_page:2"), dict)
    assert timer(rt)["seats"] == [0, 1, 3, 4]  # the seat that voted leaves the timer
    rows = live_rows(rt)
    settle(rt, lambda: (timer(rt) or {}).get("expired", False))
    # at zero: the host is told, the seats flash red; nothing was played for anybody
    assert live_rows(rt) == rows and phase(rt) == "vote"
    assert rt.handle.public_state()["game"]["to_act"] == [0, 1, 3, 4]
    events = []
    while (event := sub.get(0.5)) is not None:
        events.append(event)
    sub.close()
    expired = [e for e in events if e.type == "timer_expired"]
    assert expired and expired[0].data == {"seats": [0, 1, 3, 4], "phase": "vote"}
    assert seat_pixels(rt, 0, at=0.0) == (RED,) * 6 and seat_pixels(rt, 0, at=0.25) == ((0, 0, 0),) * 6  # flashing
    assert seat_pixels(rt, 2, at=0.0) == seat_pixels(rt, 2, at=0.25)  # the seat that voted does not


def seat_pixels(rt: Runtime, seat: int, at: float) -> tuple[tuple[int, int, int], ...]:
    """A seat zone's pixels as the renderer draws them at the moment `at` (blinking shows at 0.0, not at 0.25)."""
    assert rt.renderer.wait_rendered()
    zone = next(z for z in rt.config.leds.zones if z.zone == f"seat:{seat}")
    frame, _ = rt.renderer.frame_at(at)
    return tuple(frame[zone.start:zone.start + zone.count])


def test_the_host_waits_extends_or_hands_the_seats_to_a_bot(table: Any) -> None:
    rt = table()
    refused = host_call(rt.loop, "timer_choice", choice="wait")
    assert isinstance(refused, Refusal) and refused.code == "no_timer"
    bad = host_call(rt.loop, "timer_choice", choice="panic")
    assert isinstance(bad, Refusal) and bad.code == "bad_choice"
    host_call(rt.loop, "set_timer", phase="nominate", seconds=1)
    host_call(rt.loop, "end_game")
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True)
    president = rt.handle.public_state()["game"]["to_act"]
    settle(rt, lambda: (timer(rt) or {}).get("expired", False))
    assert host_call(rt.loop, "timer_choice", choice="wait") == {"choice": "wait"}
    assert timer(rt)["waited"] and timer(rt)["expired"]
    assert host_call(rt.loop, "timer_choice", choice="extend", seconds=20) == {"choice": "extend", "seconds": 20}
    running = timer(rt)
    assert not running["expired"] and 19_000 < running["remaining_ms"] <= 20_000
    refused = host_call(rt.loop, "timer_choice", choice="extend", seconds=0)
    assert isinstance(refused, Refusal) and refused.code == "bad_timer"
    refused = host_call(rt.loop, "timer_choice", choice="bot")  # not before it runs out again
    assert isinstance(refused, Refusal) and refused.code == "no_timer" and rt.handle.public_state()["game"]["bots"] == []
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True)
    president = rt.handle.public_state()["game"]["to_act"]
    settle(rt, lambda: (timer(rt) or {}).get("expired", False))
    rows = len(live_rows(rt))
    assert host_call(rt.loop, "timer_choice", choice="bot") == {"choice": "bot", "bots": president}
    settle(rt, lambda: len(live_rows(rt)) > rows)  # the bot nominated
    assert live_rows(rt)[rows]["source"].startswith("bot:") and phase(rt) == "vote"


def test_the_pause_button_stops_every_timer(table: Any) -> None:
    rt = table()
    host_call(rt.loop, "set_timer", phase="nominate", seconds=2)
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True)
    assert host_call(rt.loop, "pause_timers", on=True) == {"paused": True}
    left = timer(rt)["remaining_ms"]
    assert timer(rt)["paused"]
    time.sleep(1.2)
    rt.loop.wait_idle()
    assert timer(rt)["remaining_ms"] == left and not timer(rt)["expired"]
    refused = host_call(rt.loop, "pause_timers", on="yes")
    assert isinstance(refused, Refusal) and refused.code == "bad_field"
    assert host_call(rt.loop, "pause_timers", on=False) == {"paused": False}
    settle(rt, lambda: timer(rt)["expired"])


def test_settings_outlive_a_restart(table: Any, tmp_path: Path) -> None:
    data = tmp_path / "kept"
    rt = table(data=data)
    host_call(rt.loop, "set_timer", phase="vote", seconds=45)
    host_call(rt.loop, "set_timer", phase="nominate", seconds=60)
    host_call(rt.loop, "set_timer", phase="nominate", seconds=None)
    rt.stop()
    again = table(data=data)
    assert again.handle.host_state()["timers"]["settings"] == {"vote": 45}


def test_bots_get_no_timer(table: Any) -> None:
    rt = table()
    host_call(rt.loop, "set_timer", phase="vote", seconds=30)
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True, bots=[0, 1, 2, 3])
    settle(rt, lambda: phase(rt) == "vote" or 4 in rt.handle.public_state()["game"]["to_act"])
    if phase(rt) != "vote":  # seat 4 (a person) nominates
        president = 4
        rt.handle.submit(president, {"type": "nominate", "seat": 4, "target": 0}, "seat_page:4")
    settle(rt, lambda: phase(rt) == "vote" and rt.handle.public_state()["game"]["to_act"] == [4])
    assert timer(rt)["seats"] == [4]
    assert hw(rt).mock_strip.last() is not None
