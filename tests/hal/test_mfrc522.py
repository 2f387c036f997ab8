"""The MFRC522 driver against the register-level fake chip: SPI budget, UIDs, presence, health."""

from __future__ import annotations

import pytest

from companion.hal.interfaces import ReaderError
from companion.hal.mfrc522 import Mfrc522, ScanStatus, bcc, classify_version, crc_a
from companion.hal.readers import Debouncer
from companion.hal.testing.fake_mfrc522 import (
    DeadBus, FakeIrqLine, FakeMfrc522, FakeTag, TagState, VirtualClock,
)

UID4 = bytes.fromhex("deadbeef")
UID7 = bytes.fromhex("04a1b2c3d4e5f6")


def make(version: int = 0x92, irq: bool = False) -> tuple[FakeMfrc522, Mfrc522]:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock, version=version)
    driver = Mfrc522(chip, irq=FakeIrqLine(chip) if irq else None, sleep=clock.sleep, monotonic=clock.monotonic)
    driver.init()
    return chip, driver


def transfers_of(chip: FakeMfrc522, driver: Mfrc522) -> tuple[object, int]:
    before = chip.transfers
    scan = driver.scan()
    return scan, chip.transfers - before


def test_crc_a_matches_the_standard_examples() -> None:
    # ISO 14443-3 annex: HLTA is 50 00 57 CD; REQ-style check on the empty frame is the preset
    assert crc_a([0x50, 0x00]) == bytes((0x57, 0xCD))
    assert crc_a([]) == bytes((0x63, 0x63))
    assert bcc([0x88, 0x04, 0xA1, 0xB2]) == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2


@pytest.mark.parametrize("irq", [False, True])
def test_empty_poll_stays_within_25_transfers_and_ends_on_the_timer(irq: bool) -> None:
    chip, driver = make(irq=irq)
    counts = []
    for _ in range(5):
        scan, n = transfers_of(chip, driver)
        assert scan.status is ScanStatus.EMPTY
        counts.append(n)
    assert max(counts) <= 25
    assert chip.regs[0x04] & 0x01, "the wait ended on the chip's timer interrupt"


def test_empty_poll_count_does_not_grow_with_a_slow_bus() -> None:
    """The wait is bounded by the chip's timer, not a loop counter: slower transfers mean fewer status reads."""
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock, transfer_s=200e-6)
    driver = Mfrc522(chip, sleep=clock.sleep, monotonic=clock.monotonic)
    driver.init()
    _, slow = transfers_of(chip, driver)
    fast_chip, fast_driver = make()
    _, fast = transfers_of(fast_chip, fast_driver)
    assert slow <= fast <= 25


@pytest.mark.parametrize("uid, budget", [(UID4, 50), (UID7, 110)])
def test_reads_4_and_7_byte_uids_within_budget(uid: bytes, budget: int) -> None:
    chip, driver = make()
    chip.place(uid)
    scan, n = transfers_of(chip, driver)
    assert scan.status is ScanStatus.TAG and scan.uid == uid
    assert n <= budget
    assert driver.poll() == uid


def test_distinct_7_byte_uids_sharing_cascade_level_1_stay_distinct() -> None:
    chip, driver = make()
    seen = set()
    for last in range(8):
        uid = bytes.fromhex("04a1b2c3d4e5") + bytes((last,))
        chip.remove()
        chip.place(uid)
        assert driver.poll() == uid
        seen.add(driver.poll())
    assert len(seen) == 8


def test_a_resting_tag_answers_every_wupa_poll_but_every_other_reqa_poll() -> None:
    chip, driver = make()
    (tag,) = chip.place(UID7)
    assert [driver.poll() for _ in range(6)] == [UID7] * 6
    assert tag.state is TagState.HALT


