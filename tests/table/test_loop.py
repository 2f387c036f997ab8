"""The running table on mock hardware with a tiny test game: inputs -> journal -> outputs, refusals, dedupe,
undo, end, history, enrollment, reader faults."""

from __future__ import annotations

import json
import shutil
import sqlite3
import stat
import time
from pathlib import Path
from typing import Callable

import pytest

from companion.games.binding import GREEN, RED, WHITE
from companion.table.runtime import Runtime
from companion.table.refusal import Refusal
from tests.table.helpers import enroll, host_call, hw, live_rows, tap, zone_pixels

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]


def test_a_fresh_table_deals_digitally_and_journals_it(make_table: Make) -> None:
    rt = make_table()
    rows = live_rows(rt)
    assert [r["action"]["type"] for r in rows] == ["deal"] and rows[0]["source"] == "chance"
    assert rt.loop.status == "running"
    assert rt.handle.public_state()["game"]["view"]["phase"] == "vote"


def test_journal_file_is_private_wal_and_full_sync(make_table: Make) -> None:
    rt = make_table()
    assert stat.S_IMODE(rt.db_path.stat().st_mode) == 0o600
    assert rt.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert rt.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_inputs_from_reader_button_and_terminal_become_journaled_actions(make_table: Make) -> None:
    rt = make_table()
    enroll(rt, "04A1B2C3", "ballot", "ja")
    tap(rt, "r0", "04A1B2C3")
    assert zone_pixels(rt, "seat:0") == (WHITE,) * 6  # voted, value hidden
    hw(rt).press(1, "nein")
    rt.loop.wait_idle()
    hub = hw(rt).mock_terminals
    hub.connect("T2")
    rt.loop.wait_idle()
    prompt = hub.last_prompt("T2")
    assert prompt and prompt["type"] == "prompt" and [o["label"] for o in prompt["options"]] == ["vote ja", "vote nein"]
    hub.choose("T2", prompt["ballot"], 0)
    rt.loop.wait_idle()
    rows = live_rows(rt)
    assert [(r["action"], r["source"]) for r in rows[1:4]] == [
        ({"type": "vote", "seat": 0, "vote": "ja"}, "reader:r0"),
        ({"type": "vote", "seat": 1, "vote": "nein"}, "button:1:nein"),
        ({"type": "vote", "seat": 2, "vote": "ja"}, "terminal:T2"),
    ]
    assert rows[4]["action"]["type"] == "draw" and rows[4]["source"] == "chance"
    assert hub.sent["T2"][-1]["type"] in ("ack", "prompt", "idle")
    assert any(m["type"] == "ack" and m["seq"] == 1 for m in hub.sent["T2"])
    assert zone_pixels(rt, "seat:0") == (GREEN,) * 6 and zone_pixels(rt, "seat:1") == (RED,) * 6


