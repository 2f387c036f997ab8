"""Poller speed: cycles scheduled start to start, one sleep per empty poll, no thread per button."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import ButtonConfig, ReaderConfig
from companion.hal.buttons import ButtonBank
from companion.hal.events import ButtonPressed, TagPlaced
from companion.hal.mfrc522 import Mfrc522, ScanStatus
from companion.hal.pi import Mfrc522Reader
from companion.hal.readers import CONFIRM_GAP_S, ReaderPoller, next_wait
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock

UID4 = bytes.fromhex("deadbeef")


class CountingClock(VirtualClock):
    """A virtual clock that remembers every sleep the driver asks for (the fake bus's own time is not one)."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeps: list[float] = []

    def driver_sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.sleep(seconds)


def driver_on(clock: CountingClock) -> tuple[FakeMfrc522, Mfrc522]:
    chip = FakeMfrc522(clock=clock)
    driver = Mfrc522(chip, sleep=clock.driver_sleep, monotonic=clock.monotonic)
    driver.init()
    return chip, driver


def test_an_empty_poll_after_an_empty_poll_sleeps_once_until_the_chip_timer() -> None:
    clock = CountingClock()
    chip, driver = driver_on(clock)
    driver.scan()
    clock.sleeps.clear()
    start = clock.now
    assert driver.scan().status is ScanStatus.EMPTY
    assert len(clock.sleeps) == 1
    assert chip.regs[0x04] & 0x01, "ended on the timer interrupt"
    # 1.525 ms of timer after an 85 µs WUPA, plus the bus: never the 50 ms guard
    assert 0.0016 < clock.now - start < 0.0025


def test_a_tag_placed_after_empty_polls_is_read_on_the_next_poll_and_resting_reads_look_early() -> None:
    clock = CountingClock()
    chip, driver = driver_on(clock)
    for _ in range(3):
        driver.scan()
    chip.place(UID4)
    first = driver.scan()
    assert first.status is ScanStatus.TAG and first.uid == UID4
    clock.sleeps.clear()
    again = driver.scan()
    assert again.uid == UID4
    # WUPA, anticollision, select, HLTA: one sleep each, to the end of its answer; none sits out the timer,
    # so the time slept stays near the 2.41 ms on air (hardware/README.md, Measured facts), far from 4 x 1.5 ms
    assert len(clock.sleeps) == 4
    assert sum(clock.sleeps) < 0.003


@pytest.mark.parametrize("started, now, confirming, expected", [
    (0.0, 0.012, False, 0.008),  # the 12 ms the readers took are part of the 20 ms interval
    (0.0, 0.031, False, 0.0),  # an overrun cycle is followed at once, never a full interval later
    (0.0, 0.001, True, CONFIRM_GAP_S),  # an unconfirmed UID is re-read soon after the cycle
    (0.0, 0.018, True, 0.002),  # ...but never later than the schedule
])
def test_cycles_are_scheduled_start_to_start(started: float, now: float, confirming: bool, expected: float) -> None:
    assert next_wait(started, now, 0.02, confirming) == pytest.approx(expected)


def test_a_slow_cycle_does_not_add_the_interval_on_top() -> None:
    """Readers taking 15 ms of a 20 ms interval still give 50 cycles a second, not 29."""

    class SlowReader:
        name = "slow"

        def poll(self) -> None:
            time.sleep(0.015)

        def version(self) -> None:
            return None

        def close(self) -> None:
            pass

    poller = ReaderPoller([SlowReader()], lambda e: None, interval_s=0.02)  # type: ignore[list-item]
    poller.start()
    try:
        poller.wait_cycles(1)
        start, before = time.monotonic(), poller._cycles  # noqa: SLF001
        time.sleep(1.0)
        rate = (poller._cycles - before) / (time.monotonic() - start)  # noqa: SLF001
    finally:
        poller.stop()
    assert rate > 34, f"{rate:.1f} cycles/s: the interval was added after the cycle (that gives 29)"


def test_fake_chip_readers_place_tags_through_the_poller_in_real_time() -> None:
    class Wall:
        @property
        def now(self) -> float:
            return time.monotonic()

        def sleep(self, seconds: float) -> None:
            time.sleep(seconds)

    chips = [FakeMfrc522(clock=Wall(), transfer_s=0.0) for _ in range(3)]  # type: ignore[arg-type]
    readers = [Mfrc522Reader(ReaderConfig(f"r{i}", f"seat:{i}", 1, 0), spi_opener=lambda b, d, c=chip: c)
               for i, chip in enumerate(chips)]
    placed = threading.Event()
    events: list[Any] = []

    def sink(event: Any) -> None:
        events.append(event)
        placed.set()

    poller = ReaderPoller(readers, sink, interval_s=0.02)
    poller.start()
    try:
        chips[1].place(UID4)
        assert placed.wait(5)
    finally:
        poller.stop()
    assert events[0] == TagPlaced("r1", "DEADBEEF")


def test_buttons_start_no_thread_of_their_own_and_still_report_presses() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    specs = [ButtonConfig(pin, seat=pin // 2, key="ja" if pin % 2 else "nein") for pin in range(4, 24)]
    presses: list[Any] = []
    bank = ButtonBank(specs, pin_factory=factory, bounce_s=None)
    before = threading.active_count()
    bank.start(presses.append)
    try:
        assert threading.active_count() == before, "a thread per button wakes every 100 ms on the Pi"
        factory.pin(7).drive_low()
        factory.pin(7).drive_high()
        assert presses == [ButtonPressed(3, "ja")]
    finally:
        bank.close()
        factory.reset()
