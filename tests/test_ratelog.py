"""The rate-limited log: a problem a remote party repeats is logged once per interval, with a count."""

from __future__ import annotations

import logging

import pytest

from companion.ratelog import OVERFLOW, RateLimitedLog, RateLimitFilter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_repeated_problem_is_logged_once_per_interval_with_the_count(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    limited = RateLimitedLog(logging.getLogger("test.ratelog"), interval_s=60, clock=clock)
    with caplog.at_level(logging.WARNING, logger="test.ratelog"):
        assert limited.warning("T1:bad_json", "terminal %s: %s", "T1", "bad_json")
        for _ in range(289_999):
            limited.warning("T1:bad_json", "terminal %s: %s", "T1", "bad_json")
        assert limited.warning("T2:bad_json", "terminal %s: %s", "T2", "bad_json")  # another kind: its own line
        clock.now += 60
        assert limited.warning("T1:bad_json", "terminal %s: %s", "T1", "bad_json")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["terminal T1: bad_json", "terminal T2: bad_json",
                     "terminal T1: bad_json (and 289999 more like this in the last 60 s)"]


def test_distinct_keys_beyond_the_bound_share_one(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    limited = RateLimitedLog(logging.getLogger("test.ratelog2"), clock=clock, max_kinds=8)
    with caplog.at_level(logging.WARNING, logger="test.ratelog2"):
        logged = sum(limited.warning(f"k{i}", "problem %d", i) for i in range(10_000))
    assert logged == 9 and len(caplog.records) == 9  # 8 kinds, then one line for all the others
    assert limited.held(OVERFLOW) == 10_000 - 9


def test_errors_keep_their_traceback(caplog: pytest.LogCaptureFixture) -> None:
    limited = RateLimitedLog(logging.getLogger("test.ratelog3"), clock=Clock())
    with caplog.at_level(logging.ERROR, logger="test.ratelog3"):
        try:
            raise ValueError("boom")
        except ValueError as exc:
            limited.error("bug", "failed", exc_info=exc)
            limited.error("bug", "failed", exc_info=exc)
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is not None


def test_a_librarys_lines_are_limited_by_a_filter(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    logger = logging.getLogger("test.ratelog.lib")
    limiter = RateLimitFilter(clock=clock)
    logger.addFilter(limiter)
    try:
        with caplog.at_level(logging.INFO, logger="test.ratelog.lib"):
            for i in range(1000):
                logger.info("Client disconnected while serving /api/seat/%d", i)
            clock.now += 61
            logger.info("Client disconnected while serving /api/state")
    finally:
        logger.removeFilter(limiter)
    assert [r.getMessage() for r in caplog.records] == [
        "Client disconnected while serving /api/seat/0",
        "Client disconnected while serving /api/state (and 999 more like this in the last 60 s)"]