def test_a_resting_tag_polled_with_reqa_answers_only_every_other_time() -> None:
    """The ISO 14443-3 state machine: after REQA + select the tag is ACTIVE; the next REQA sends it to IDLE."""
    chip, driver = make()
    chip.place(UID7)
    answers = []
    for _ in range(6):
        atqa = driver.request(wake=False)
        if atqa is not None:
            assert driver._read_uid().uid == UID7  # noqa: SLF001 - the naive library's read, without HLTA
        answers.append(atqa is not None)
    assert answers == [True, False, True, False, True, False]


class Presence:
    """The driver's polls at 50 ms intervals through the shared Debouncer (removal window 150 ms = 3 misses;
    a placement on the first read, so these tests follow removal alone: confirmation is in test_debounce.py)."""

    def __init__(self, driver: Mfrc522) -> None:
        self.driver = driver
        self.debounce = Debouncer(removal_s=0.15, confirm_polls=1)
        self.now = 0.0

    def poll(self) -> list[tuple[str, str]]:
        self.now += 0.05
        uid = self.driver.poll()
        events = self.debounce.observe("r", uid.hex().upper() if uid else None, self.now)
        return [(type(e).__name__, e.uid) for e in events]


def test_removal_is_reported_only_after_several_clean_misses() -> None:
    chip, driver = make()
    presence = Presence(driver)
    chip.place(UID4)
    assert presence.poll() == [("TagPlaced", "DEADBEEF")]
    assert presence.poll() == []
    chip.remove()
    assert presence.poll() == []
    assert presence.poll() == []
    assert presence.poll() == [("TagRemoved", "DEADBEEF")]
    assert presence.poll() == []


def test_a_brief_dropout_is_not_a_removal() -> None:
    chip, driver = make()
    presence = Presence(driver)
    (tag,) = chip.place(UID4)
    presence.poll()
    chip.remove(tag)
    presence.poll()
    presence.poll()
    chip.place(tag)
    assert presence.poll() == []
    assert presence.debounce.present("r") == "DEADBEEF"


def test_swapping_cards_reports_removal_then_placement() -> None:
    chip, driver = make()
    presence = Presence(driver)
    chip.place(UID4)
    presence.poll()
    chip.remove()
    chip.place(UID7)
    assert presence.poll() == [("TagRemoved", "DEADBEEF"), ("TagPlaced", "04A1B2C3D4E5F6")]


UID10 = bytes.fromhex("0411223344556677889a")


@pytest.mark.parametrize("uid", [UID4, UID7, UID10], ids=["4-byte", "7-byte", "10-byte"])
def test_every_uid_size_is_read_over_its_cascade_levels(uid: bytes) -> None:
    chip, driver = make()
    (tag,) = chip.place(uid)
    assert [driver.poll() for _ in range(3)] == [uid] * 3
    assert tag.state is TagState.HALT


def test_10_byte_uids_sharing_two_cascade_levels_stay_distinct() -> None:
    chip, driver = make()
    for last in range(4):
        uid = UID10[:9] + bytes((last,))
        chip.remove()
        chip.place(uid)
        assert driver.poll() == uid


@pytest.mark.parametrize("uids", [
    (bytes.fromhex("04a1b2c3d4e5f7"), bytes.fromhex("04ffb2c3d4e5f7")),  # collide at cascade level 1
    (bytes.fromhex("04a1b2c3d4e5f7"), bytes.fromhex("04a1b2c3d4e5f6")),  # only in the last bit of level 2
    (UID4, UID7),  # even the ATQAs differ
    (UID10, UID10[:9] + b"\x00", UID4),  # three tags
], ids=["level-1", "last-bit", "4-and-7", "three"])
def test_two_tags_on_one_reader_are_resolved_to_one_and_the_scan_says_crowded(uids: tuple[bytes, ...]) -> None:
    chip, driver = make()
    chip.place(*uids)
    scan = driver.scan()
    assert scan.status is ScanStatus.TAG and scan.crowded and scan.uid in uids
    for wanted in uids:  # the loop follows the card read before at each collision: it stays the one read
        for _ in range(2):
            again = driver.scan(prefer=wanted)
            assert again.status is ScanStatus.TAG and again.crowded and again.uid == wanted
    chip.remove()
    chip.place(uids[0])
    alone = driver.scan(prefer=uids[1])
    assert alone.uid == uids[0] and not alone.crowded


