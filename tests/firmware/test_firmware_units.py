"""Firmware pieces under CPython: the terminal's MFRC522 driver against the fake chip, and the Terminal state
machine (confirm step, resend until ack, refusal, tag reports) without any I/O."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from companion.hal import terminal_protocol as proto
from companion.hal.testing.fake_mfrc522 import DeadBus, FakeMfrc522, VirtualClock
from tests.firmware.runtimes import FIRMWARE


@pytest.fixture
def firmware() -> Iterator[dict[str, ModuleType]]:
    """Import main, protocol and drivers.rfid from firmware/terminal, then forget them again."""
    names = ("main", "protocol", "drivers", "drivers.rfid")
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    sys.path.insert(0, str(FIRMWARE))
    try:
        yield {"main": importlib.import_module("main"), "rfid": importlib.import_module("drivers.rfid")}
    finally:
        sys.path.remove(str(FIRMWARE))
        for n in names:
            sys.modules.pop(n, None)
        sys.modules.update(saved)


def reader(rfid: ModuleType, chip: FakeMfrc522) -> object:
    """The firmware driver on the fake chip, its stuck-guard timed by the chip's virtual clock (a loaded
    machine must not make the real clock outrun the chip's timer)."""
    r = rfid.Reader(chip, now_ms=lambda: int(chip.clock.monotonic() * 1000), diff=lambda a, b: a - b)
    r.init()
    return r


def test_terminal_reader_reads_4_and_7_byte_uids_and_resting_tags_every_poll(firmware: dict[str, ModuleType]) -> None:
    chip = FakeMfrc522(clock=VirtualClock())
    r = reader(firmware["rfid"], chip)
    assert r.poll() is None
    chip.place(bytes.fromhex("deadbeef"))
    assert [r.poll() for _ in range(3)] == [bytes.fromhex("deadbeef")] * 3
    chip.remove()
    for last in (1, 2):
        uid = bytes.fromhex("04a1b2c3d4e5") + bytes((last,))
        chip.place(uid)
        assert [r.poll() for _ in range(3)] == [uid] * 3
        chip.remove()


def test_terminal_reader_resolves_a_collision_and_a_dead_bus_is_an_error(firmware: dict[str, ModuleType]) -> None:
    chip = FakeMfrc522(clock=VirtualClock())
    r = reader(firmware["rfid"], chip)
    chip.place(bytes.fromhex("04a1b2c3d4e5f7"), bytes.fromhex("04ffb2c3d4e5f7"))
    assert r.scan(bytes.fromhex("04ffb2c3d4e5f7")) == ("tag", bytes.fromhex("04ffb2c3d4e5f7"), True)
    with pytest.raises(OSError):
        firmware["rfid"].Reader(DeadBus(0x00)).init()
    assert firmware["rfid"].crc_a([0x50, 0x00]) == bytes((0x57, 0xCD))


class Wire:
    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def __call__(self, data: bytes) -> None:
        self.lines.append(data)

    def messages(self) -> list[proto.Message]:
        return [proto.decode(line) for line in self.lines]


def prompt_line(ballot: str, values: list[str]) -> bytes:
    return proto.encode(proto.Prompt(ballot, tuple(proto.Option(v, v.title()) for v in values)))


def test_terminal_confirm_resend_ack_and_refusal(firmware: dict[str, ModuleType]) -> None:
    wire = Wire()
    t = firmware["main"].Terminal("T-1", wire, boot=5)
    t.start(0)
    t.on_line(prompt_line("b1", ["ja", "nein"]), 10)
    t.on_key("next", 20)
    t.on_key("ok", 30)
    t.tick(40)
    assert [m for m in wire.messages() if isinstance(m, proto.Choice)] == [], "one press only asks to confirm"
    assert t.colours(40)[0] in ((255, 255, 255), (0, 0, 0))
    t.on_key("ok", 50)
    t.tick(60)
    t.tick(500)
    t.tick(1100)
    choices = [m for m in wire.messages() if isinstance(m, proto.Choice)]
    assert choices == [proto.Choice("b1", 1, "nein")] * 2, "resent after 1 s without an ack"
    t.on_line(proto.encode(proto.Ack(1)), 1200)
    t.tick(3000)
    assert len([m for m in wire.messages() if isinstance(m, proto.Choice)]) == 2
    t.on_key("ok", 3100)
    t.on_key("ok", 3200)
    assert t.pending == {}, "a ballot already answered takes no second choice"
    t.on_line(proto.encode(proto.Error(1, "wrong_phase")), 3300)
    t.on_key("ok", 3400)
    t.on_key("ok", 3500)
    t.tick(3600)
    assert [m for m in wire.messages() if isinstance(m, proto.Choice)][-1] == proto.Choice("b1", 2, "nein")


