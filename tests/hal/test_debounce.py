"""Presence debounce: a new UID counts only once read on `confirm_polls` consecutive polls (a one-poll ghost is
nothing), a resting tag is one placement, removal only after the absence window."""

from __future__ import annotations

import threading
from typing import Any

from companion.hal.events import TagPlaced, TagRemoved, TagsCrowded
from companion.hal.mock import MockReader
from companion.hal.readers import Debouncer, ReaderPoller


def feed(d: Debouncer, reads: list[str | None], reader: str = "r0", step: float = 0.02) -> list[Any]:
    """Every event from a run of poll results, one poll per `step` seconds."""
    events: list[Any] = []
    for i, uid in enumerate(reads):
        events += d.observe(reader, uid, i * step)
    return events


def test_a_resting_tag_is_one_placement() -> None:
    d = Debouncer(removal_s=0.15)
    assert feed(d, ["04AA"] * 50) == [TagPlaced("r0", "04AA")]


def test_a_one_poll_ghost_is_nothing_and_two_consecutive_reads_are_a_placement() -> None:
    d = Debouncer(removal_s=0.15)
    assert d.observe("r0", "04AA", 0.0) == []  # read once: not yet
    assert d.present("r0") is None
    assert d.observe("r0", None, 0.005) == []  # the re-poll misses: it was a ghost
    assert d.observe("r0", "04AA", 0.02) == []  # a fresh run of reads starts from one
    assert d.observe("r0", "04AA", 0.025) == [TagPlaced("r0", "04AA")]
    assert d.present("r0") == "04AA"


def test_alternating_uids_never_confirm() -> None:
    d = Debouncer(removal_s=0.15)
    assert feed(d, ["04AA", "04BB"] * 20) == []
    assert d.present("r0") is None and d.confirming()


def test_ghosts_of_another_card_beside_a_resting_one_change_nothing() -> None:
    d = Debouncer(removal_s=0.15)
    assert feed(d, ["04AA", "04AA", "04BB", "04AA", "04BB", None, "04AA", "04BB", "04AA"]) == [TagPlaced("r0", "04AA")]
    assert d.present("r0") == "04AA"


def test_confirm_polls_three_needs_three_reads_in_a_row() -> None:
    d = Debouncer(removal_s=0.15, confirm_polls=3)
    assert feed(d, ["04AA", "04AA", None, "04AA", "04AA"]) == []
    assert d.observe("r0", "04AA", 1.0) == [TagPlaced("r0", "04AA")]


def test_confirm_polls_one_places_on_the_first_read_as_before() -> None:
    d = Debouncer(removal_s=0.15, confirm_polls=1)
    assert d.observe("r0", "04AA", 0.0) == [TagPlaced("r0", "04AA")]
    assert d.observe("r0", "04BB", 0.02) == [TagRemoved("r0", "04AA"), TagPlaced("r0", "04BB")]


def test_a_missed_read_inside_the_window_is_not_a_removal() -> None:
    d = Debouncer(removal_s=0.15)
    # the tag answers only every other REQA: a gap
    assert feed(d, ["04AA", "04AA", None, None, None, "04AA", None, "04AA"]) == [TagPlaced("r0", "04AA")]


def test_removal_is_reported_after_the_window_and_three_clean_misses() -> None:
    d = Debouncer(removal_s=0.15)
    feed(d, ["04AA", "04AA"])
    assert d.observe("r0", None, 0.16) == []  # past the window, but one miss: one RF glitch is not a removal
    assert d.observe("r0", None, 0.17) == []
    assert d.observe("r0", None, 0.18) == [TagRemoved("r0", "04AA")]
    assert d.present("r0") is None
    assert d.observe("r0", "04AA", 0.2) == []
    assert d.observe("r0", "04AA", 0.22) == [TagPlaced("r0", "04AA")]


def test_a_swap_reports_removal_then_placement_and_readers_are_independent() -> None:
    d = Debouncer(removal_s=0.15)
    feed(d, ["04AA", "04AA"])
    feed(d, ["04AA", "04AA"], reader="r1")
    assert d.observe("r0", "04BB", 0.04) == []
    assert d.observe("r0", "04BB", 0.06) == [TagRemoved("r0", "04AA"), TagPlaced("r0", "04BB")]
    assert d.present("r1") == "04AA"


def test_an_unconfirmed_other_card_does_not_hold_off_the_removal() -> None:
    d = Debouncer(removal_s=0.15)
    feed(d, ["04AA", "04AA"])
    assert d.observe("r0", "04BB", 0.1) == []
    assert d.observe("r0", "04CC", 0.15) == []
    # 04AA unread on three polls and for longer than the window
    assert d.observe("r0", "04BB", 0.2) == [TagRemoved("r0", "04AA")]


def test_a_failed_poll_breaks_the_run_of_reads() -> None:
    reader = MockReader("r0")
    script: list[Any] = ["04AA", RuntimeError("SPI"), "04AA", "04AA"]

    def poll() -> Any:
        item = script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    reader.poll = poll  # type: ignore[method-assign]
    events: list[Any] = []
    now = [0.0]
    poller = ReaderPoller([reader], events.append, clock=lambda: now[0])
    for _ in range(3):
        now[0] += 10.0  # past any backoff
        poller.poll_once()
    assert not any(isinstance(e, TagPlaced) for e in events), "read, fault, read: not two in a row"
    now[0] += 10.0
    poller.poll_once()
    assert [e for e in events if isinstance(e, TagPlaced)] == [TagPlaced("r0", "04AA")]


def test_a_reader_holding_an_unconfirmed_uid_is_polled_again_without_waiting_the_interval() -> None:
    reader = MockReader("r0")
    placed = threading.Event()
    poller = ReaderPoller([reader], lambda e: placed.set() if isinstance(e, TagPlaced) else None,
                          interval_s=60.0)  # an interval no test could wait out
    poller.start()
    try:
        reader.uid = "04AA"
        poller.wake()  # one poll now reads it once; only the short re-poll can confirm it
        assert placed.wait(10), "the confirming poll came only after the full interval"
    finally:
        poller.stop()


def test_a_crowded_field_is_reported_once_after_confirm_polls_and_again_after_it_cleared() -> None:
    d = Debouncer(removal_s=0.15)
    feed(d, ["04AA", "04AA"])
    assert d.observe("r0", "04AA", 0.1, crowded=True) == []  # one poll: could be noise
    assert d.observe("r0", "04AA", 0.12, crowded=True) == [TagsCrowded("r0")]
    assert d.observe("r0", "04AA", 0.14, crowded=True) == []
    assert d.observe("r0", "04AA", 0.16) == []
    assert d.observe("r0", "04AA", 0.18, crowded=True) == []
    assert d.observe("r0", "04AA", 0.2, crowded=True) == [TagsCrowded("r0")]
    assert d.present("r0") == "04AA", "the card already there stays placed"
