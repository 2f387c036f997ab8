"""A Pi has no clock of its own: NTP may set it years forward or back while the table runs. Host sessions and the
order of terminals' choices go by the monotonic clock and counts, so such a jump changes nothing."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from companion.table.terminals import TerminalBook
from companion.web.auth import SESSION_IDLE_S, HostSessions
from tests.web.conftest import login

YEAR_S = 365 * 24 * 3600.0


@pytest.mark.parametrize("jump_s", [-YEAR_S, -3600.0, 40 * 24 * 3600.0, 3 * YEAR_S])
def test_a_wall_clock_jump_logs_no_host_out(app: Flask, monkeypatch: pytest.MonkeyPatch, jump_s: float) -> None:
    client = app.test_client()
    headers = login(client)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + jump_s)
    assert client.get("/api/host/state").status_code == 200
    assert client.post("/api/host/enroll_mode", json={"on": False}, headers=headers).status_code == 200


def test_sessions_expire_by_the_monotonic_clock() -> None:
    now = [100.0]
    sessions = HostSessions(clock=lambda: now[0])
    sid, _ = sessions.open()
    now[0] += SESSION_IDLE_S - 1
    assert sessions.get(sid) is not None
    now[0] += SESSION_IDLE_S + 1
    assert sessions.get(sid) is None


def test_terminals_are_ordered_by_a_count_of_choices_not_by_their_times() -> None:
    book = TerminalBook.start({"T0": 0, "T1": 1}, {}, 3)
    book = book.heard("T0", now=2_000_000_000.0)
    book = book.heard("T1", now=1_000_000_000.0)  # NTP set the clock back by 30 years in between
    rows = {r["terminal"]: r for r in book.rows()}
    assert rows["T1"]["input_seq"] > rows["T0"]["input_seq"]
    assert rows["T1"]["last_input"] < rows["T0"]["last_input"]  # the times shown are as the clock said
