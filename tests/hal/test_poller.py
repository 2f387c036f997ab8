"""The reader poller: round robin, rate, presence events, per-reader failures with backoff, health."""

from __future__ import annotations

import threading

import pytest

from companion.hal.mfrc522 import Mfrc522, ReaderError
from companion.hal.poller import ReaderPoller, TagArrived, TagDeparted
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock

UID_A = bytes.fromhex("04a1b2c3d4e5f6")
UID_B = bytes.fromhex("11223344")


def readers(n: int) -> tuple[VirtualClock, list[FakeMfrc522], list[tuple[str, Mfrc522]]]:
    clock = VirtualClock()
    chips = [FakeMfrc522(clock=clock) for _ in range(n)]
    drivers = [Mfrc522(chip, sleep=clock.sleep, monotonic=clock.monotonic) for chip in chips]
    for driver in drivers:
        driver.init()
    return clock, chips, [(f"seat:{i}", d) for i, d in enumerate(drivers)]


def test_round_robin_order_and_rate() -> None:
    _, chips, pairs = readers(3)
    poller = ReaderPoller(pairs, rate_hz=20)
    assert poller.interval_s == pytest.approx(1 / 60)
    for i in range(6):
        poller.step(float(i))
    assert [h.polls for h in poller.health(6.0)] == [2, 2, 2]


def test_events_name_the_reader_and_removal_waits_for_n_misses() -> None:
    _, chips, pairs = readers(2)
    poller = ReaderPoller(pairs, rate_hz=10, removal_misses=2)
    chips[1].place(UID_A)
    events = [e for t in range(2) for e in poller.step(float(t))]
    assert events == [TagArrived("seat:1", UID_A)]
    chips[1].remove()
    events = [e for t in range(2, 6) for e in poller.step(float(t))]
    assert events == [TagDeparted("seat:1", UID_A)]


def test_a_failing_reader_backs_off_and_never_stops_the_others() -> None:
    _, chips, pairs = readers(2)
    poller = ReaderPoller(pairs, rate_hz=10, backoff_s=(0.1, 0.8))
    chips[1].place(UID_B)
    chips[0].fail_next = 10**6
    now, events = 0.0, []
    for _ in range(40):
        events += poller.step(now)
        now += 0.05
    dead, alive = poller.health(now)
    assert events == [TagArrived("seat:1", UID_B)]
    assert alive.ok and alive.polls >= 30 and alive.tag == UID_B.hex()
    assert not dead.ok and dead.polls == 0 and dead.last_error.startswith("OSError")
    assert 3 <= dead.errors <= 6, "backoff 0.1, 0.2, 0.4, 0.8, 0.8... over 2 s"
    assert 0 < dead.retry_in_s <= 0.8


def test_a_reader_recovers_is_reprogrammed_and_reads_again() -> None:
    clock, chips, pairs = readers(1)
    poller = ReaderPoller(pairs, rate_hz=10, backoff_s=(0.1, 1.0))
    chips[0].fail_next = 1
    assert poller.step(0.0) == []
    assert poller.step(0.05) == [], "still backing off"
    chips[0].regs[0x2A] = 0  # brown-out lost the timer setup; init() must restore it
    chips[0].place(UID_A)
    assert poller.step(0.2) == [TagArrived("seat:0", UID_A)]
    (health,) = poller.health(0.2)
    assert health.ok and health.errors == 1 and health.consecutive_errors == 0


def test_reader_error_codes_are_reported() -> None:
    class Stuck:
        def scan(self) -> None:
            raise ReaderError("reader_stuck", "no interrupt")

    poller = ReaderPoller([("board", Stuck())], rate_hz=5)
    poller.step(0.0)
    assert poller.health(0.0)[0].last_error == "reader_stuck"


def test_all_readers_in_backoff_polls_nothing() -> None:
    _, chips, pairs = readers(2)
    poller = ReaderPoller(pairs, rate_hz=10, backoff_s=(1.0, 1.0))
    for chip in chips:
        chip.fail_next = 1
    poller.step(0.0)
    poller.step(0.0)
    before = [c.transfers for c in chips]
    assert poller.step(0.5) == []
    assert [c.transfers for c in chips] == before


def test_antenna_switching_keeps_only_the_polled_reader_on() -> None:
    clock, chips, pairs = readers(2)
    seen: list[tuple[bool, bool]] = []
    sleeps: list[float] = []

    def sleep(s: float) -> None:
        sleeps.append(s)
        seen.append((chips[0].antenna_on, chips[1].antenna_on))

    for _, driver in pairs:
        driver.antenna_off()
    poller = ReaderPoller(pairs, rate_hz=10, antenna_switching=True, sleep=sleep)
    chips[0].place(UID_A)
    assert poller.step(0.0) == [TagArrived("seat:0", UID_A)]
    poller.step(0.1)
    assert seen == [(True, False), (False, True)]
    assert sleeps == [0.005, 0.005]
    assert not chips[0].antenna_on and not chips[1].antenna_on


def test_run_loop_emits_and_beats_until_stopped() -> None:
    _, chips, pairs = readers(1)
    chips[0].place(UID_A)
    poller = ReaderPoller(pairs, rate_hz=1000)
    stop = threading.Event()
    events: list[object] = []
    beats: list[int] = []

    def emit(event: object) -> None:
        events.append(event)
        stop.set()

    poller.run(emit, stop, beat=lambda: beats.append(1))
    assert events == [TagArrived("seat:0", UID_A)] and beats


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError):
        ReaderPoller([], rate_hz=10)
    _, _, pairs = readers(1)
    with pytest.raises(ValueError):
        ReaderPoller(pairs, rate_hz=0)