def test_every_output_follows_the_commit(make_table: Make) -> None:
    """When the LED frame or the SSE event for an action exists, its journal row is already durable."""
    rt = make_table()
    reader = sqlite3.connect(str(rt.db_path), check_same_thread=False)
    seen: list[int] = []
    strip = hw(rt).mock_strip
    original = strip.show

    def show(frame):  # type: ignore[no-untyped-def]
        seen.append(reader.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        original(frame)

    strip.show = show  # type: ignore[method-assign]
    sub = rt.handle.subscribe(None)
    sub.get(0.1)  # the snapshot
    hw(rt).press(0, "ja")
    rt.loop.wait_idle()
    event = sub.get(1)
    assert event is not None and event.type == "state"
    committed = reader.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert committed == 2 and event.data["game"]["actions"] == 2
    assert rt.renderer.wait_rendered()
    assert seen and seen[-1] == 2


def test_a_rejected_input_flashes_its_zone_and_journals_nothing(make_table: Make) -> None:
    rt = make_table()
    enroll(rt, "04A1B2C3", "tile", "L")
    before = len(live_rows(rt))
    sub, host = rt.handle.subscribe(None), rt.handle.subscribe(None, host=True)
    sub.get(0.1)
    host.get(0.1)
    shown = hw(rt).mock_strip.shown
    tap(rt, "r1", "04A1B2C3")  # a tile in a digital game means nothing
    assert len(live_rows(rt)) == before
    event = sub.get(1)  # everyone hears which zone; the binding's code may say what a card is: the host hears it
    assert event is not None and (event.type, event.data) == ("rejected", {"zone": "seat:1"})
    told = host.get(1)
    assert told is not None and told.id == event.id and (told.type, told.data) == (
        "rejected", {"zone": "seat:1", "code": "unexpected_card", "seat": 1, "message": told.data["message"]})
    assert rt.handle.seat_state(1)["refused"] == {"n": 1, "code": "unexpected_card", "zone": "seat:1",
                                                  "message": told.data["message"]}, "the seat's own channel"
    z = next(z for z in rt.config.leds.zones if z.zone == "seat:1")
    assert hw(rt).mock_strip.wait_for(lambda f: f[z.start] == RED, after=shown, timeout=1) is not None
    hw(rt).press(0, "ja")
    hw(rt).press(0, "nein")  # votes are final: the engine refuses the second
    rt.loop.wait_idle()
    assert [r["action"].get("vote") for r in live_rows(rt)[1:]] == ["ja"]
    assert rt.loop.counters.rejected == 2


def test_unknown_tags_are_reported_not_a_crash(make_table: Make) -> None:
    rt = make_table()
    sub, host = rt.handle.subscribe(None), rt.handle.subscribe(None, host=True)
    sub.get(0.1)
    host.get(0.1)
    tap(rt, "r2", "DEADBEEF")
    event, told = sub.get(1), host.get(1)
    assert event is not None and event.type == "unknown_tag" and event.data == {"zone": "seat:2"}
    assert told is not None and told.type == "unknown_tag" and told.data == {"zone": "seat:2", "uid": "DEADBEEF"}
    assert rt.loop.counters.unknown_tags == 1 and rt.loop.status == "running"


def test_a_resting_tag_is_one_vote_even_over_many_polls(make_table: Make) -> None:
    rt = make_table()
    enroll(rt, "04A1B2C3", "ballot", "nein")
    hw(rt).place("r0", "04A1B2C3")
    time.sleep(0.2)  # ~40 polls
    rt.loop.wait_idle()
    assert rt.loop.counters.inputs == 1 and rt.loop.counters.rejected == 0
    assert len(live_rows(rt)) == 2


def test_duplicate_and_stale_terminal_messages(make_table: Make) -> None:
    rt = make_table()
    hub = hw(rt).mock_terminals
    hub.connect("T0")
    hub.connect("T1")
    rt.loop.wait_idle()
    ballot = hub.last_prompt("T0")["ballot"]  # type: ignore[index]
    seq = hub.choose("T0", ballot, 1)
    hub.choose("T0", ballot, 1, seq=seq)  # the same message again (a retransmission)
    rt.loop.wait_idle()
    assert rt.loop.counters.duplicates == 1 and len(live_rows(rt)) == 2
    hub.choose("T1", "1.999", 0)
    hub.choose("T1", hub.last_prompt("T1")["ballot"], 7)  # type: ignore[index]
    rt.loop.wait_idle()
    codes = [m.get("code") for m in hub.sent["T1"] if m["type"] == "error"]
    assert codes == ["stale_ballot", "bad_choice"] and len(live_rows(rt)) == 2
    hub.connect("T0")  # a rebooted terminal counts from 1 again and gets its open prompt back
    rt.loop.wait_idle()
    assert hub.sent["T0"][-1]["type"] == "idle"


def test_physical_draw_collects_tiles_then_the_engine_judges(make_table: Make) -> None:
    rt = make_table(mode="physical")
    enroll(rt, "04000001", "tile", "L")
    enroll(rt, "04000002", "tile", "F")
    for seat, key in enumerate(("ja", "ja", "nein")):
        hw(rt).press(seat, key)
    rt.loop.wait_idle()
    assert rt.loop.session.rules.view(rt.loop.session.state)["phase"] == "draw"  # type: ignore[union-attr]
    tap(rt, "board", "04000001")
    assert rt.loop.session.pending == ("L",)  # type: ignore[union-attr]
    assert rt.loop.bus.recent()[-1].type == "collected" and rt.loop.bus.recent()[-1].data == {"zone": "board",
                                                                                                "count": 1}
    tap(rt, "board", "04000002")
    rows = live_rows(rt)
    assert rows[-1]["action"] == {"type": "draw", "seat": -1, "tiles": ["L", "F"]}
    assert rows[-1]["source"] == "reader:board"


def test_undo_replays_all_but_the_last_player_action(make_table: Make) -> None:
    rt = make_table()
    for seat, key in enumerate(("ja", "nein", "ja")):
        hw(rt).press(seat, key)
    rt.loop.wait_idle()
    assert [r["action"]["type"] for r in live_rows(rt)] == ["deal", "vote", "vote", "vote", "draw"]
    result = host_call(rt.loop, "undo")
    assert result == {"undone": 2, "actions": 3}
    assert [r["action"]["type"] for r in live_rows(rt)] == ["deal", "vote", "vote"]
    view = rt.loop.session.rules.view(rt.loop.session.state)  # type: ignore[union-attr]
    assert view["voted"] == [True, True, False] and view["phase"] == "vote"
    all_rows = rt.journal.rows(rt.loop.session.game_id)  # type: ignore[union-attr]
    assert sum(r["undone"] for r in all_rows) == 2  # kept as history
    hw(rt).press(2, "nein")
    rt.loop.wait_idle()
    assert live_rows(rt)[3]["action"] == {"type": "vote", "seat": 2, "vote": "nein"}
    host_call(rt.loop, "undo")
    host_call(rt.loop, "undo")
    host_call(rt.loop, "undo")
    assert isinstance(host_call(rt.loop, "undo"), Refusal)


def test_new_game_end_game_and_history(make_table: Make) -> None:
    rt = make_table()
    first = rt.loop.session.game_id  # type: ignore[union-attr]
    for bad in ({"game": "chess"}, {"seats": 9}, {"seats": True}, {"options": {"x": 1}}, {"components": "wood"}):
        result = host_call(rt.loop, "new_game", **{"game": "tiny", "seats": 3, **bad})
        assert isinstance(result, Refusal) and result.code == "bad_setup"
    assert rt.loop.session.game_id == first  # type: ignore[union-attr]
    result = host_call(rt.loop, "new_game", game="tiny", seats=4, components="digital", replace=True)
    assert isinstance(result, dict) and result["game_id"] == first + 1
    assert host_call(rt.loop, "end_game") == {"ended": first + 1}
    assert rt.loop.session is None and rt.loop.status == "idle"
    hw(rt).press(0, "ja")
    rt.loop.wait_idle()
    history = host_call(rt.loop, "host_state")["history"]
    assert [(h["id"], h["end_reason"]) for h in history[:2]] == [(first + 1, "ended_by_host"), (first, "replaced")]


def test_seat_tokens_are_unguessable_and_new_each_game(make_table: Make) -> None:
    rt = make_table()
    tokens = rt.loop.session.tokens  # type: ignore[union-attr]
    assert len(set(tokens)) == 3 and all(len(t) >= 20 for t in tokens)
    assert rt.handle.seat_for_token(tokens[1]) == 1 and rt.handle.seat_for_token("guess") is None
    host_call(rt.loop, "new_game", game="tiny", seats=3, replace=True)
    assert not set(tokens) & set(rt.loop.session.tokens)  # type: ignore[union-attr]
    assert rt.handle.seat_for_token(tokens[1]) is None


def test_enrollment_reports_the_next_tag_at_once_and_pauses_game_input(make_table: Make) -> None:
    rt = make_table()
    assert host_call(rt.loop, "enroll_mode", on=True) == {"enrolling": True}
    sub, public = rt.handle.subscribe(None, host=True), rt.handle.subscribe(None)
    sub.get(0.1)
    sub.get(0.1)
    public.get(0.1)
    public.get(0.1)
    hw(rt).place("r3", "04a1b2c3")
    rt.loop.wait_idle()
    event = sub.get(1)
    assert public.get(0.1) is None, "enrollment is the host's alone"
    assert event is not None and event.type == "enroll_seen"
    assert event.data == {"reader": "r3", "zone": "seat:3", "uid": "04A1B2C3", "known": False}
    result = host_call(rt.loop, "enroll", uid="04A1B2C3", kind="ballot", value="ja", label="Ja (red back)")
    assert result["card"]["label"] == "Ja (red back)"
    bad = host_call(rt.loop, "enroll", uid="04A1B2C3", kind="ballot", value="maybe")
    assert isinstance(bad, Refusal) and bad.code == "bad_card"
    hw(rt).press(0, "ja")  # paused while enrolling
    rt.loop.wait_idle()
    assert len(live_rows(rt)) == 1
    host_call(rt.loop, "enroll_mode", on=False)
    hw(rt).remove("r3")
    tap(rt, "r0", "04A1B2C3")
    assert live_rows(rt)[-1]["action"] == {"type": "vote", "seat": 0, "vote": "ja"}


def test_a_failing_reader_keeps_the_table_running_and_shows_in_health(make_table: Make) -> None:
    rt = make_table()
    enroll(rt, "04A1B2C3", "ballot", "ja")
    hw(rt).fail_reader("r0")
    time.sleep(0.1)
    hw(rt).press(1, "nein")
    tap(rt, "r2", "04A1B2C3")
    readers = {r["name"]: r for r in rt.handle.public_state()["health"]["readers"]}
    assert readers["r0"]["ok"] is False and readers["r0"]["errors"] >= 1
    assert readers["r2"]["ok"] is True
    assert rt.handle.public_state()["health"]["loop"]["reader_faults"] == 1
    assert [r["action"]["seat"] for r in live_rows(rt)[1:]] == [1, 2]
    hw(rt).heal_reader("r0")


def test_a_bug_in_one_input_does_not_stop_the_loop(make_table: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    rt = make_table()
    binding = rt.loop.session.binding  # type: ignore[union-attr]

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("binding bug")

    monkeypatch.setattr(binding, "on_input", broken)
    hw(rt).press(0, "ja")
    rt.loop.wait_idle()
    monkeypatch.undo()
    hw(rt).press(0, "ja")
    rt.loop.wait_idle()
    assert rt.loop.counters.errors == 1 and len(live_rows(rt)) == 2


def test_the_renderer_sleeps_when_nothing_animates(make_table: Make) -> None:
    rt = make_table()
    assert rt.renderer.wait_rendered()
    shown = hw(rt).mock_strip.shown
    time.sleep(0.3)
    assert hw(rt).mock_strip.shown == shown, "a still scene is drawn once, not repainted"
    rt.renderer.flash("seat:1")  # a flash blinks for a moment, then the renderer goes quiet again
    time.sleep(0.7)
    assert hw(rt).mock_strip.shown >= shown + 3
    deadline, quiet = time.monotonic() + 5, False
    while not quiet and time.monotonic() < deadline:
        before = hw(rt).mock_strip.shown
        time.sleep(0.3)
        quiet = hw(rt).mock_strip.shown == before
    assert quiet, "the renderer kept drawing after the flash ended"


def test_a_journal_failure_changes_nothing_and_shows_nothing(make_table: Make,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rt = make_table()
    sub = rt.handle.subscribe(None)
    sub.get(0.1)
    state = rt.loop.session.state  # type: ignore[union-attr]

    def full_disk(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(rt.journal, "append", full_disk)
    result = host_call(rt.loop, "submit", seat=0, action={"type": "vote", "vote": "ja"}, source="test")
    assert isinstance(result, Refusal) and result.code == "journal_error"
    assert rt.loop.session.state is state  # type: ignore[union-attr]
    event = sub.get(0.5)
    assert event is not None and event.type == "rejected" and sub.get(0.1) is None  # no new state shown
    monkeypatch.undo()
    assert isinstance(host_call(rt.loop, "submit", seat=0, action={"type": "vote", "vote": "ja"}, source="test"), dict)


def test_a_smaller_next_game_leaves_no_stale_prompt_on_unused_terminals(make_table: Make) -> None:
    rt = make_table()
    hub = hw(rt).mock_terminals
    hub.connect("T3")
    host_call(rt.loop, "new_game", game="tiny", seats=4, replace=True)
    assert hub.last_prompt("T3")["type"] == "prompt"  # type: ignore[index]
    host_call(rt.loop, "new_game", game="tiny", seats=2, replace=True)
    assert hub.last_prompt("T3") == {"v": 1, "type": "idle", "ballot": None, "info": {}}


def test_undo_never_reshuffles_a_digital_draw(make_table: Make) -> None:
    """Undoing the vote that triggered a draw and voting again draws the same tiles (no reroll by undo)."""
    rt = make_table()
    for seat, key in enumerate(("ja", "nein", "ja")):
        hw(rt).press(seat, key)
    rt.loop.wait_idle()
    first_draw = live_rows(rt)[-1]["action"]
    assert first_draw["type"] == "draw"
    for _ in range(5):
        host_call(rt.loop, "undo")
        assert live_rows(rt)[-1]["action"]["type"] == "vote"
        hw(rt).press(2, "nein")
        rt.loop.wait_idle()
        assert live_rows(rt)[-1]["action"] == first_draw


def test_a_finished_game_is_in_the_database_file_itself_not_only_in_its_log(make_table: Make,
                                                                            tmp_path: Path) -> None:
    rt = make_table()
    session = rt.loop.session
    assert session is not None
    game_id = session.game_id
    while (session := rt.loop.session) is not None and session.game_id == game_id \
            and session.rules.outcome(session.state) is None:
        seat = min(session.rules.to_act(session.state))
        action = session.rules.legal_actions(session.state, seat)[0]
        assert isinstance(host_call(rt.loop, "submit", seat=seat, action=action, source="test"), dict)
    rt.loop.wait_idle()
    played = [r["action"] for r in rt.journal.rows(game_id)]
    copy = tmp_path / "copy.db"
    shutil.copy(rt.db_path, copy)  # by hand, the table running, its -wal left behind
    conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        ended, reason = conn.execute("SELECT ended, end_reason FROM games WHERE id = ?", (game_id,)).fetchone()
        copied = [json.loads(a) for (a,) in conn.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))]
    finally:
        conn.close()
    assert ended is not None and reason == "finished" and copied == played and len(played) > 5