def test_terminal_answers_ping_and_hello_and_survives_garbage(firmware: dict[str, ModuleType]) -> None:
    wire = Wire()
    t = firmware["main"].Terminal("T-9", wire, boot=1)
    t.on_line(b"\x03\x03garbage", 0)
    t.on_line(proto.encode(proto.Ping(4)), 1)
    t.on_line(proto.encode(proto.Hello("pi", "x", 0)), 2)
    pong, hello = wire.messages()
    assert pong == proto.Pong(4) and hello == proto.Hello("T-9", "0.4.0", 1, 4, 8, False, "", t.nonce)
    assert len(t.nonce) == 16 and t.nonce != firmware["main"].Terminal("T-9", wire, boot=1).nonce, "new at each boot"
    assert t.errors == 1 and t.host_alive(100) and not t.host_alive(5000)


def test_a_refused_hello_leaves_the_terminal_saying_its_id_is_in_use(firmware: dict[str, ModuleType]) -> None:
    """The Pi answers a hello whose id another port holds with error seq 0: the terminal shows it, red, and the
    error touches no pending message; the Pi's next hello (the id is free again) clears it."""
    main = firmware["main"]
    wire = Wire()
    t = main.Terminal("T-3", wire, boot=1)
    t.on_line(proto.encode(proto.Prompt("b1", (proto.Option("ja", "Ja"),))), 0)
    t.on_key("ok", 10)
    t.on_key("ok", 20)
    t.on_line(proto.encode(proto.Error(0, "duplicate_id")), 30)
    assert t.refused == "duplicate_id" and list(t.pending) == [1] and "b1" in t.chosen
    assert t.lines() == ["T-3", "ID in use: unplug"] and t.colours(40)[0] == main.RED
    t.on_line(proto.encode(proto.Hello("pi", "x", 0)), 50)
    assert t.refused is None and t.lines()[1] == "sent"


def test_terminal_reports_a_tag_from_its_own_reader_once(firmware: dict[str, ModuleType]) -> None:
    chip = FakeMfrc522(clock=VirtualClock())
    wire = Wire()
    t = firmware["main"].Terminal("T-2", wire, boot=1, reader=reader(firmware["rfid"], chip))
    chip.place(bytes.fromhex("04a1b2c3d4e5f6"))
    for now in range(0, 1000, 100):
        t.tick(now)
    tags = [m for m in wire.messages() if isinstance(m, proto.Tag)]
    assert tags == [proto.Tag(1, "04a1b2c3d4e5f6")]


def test_a_page_turn_takes_one_press_and_is_never_marked_chosen(firmware: dict[str, ModuleType]) -> None:
    wire = Wire()
    t = firmware["main"].Terminal("T-3", wire, boot=1, screen=3)
    t.start(0)
    page = proto.Prompt("g.1:1", (proto.Option("0", "Ann"), proto.Option("~more", "more >")), "nominate 1/5")
    t.on_line(proto.encode(page), 10)
    t.on_key("next", 20)
    assert t.colours(20)[2] == firmware["main"].PURPLE  # the highlighted option turns the page
    t.on_key("ok", 30)
    t.tick(40)
    assert [m for m in wire.messages() if isinstance(m, proto.Choice)] == [proto.Choice("g.1:1", 1, "~more")]
    assert "g.1:1" not in t.chosen and t.lines() == ["nominate 1/5", "> more >"]
    t.on_line(proto.encode(proto.Prompt("g.1:2", (proto.Option("1", "Bo"),), "nominate 2/5")), 50)
    assert t.index == 0 and t.lines() == ["nominate 2/5", "> Bo"]
    hello = wire.messages()[0]
    assert isinstance(hello, proto.Hello) and hello.screen == 3 and hello.proto == 4


