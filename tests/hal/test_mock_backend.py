"""The mock backend: gpiozero MockFactory buttons, scripted tags, failing readers, recorded frames, backends by name."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

from companion.config import demo_config, parse_config
from companion.hal import (BackendError, ButtonPressed, ReaderFault, TagPlaced, TagRemoved, TerminalChoice,
                           TerminalHello, load_backend)
from companion.hal.mock import MockHardware


@pytest.fixture()
def hw() -> Iterator[tuple[MockHardware, list[Any]]]:
    cfg = demo_config()
    hardware = load_backend("mock").open_hardware(cfg)
    events: list[Any] = []
    hardware.start(events.append)
    yield hardware, events
    hardware.close()


def test_unknown_backend_is_an_error_not_a_fallback() -> None:
    with pytest.raises(BackendError) as err:
        load_backend("mok")
    assert err.value.code == "unknown_backend"


def test_buttons_go_through_gpiozero_mock_pins(hw: tuple[MockHardware, list[Any]]) -> None:
    hardware, events = hw
    from gpiozero.pins.mock import MockFactory
    assert isinstance(hardware.factory, MockFactory)
    hardware.press(3, "nein")
    pin = next(b.pin for b in hardware.buttons.specs if b.seat == 3 and b.key == "nein")
    assert hardware.factory.pin(pin).state == 1  # released again (pull-up)
    assert events == [ButtonPressed(3, "nein")]
    with pytest.raises(KeyError):
        hardware.press(3, "maybe")


def test_a_placed_tag_is_reported_once_and_its_removal_after_the_window(hw: tuple[MockHardware, list[Any]]) -> None:
    hardware, events = hw
    reader, poller = hardware.reader("r2"), hardware.poller
    assert poller is not None
    real_poll, sink, clock = reader.poll, poller.sink, poller.clock
    now, seen, removed = [0.0], [0.0], [0.0]

    def read_clock() -> float:  # the time the poller judges the next poll by
        now[0] = clock()
        return now[0]

    def poll() -> str | None:
        uid = real_poll()
        if uid is not None:
            seen[0] = now[0]
        return uid

    def timed(event: Any) -> None:
        if isinstance(event, TagRemoved):
            removed[0] = now[0]
        sink(event)

    reader.poll, poller.sink, poller.clock = poll, timed, read_clock  # type: ignore[method-assign]
    hardware.place("r2", "04a1b2c3")
    time.sleep(0.1)  # several polls while it rests
    assert events == [TagPlaced("r2", "04A1B2C3")]
    hardware.remove("r2")
    assert events == [TagPlaced("r2", "04A1B2C3"), TagRemoved("r2", "04A1B2C3")]
    # removal comes no sooner than `removal_s` after the last poll that saw the tag (however late polls ran)
    assert removed[0] - seen[0] >= hardware.removal_s


def test_a_failing_reader_is_counted_backs_off_and_others_keep_working(hw: tuple[MockHardware, list[Any]]) -> None:
    hardware, events = hw
    hardware.fail_reader("r4")
    hardware.place("r5", "0455")
    health = {r["name"]: r for r in hardware.health()["readers"]}
    assert health["r4"]["ok"] is False and health["r4"]["errors"] >= 1
    assert "SPI transfer failed" in health["r4"]["last_error"]
    assert health["r5"]["ok"] is True
    assert ReaderFault("r4", "ReaderError: SPI transfer failed") in events
    assert TagPlaced("r5", "0455") in events
    time.sleep(0.3)
    errors = {r["name"]: r for r in hardware.health()["readers"]}["r4"]["errors"]
    polls_r5 = {r["name"]: r for r in hardware.health()["readers"]}["r5"]["polls"]
    assert errors < polls_r5 / 2, "backoff: the failing reader is retried less often than healthy ones are polled"
    assert sum(isinstance(e, ReaderFault) for e in events) == 1, "one fault event per failure streak"
    hardware.heal_reader("r4")
    deadline = time.monotonic() + 5  # the backoff never exceeds 2 s
    while not {r["name"]: r for r in hardware.health()["readers"]}["r4"]["ok"] and time.monotonic() < deadline:
        time.sleep(0.05)
    hardware.place("r4", "0466")
    assert TagPlaced("r4", "0466") in events
    assert {r["name"]: r for r in hardware.health()["readers"]}["r4"]["ok"] is True


def test_strip_records_frames_and_terminals_record_messages(hw: tuple[MockHardware, list[Any]]) -> None:
    hardware, events = hw
    strip = hardware.mock_strip
    frame = tuple((i % 256, 0, 0) for i in range(strip.pixel_count))
    strip.show(frame)
    assert strip.last() == frame
    assert strip.wait_for(lambda f: f[1] == (1, 0, 0), timeout=0.1) is not None
    assert strip.wait_for(lambda f: f[1] == (9, 9, 9), timeout=0.05) is None
    with pytest.raises(ValueError):
        strip.show(frame[:-1])
    hub = hardware.mock_terminals
    assert hub.send("T1", {"type": "idle"}) is False
    hub.connect("T1")
    assert hub.send("T1", {"type": "idle"}) is True
    seq = hub.choose("T1", "b1", 0)
    hub.choose("T1", "b1", 0, seq=seq)
    # no prompt is open: the choice goes on as the wire carried it (a string), for the table to refuse
    link = "mock:T1#1"  # each connect is a new boot: a new link, counted from 1 by the table
    assert events[-3:] == [TerminalHello("T1", "mock-1", link=link), TerminalChoice("T1", "b1", 1, "0", link),
                           TerminalChoice("T1", "b1", 1, "0", link)]


def test_mock_backend_builds_from_a_small_config() -> None:
    cfg = parse_config({"readers": [{"name": "a", "zone": "seat:0"}], "seats": [{"name": "A"}],
                        "leds": {"pixels": 3}})
    hardware = load_backend("mock").open_hardware(cfg)
    assert [r.name for r in hardware.readers] == ["a"] and hardware.strip.pixel_count == 3
    hardware.close()