def test_a_parity_error_means_something_is_present_and_the_next_poll_reads_it() -> None:
    chip, driver = make()
    chip.place(UID4)
    chip.corrupt_next = 1
    scan = driver.scan()
    assert scan.status is ScanStatus.UNREADABLE
    assert driver.scan().uid == UID4, "the tag was halted after the error, so WUPA wakes it at once"


@pytest.mark.parametrize("uid", [UID4, UID7, UID10])
def test_a_sak_with_a_bad_crc_is_unreadable_not_a_uid(uid: bytes) -> None:
    chip, driver = make()
    chip.place(uid)
    chip.crc_errors_next = 1
    scan = driver.scan()
    assert scan.status is ScanStatus.UNREADABLE and scan.detail == "SAK CRC error"
    assert driver.scan().uid == uid


def test_the_gain_write_keeps_rfcfgregs_reserved_bits() -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    Mfrc522(chip, gain_db=48, sleep=clock.sleep, monotonic=clock.monotonic).init()
    assert chip.regs[0x26] == 0x78, "RxGain 48 dB (0x70) with reserved bit 3 of the reset value 0x48 kept"
    Mfrc522(chip, gain_db=18, sleep=clock.sleep, monotonic=clock.monotonic).init()
    assert chip.regs[0x26] == 0x08
    with pytest.raises(ValueError):
        Mfrc522(chip, gain_db=30)


@pytest.mark.parametrize("version, verdict", [(0x91, "genuine"), (0x92, "genuine"), (0x88, "clone"), (0x00, "absent"),
                                              (0xFF, "absent"), (0x42, "unknown")])
def test_version_register_health(version: int, verdict: str) -> None:
    assert classify_version(version).verdict == verdict
    assert classify_version(version).ok is (verdict in ("genuine", "clone"))


def test_the_driver_reads_version_over_spi() -> None:
    _, driver = make(version=0x88)
    assert driver.version() == 0x88
    assert driver.health().verdict == "clone"


@pytest.mark.parametrize("fill", [0x00, 0xFF])
def test_init_refuses_a_chip_select_where_nothing_answers(fill: int) -> None:
    driver = Mfrc522(DeadBus(fill), sleep=lambda s: None)
    with pytest.raises(ReaderError) as info:
        driver.init()
    assert info.value.code == "reader_absent"


def test_a_chip_that_never_raises_an_interrupt_is_a_reader_error_not_a_hang() -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    driver = Mfrc522(chip, sleep=clock.sleep, monotonic=clock.monotonic)
    driver.init()
    chip.regs[0x2A] = 0  # timer no longer automatic: nothing will ever end the wait
    with pytest.raises(ReaderError) as info:
        driver.scan()
    assert info.value.code == "reader_stuck"


def test_antenna_off_means_no_tag_and_on_again_reads_it() -> None:
    chip, driver = make()
    chip.place(UID4)
    driver.antenna_off()
    assert not chip.antenna_on and not driver.antenna_is_on()
    assert driver.poll() is None
    driver.antenna_on()
    assert driver.poll() == UID4


def test_coprocessor_crc_matches_software_crc() -> None:
    _, driver = make()
    assert driver.self_test()
    assert driver.calc_crc([0x93, 0x70, 1, 2, 3, 4, 4]) == crc_a([0x93, 0x70, 1, 2, 3, 4, 4])


def test_reset_line_is_pulsed_when_given() -> None:
    clock = VirtualClock()
    chip = FakeMfrc522(clock=clock)
    calls: list[str] = []

    class Line:
        def on(self) -> None:
            calls.append("on")

        def off(self) -> None:
            calls.append("off")

    Mfrc522(chip, reset=Line(), sleep=clock.sleep, monotonic=clock.monotonic).init()
    assert calls == ["off", "on"]
