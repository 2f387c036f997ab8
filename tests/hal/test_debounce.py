"""Presence debounce: a resting tag is one placement; removal only after the absence window."""

from __future__ import annotations

from companion.hal.events import TagPlaced, TagRemoved
from companion.hal.readers import Debouncer


def test_a_resting_tag_is_one_placement() -> None:
    d = Debouncer(removal_s=0.15)
    events = []
    for i in range(50):
        events += d.observe("r0", "04AA", i * 0.02)
    assert events == [TagPlaced("r0", "04AA")]


def test_a_missed_read_inside_the_window_is_not_a_removal() -> None:
    d = Debouncer(removal_s=0.15)
    events = d.observe("r0", "04AA", 0.0)
    events += d.observe("r0", None, 0.02)  # the tag answers only every other REQA: a gap
    events += d.observe("r0", None, 0.10)
    events += d.observe("r0", "04AA", 0.12)
    assert events == [TagPlaced("r0", "04AA")]


def test_removal_is_reported_after_the_window() -> None:
    d = Debouncer(removal_s=0.15)
    d.observe("r0", "04AA", 0.0)
    assert d.observe("r0", None, 0.14) == []
    assert d.observe("r0", None, 0.16) == [TagRemoved("r0", "04AA")]
    assert d.present("r0") is None
    assert d.observe("r0", "04AA", 0.2) == [TagPlaced("r0", "04AA")]


def test_a_swap_reports_removal_then_placement_and_readers_are_independent() -> None:
    d = Debouncer(removal_s=0.15)
    d.observe("r0", "04AA", 0.0)
    d.observe("r1", "04AA", 0.0)
    assert d.observe("r0", "04BB", 0.02) == [TagRemoved("r0", "04AA"), TagPlaced("r0", "04BB")]
    assert d.present("r1") == "04AA"
