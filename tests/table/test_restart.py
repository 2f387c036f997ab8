"""Restart: the unfinished game is replayed, zones are scanned (expected vs seen) until the host resumes,
and nothing physical is re-fired."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.binding import ORANGE
from companion.table.runtime import Runtime
from companion.table.refusal import Refusal
from tests.table.conftest import table_config
from tests.table.helpers import enroll, host_call, hw, live_rows

pytestmark = pytest.mark.usefixtures("tiny_game")


def start(data: Path, seed: int = 0) -> Runtime:
    return Runtime(table_config(data), rng=random.Random(seed)).start()


def test_restart_replays_scans_and_waits_for_the_host(tmp_path: Path) -> None:
    rt = start(tmp_path)
    try:
        enroll(rt, "04A1B2C3", "ballot", "ja")
        hw(rt).press(1, "nein")
        hw(rt).place("r0", "04A1B2C3")  # seat 0 votes with a ballot card and leaves it there
        rt.loop.wait_idle()
        before = rt.loop.session
        assert before is not None
        view_before = before.rules.view(before.state, None)
        tokens = before.tokens
    finally:
        rt.stop()

    # the ballot still rests on r0 when the table comes back: the boot scan must see it, not re-fire it
    rt = Runtime(table_config(tmp_path), rng=random.Random(5))
    hw(rt).reader("r0").uid = "04A1B2C3"
    rt.start()
    try:
        session = rt.loop.session
        assert session is not None and session.game_id == before.game_id
        assert session.rules.view(session.state, None) == view_before
        assert session.state == before.state and session.tokens == tokens
        assert rt.loop.status == "resume_check"
        assert rt.loop.counters.inputs == 0  # the resting ballot was not fed in again
        assert len(live_rows(rt)) == 3
        scan = host_call(rt.loop, "host_state")["expected_vs_seen"]
        assert scan == [{"zone": "seat:0", "expected": [], "seen": [["ballot", "ja"]]}]
        public = rt.handle.public_state()
        assert public["table"]["mismatched_zones"] == ["seat:0"]
        assert hw(rt).mock_strip.wait_for(lambda f: f[0] == ORANGE, timeout=2) is not None  # seat 0 blinks
        assert "ballot" not in str(public["table"])  # which card rests there is for the host only
        hw(rt).press(2, "ja")  # paused: refused, nothing journaled
        rt.loop.wait_idle()
        assert len(live_rows(rt)) == 3
        hw(rt).remove("r0")
        rt.loop.wait_idle()
        assert host_call(rt.loop, "host_state")["expected_vs_seen"] == []
        assert host_call(rt.loop, "resume") == {"status": "running"}
        assert isinstance(host_call(rt.loop, "resume"), Refusal)
        hw(rt).press(2, "ja")
        rt.loop.wait_idle()
        assert [r["action"]["type"] for r in live_rows(rt)] == ["deal", "vote", "vote", "vote", "draw"]
    finally:
        rt.stop()


def test_a_record_that_no_longer_replays_is_closed_not_fatal(tmp_path: Path) -> None:
    rt = start(tmp_path)
    game_id = rt.loop.session.game_id  # type: ignore[union-attr]
    rt.journal.append(game_id, [({"type": "vote", "seat": 0, "vote": "maybe"}, "corrupt")])
    rt.stop()
    rt = start(tmp_path)
    try:
        assert rt.loop.session is not None and rt.loop.session.game_id == game_id + 1
        history = host_call(rt.loop, "host_state")["history"]
        assert history[1]["end_reason"] == "unreplayable"
    finally:
        rt.stop()
