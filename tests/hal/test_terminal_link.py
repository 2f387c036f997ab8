"""TerminalLink logic on a scripted port and a virtual clock: handshake, dedupe, malformed lines, stale, backoff."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import serial

from companion.hal import terminal_protocol as proto
from companion.hal.serial_link import LinkChoice, LinkDown, LinkProblem, LinkTag, LinkUp, TerminalLink
from companion.hal.terminal_link import find_terminals


class ScriptedPort:
    def __init__(self) -> None:
        self.inbound: list[bytes] = []
        self.written: list[bytes] = []
        self.closed = False
        self.broken = False

    def read(self, size: int = 1) -> bytes:
        if self.broken:
            raise serial.SerialException("device reports readiness to read but returned no data")
        return self.inbound.pop(0) if self.inbound else b""

    def write(self, data: bytes) -> int:
        if self.broken:
            raise serial.SerialException("write failed: [Errno 5] Input/output error")
        self.written.append(data)
        return len(data)

    def close(self) -> None:
        self.closed = True

    def sent(self) -> list[proto.Message]:
        return [proto.decode(line) for chunk in self.written for line in chunk.splitlines()]


class Opener:
    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.ports: list[ScriptedPort] = []
        self.attempts: list[float] = []
        self.now = 0.0

    def __call__(self, path: str, timeout: float) -> ScriptedPort:
        self.attempts.append(self.now)
        if self.failures > 0:
            self.failures -= 1
            raise serial.SerialException(f"[Errno 2] could not open port {path}")
        self.ports.append(ScriptedPort())
        return self.ports[-1]


HELLO = proto.encode(proto.Hello("T-1", "0.1.0", 77))


def make(failures: int = 0, **kw: object) -> tuple[TerminalLink, Opener, list[object]]:
    events: list[object] = []
    opener = Opener(failures)
    link = TerminalLink("/dev/serial/by-id/x", events.append, opener=opener, **kw)  # type: ignore[arg-type]
    return link, opener, events


def run(link: TerminalLink, opener: Opener, start: float, end: float, step: float = 0.01) -> None:
    t = start
    while t < end:
        opener.now = t
        link.step(t)
        t = round(t + step, 6)


def test_handshake_then_prompt_is_sent_and_resent_after_reconnect() -> None:
    link, opener, events = make()
    link.prompt("b1", [("ja", "Ja"), ("nein", "Nein")])
    link.step(0.0)
    port = opener.ports[0]
    assert port.sent() == [proto.Hello("pi", "table-companion 0.1.0", 0)]
    port.inbound.append(HELLO)
    link.step(0.01)
    assert events == [LinkUp("/dev/serial/by-id/x", "T-1", "0.1.0", proto.decode(HELLO), "/dev/serial/by-id/x#77")]
    assert isinstance(port.sent()[-1], proto.Prompt)
    port.broken = True
    link.step(0.02)
    assert events[-1] == LinkDown("/dev/serial/by-id/x", "T-1", "unplugged")
    run(link, opener, 0.03, 0.2)
    second = opener.ports[1]
    second.inbound.append(HELLO)
    link.step(0.3)
    assert [m for m in second.sent() if isinstance(m, proto.Prompt)] == [proto.Prompt("b1", (proto.Option("ja", "Ja"), proto.Option("nein", "Nein")))]


def test_a_resent_choice_is_passed_on_unanswered_with_its_seq_and_link() -> None:
    """The link keeps no sequence filter and answers no choice: the table's state drops the duplicate by its seq
    on its link (one filter) and acks or refuses it once decided. A tag is acked at once (no verdict to wait for)."""
    link, opener, events = make()
    link.step(0.0)
    port = opener.ports[0]
    choice = proto.encode(proto.Choice("b1", 4, "ja"))
    port.inbound += [HELLO, choice, choice, proto.encode(proto.Tag(5, "04a1b2c3d4e5f6"))]
    for t in (0.01, 0.02, 0.03, 0.04):
        link.step(t)
    assert [e for e in events if isinstance(e, LinkChoice)] == [LinkChoice("T-1", "b1", 4, "ja", "/dev/serial/by-id/x#77")] * 2
    assert [e for e in events if isinstance(e, LinkTag)] == [LinkTag("T-1", bytes.fromhex("04a1b2c3d4e5f6"))]
    assert [m.seq for m in port.sent() if isinstance(m, proto.Ack)] == [5]


def test_a_new_boot_is_announced_so_its_sequence_starts_again() -> None:
    """A hello from a new boot on an open port is passed on (the table then counts that terminal from 1);
    the same boot saying hello again is not news."""
    link, opener, events = make()
    link.step(0.0)
    port = opener.ports[0]
    port.inbound += [HELLO, HELLO, proto.encode(proto.Hello("T-1", "0.1.0", 78))]
    for t in (0.01, 0.02, 0.03):
        link.step(t)
    ups = [e for e in events if isinstance(e, LinkUp)]
    assert [(e.terminal, e.hello.boot if e.hello else None) for e in ups] == [("T-1", 77), ("T-1", 78)]


def test_malformed_lines_are_reported_with_stable_codes_and_survived() -> None:
    link, opener, events = make()
    link.step(0.0)
    port = opener.ports[0]
    port.inbound += [b'{"v":1,"t":"choice","ballot":"b","seq":1,"value":"x"}\n', HELLO, b"\x03garbage\n",
                     b'{"v":9,"t":"ping","n":1}\n', b"x" * 5000 + b"\n", b'{"v":1,"t":"prompt","ballot":"b","options":[{"value":"a","label":"A"}]}\n',
                     proto.encode(proto.Choice("b", 1, "x"))]
    for i in range(8):
        link.step(0.01 * (i + 1))
    codes = [e.code for e in events if isinstance(e, LinkProblem)]
    assert codes == ["no_hello", "bad_json", "bad_version", "too_long", "unexpected"]
    assert LinkChoice("T-1", "b", 1, "x", "/dev/serial/by-id/x#77") in events
    health = link.health(0.1)
    assert health.connected and health.malformed == 5 and health.last_problem == "unexpected"


def test_pings_keep_time_and_a_silent_terminal_goes_stale_and_is_reopened() -> None:
    link, opener, events = make(ping_s=1.0, stale_s=3.0)
    link.step(0.0)
    port = opener.ports[0]
    port.inbound.append(HELLO)
    run(link, opener, 0.01, 3.0, step=0.1)
    pings = [m for m in port.sent() if isinstance(m, proto.Ping)]
    assert len(pings) == 2, "one ping a second"
    assert not any(isinstance(e, LinkDown) for e in events)
    run(link, opener, 3.0, 3.35, step=0.1)
    assert LinkDown("/dev/serial/by-id/x", "T-1", "stale") in events
    assert port.closed and len(opener.ports) == 2, "reopened at once"


def test_reconnect_backoff_doubles_from_50_ms_to_2_s() -> None:
    link, opener, events = make(failures=8)
    run(link, opener, 0.0, 8.0, step=0.01)
    gaps = [round(b - a, 2) for a, b in zip(opener.attempts, opener.attempts[1:])]
    assert gaps[:7] == pytest.approx([0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0], abs=0.011)
    assert len(opener.ports) == 1


def test_prompt_is_validated_in_the_callers_thread() -> None:
    link, _, _ = make()
    with pytest.raises(proto.ProtocolError):
        link.prompt("bad ballot id", [("a", "A")])


def test_find_terminals_prefers_the_stable_by_id_path(tmp_path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    dev = tmp_path / "ttyACM0"
    dev.write_text("")
    (by_id / "usb-MicroPython_Board_in_FS_mode_e660-if00").symlink_to(dev)
    ports = [SimpleNamespace(device=str(dev), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device=str(tmp_path / "ttyACM1"), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device=str(tmp_path / "ttyUSB0"), vid=0x10C4, pid=0xEA60)]
    assert find_terminals(ports, str(by_id)) == sorted([str(by_id / "usb-MicroPython_Board_in_FS_mode_e660-if00"),
                                                         str(tmp_path / "ttyACM1")])


def test_a_screen_older_than_one_shown_or_closed_is_dropped() -> None:
    link, opener, _ = make()
    link.step(0.0)
    port = opener.ports[0]
    port.inbound.append(HELLO)
    link.step(0.01)
    page = proto.Prompt("g.1:5", (proto.Option("0", "A"),))
    assert link.show(page)
    assert link.show(proto.Prompt("g.1:4", (proto.Option("1", "B"),)))  # lost a race: not sent
    assert [m for m in port.sent() if isinstance(m, proto.Prompt)] == [page]
    link.close_prompt("g.1:6")
    link.show(proto.Prompt("g.1:6", (proto.Option("1", "B"),)))
    assert [m for m in port.sent() if isinstance(m, proto.Prompt)] == [page]
    link.show(proto.Prompt("g.2:7", (proto.Option("0", "C"),)))
    assert [m.ballot for m in port.sent() if isinstance(m, proto.Prompt)] == ["g.1:5", "g.2:7"]


def test_a_second_port_saying_hello_as_a_held_id_is_refused_until_the_holder_goes() -> None:
    """One port per id: the second device hears `error` seq 0 `duplicate_id`, nothing it sends is passed on, the
    table hears a TerminalClash; once the holder is unplugged the next hello on the second port wins the id."""
    from companion.hal.events import TerminalChoice, TerminalClash, TerminalGone, TerminalHello
    from companion.hal.terminal_link import SerialTerminalHub

    events: list[object] = []
    hub = SerialTerminalHub(discover=None)
    hub._sink = events.append  # noqa: SLF001 - the hub's event sink, without its threads
    opener_a, opener_b = Opener(), Opener()
    real = TerminalLink("/a", hub._on_event, opener=opener_a, claim=hub._claim)  # noqa: SLF001
    other = TerminalLink("/b", hub._on_event, opener=opener_b, claim=hub._claim)  # noqa: SLF001
    real.step(0.0)
    other.step(0.0)
    opener_a.ports[0].inbound.append(HELLO)
    real.step(0.01)
    intruder = proto.encode(proto.Hello("T-1", "0.4.0", 1, 4, 8, False, "", "00000000000000ff"))
    opener_b.ports[0].inbound += [intruder, proto.encode(proto.Choice("g.1:1", 0x7FFFFFFF, "0")), intruder]
    for t in (0.01, 0.02, 0.03):
        other.step(t)
    assert [m for m in opener_b.ports[0].sent() if isinstance(m, proto.Error)] == [proto.Error(0, "duplicate_id")] * 2
    assert [e for e in events if isinstance(e, TerminalClash)] == [TerminalClash("T-1", "/b")], "told once"
    assert not [e for e in events if isinstance(e, TerminalChoice)] and hub.last_problem["/b"] == "no_hello"
    assert [e.link for e in events if isinstance(e, TerminalHello)] == ["/a#77"]
    assert other.health(0.1).refused == "T-1" and not other.connected and real.connected
    opener_a.ports[0].broken = True
    real.step(0.04)
    assert TerminalGone("T-1") in events
    opener_b.ports[0].inbound.append(intruder)
    other.step(0.05)
    assert events[-2:] == [TerminalClash("T-1", "/b", False),
                           TerminalHello("T-1", "0.4.0", 8, False, "", "/b#00000000000000ff")]
    assert other.connected and other.health(0.1).refused == ""