def test_the_phone_state_blinks_purple_and_takes_no_choice(firmware: dict[str, ModuleType]) -> None:
    wire = Wire()
    t = firmware["main"].Terminal("T-4", wire, boot=1)
    t.on_line(proto.encode(proto.Ping(1)), 0)
    t.on_line(proto.encode(proto.Phone("g.2:1")), 10)
    assert t.colours(10)[0] == firmware["main"].PURPLE and t.lines()[0] == "Use your phone"
    t.on_key("ok", 20)
    t.on_key("ok", 30)
    t.tick(40)
    assert not [m for m in wire.messages() if isinstance(m, proto.Choice)]
    t.on_line(proto.encode(proto.Close("g.2:1")), 50)
    assert t.phone is None


def test_a_tag_needs_two_reads_and_its_loss_is_untag(firmware: dict[str, ModuleType]) -> None:
    class Script:
        def __init__(self, reads: list[bytes | None]) -> None:
            self.reads = reads

        def scan(self, prefer: bytes | None = None) -> tuple[str, bytes | None, bool]:
            uid = self.reads.pop(0) if self.reads else None
            return ("empty" if uid is None else "tag"), uid, False

    uid = bytes.fromhex("0b030200")
    wire = Wire()
    t = firmware["main"].Terminal("T-5", wire, boot=1, reader=Script([uid, None, uid, uid, uid, None, None, None]))
    for now in range(100, 1100, 100):
        t.tick(now)
    sent = {m for m in wire.messages() if isinstance(m, proto.Tag | proto.Untag)}  # resent until acked
    assert sent == {proto.Tag(1, "0b030200"), proto.Untag(2)}  # the lone first read was a ghost


def test_faults_are_in_the_hello_and_flash_pixel_0(firmware: dict[str, ModuleType]) -> None:
    wire = Wire()
    t = firmware["main"].Terminal("T-6", wire, boot=1, faults="reader")
    t.start(0)
    hello = wire.messages()[0]
    assert isinstance(hello, proto.Hello) and hello.faults == "reader" and hello.display is False
    assert t.colours(0)[0] == firmware["main"].MAGENTA and t.colours(300)[0] != firmware["main"].MAGENTA


def test_the_display_shows_the_title_and_the_wrapped_label_once(firmware: dict[str, ModuleType]) -> None:
    spec = importlib.util.spec_from_file_location("firmware_display", FIRMWARE / "drivers" / "display.py")
    assert spec and spec.loader
    display = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(display)

    class Oled:
        def __init__(self) -> None:
            self.calls: list[tuple[Any, ...]] = []

        def fill(self, colour: int) -> None:
            self.calls.append(("fill", colour))

        def text(self, text: str, x: int, y: int, colour: int) -> None:
            self.calls.append(("text", text, y))

        def hline(self, x: int, y: int, width: int, colour: int) -> None:
            self.calls.append(("hline", y))

        def show(self) -> None:
            self.calls.append(("show",))

    oled = Oled()
    screen = display.Display(oled)
    t = firmware["main"].Terminal("T-7", Wire(), boot=1, display=screen)
    t.on_line(proto.encode(proto.Prompt("g.3:1", (proto.Option("0", "nominate Seat 10 the long one"),),
                                        "nominate 1/2")), 0)
    screen.show(t.lines())
    screen.show(t.lines())
    texts = [c[1:] for c in oled.calls if c[0] == "text"]
    assert texts == [("nominate 1/2", 0), ("> nominate Seat", 14), ("10 the long one", 22)]
    assert [c for c in oled.calls if c[0] == "show"] == [("show",)]  # unchanged lines are not redrawn
    assert display.wrap("abcdefghijklmnopqrstu") == ["abcdefghijklmnop", "qrstu"]
