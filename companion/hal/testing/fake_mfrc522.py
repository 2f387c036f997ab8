"""A register-level MFRC522 with ISO 14443-3 type A tags, spoken to over spidev's `xfer2`.

It models what a driver can get wrong: the SPI address byte format, the FIFO, CommandReg (Idle, CalcCRC,
Transmit, Transceive, SoftReset), BitFramingReg StartSend and TxLastBits, ComIrqReg/DivIrqReg set-and-clear
semantics, the timer (TAuto, prescaler, reload) on a virtual clock, ErrorReg and CollReg, the antenna, and
tags walking IDLE/READY/ACTIVE/HALT exactly as the standard says (a resting tag polled with REQA misses
every other poll). Every transfer advances the virtual clock by `transfer_s`, like a real bus would.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.hal.mfrc522 import BIT_S, FDT_S, crc_a


class VirtualClock:
    """Time that moves only when told to: shared by the fake chip and the driver's sleep."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        """The current virtual time in seconds."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Let virtual time pass."""
        self.now += max(0.0, seconds)


class WallClock:
    """Real time for a fake chip, so a driver's real sleeps meet its timer (benches, threaded tests).

    Unlike VirtualClock it cannot be jumped, so FakeIrqLine does not work on it.
    """

    @property
    def now(self) -> float:
        """time.monotonic()."""
        return time.monotonic()

    def monotonic(self) -> float:
        """time.monotonic()."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """time.sleep (a zero-length bus transfer costs nothing)."""
        if seconds > 0:
            time.sleep(seconds)


class TagState(enum.Enum):
    """ISO 14443-3 PICC states (POWER-OFF is 'not in a field')."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass
class FakeTag:
    """A type A tag: 4-byte UID (MIFARE Classic style) or 7-byte UID (NTAG213 style)."""

    uid: bytes
    state: TagState = TagState.IDLE
    starred: bool = False  # READY*/ACTIVE*: woken from HALT, errors send it back to HALT
    level: int = 1

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7):
            raise ValueError("fake tags have 4- or 7-byte UIDs")

    @property
    def atqa(self) -> bytes:
        """Answer to request: UID size in bits 7-6 (single 0b00, double 0b01), bit-frame anticollision bit 2."""
        return bytes((0x44 if len(self.uid) == 7 else 0x04, 0x00))

    def level_bytes(self, level: int) -> bytes:
        """The four UID bytes answered at a cascade level (CT 0x88 first when the UID continues)."""
        if len(self.uid) == 4:
            return self.uid
        return bytes((0x88,)) + self.uid[:3] if level == 1 else self.uid[3:]

    def power_off(self) -> None:
        """Leaving the field (or the field switching off) forgets everything."""
        self.state, self.starred, self.level = TagState.IDLE, False, 1

    def _error(self) -> None:
        """An unexpected frame: back to HALT if woken from there, else IDLE; no answer."""
        self.state = TagState.HALT if self.starred else TagState.IDLE
        self.level = 1

    def receive(self, frame: bytes, last_bits: int) -> bytes | None:
        """React to a frame from the reader; return the answer (with CRC where the standard has one) or None."""
        if last_bits == 7 and len(frame) == 1:
            command = frame[0] & 0x7F
            if command == 0x52 and self.state in (TagState.IDLE, TagState.HALT):
                self.starred = self.state is TagState.HALT
                self.state, self.level = TagState.READY, 1
                return self.atqa
            if command == 0x26 and self.state is TagState.IDLE:
                self.state, self.level = TagState.READY, 1
                return self.atqa
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._error()
            return None
        if last_bits not in (0, 8) or not frame:
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._error()
            return None
        if self.state is TagState.READY and len(frame) == 2 and frame[1] == 0x20:
            if frame[0] != (0x93 if self.level == 1 else 0x95):
                self._error()
                return None
            part = self.level_bytes(self.level)
            return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))
        if self.state is TagState.READY and len(frame) == 9 and frame[1] == 0x70:
            if crc_a(frame[:7]) != frame[7:] or frame[0] != (0x93 if self.level == 1 else 0x95):
                self._error()
                return None
            part = self.level_bytes(self.level)
            if frame[2:6] != part or frame[6] != part[0] ^ part[1] ^ part[2] ^ part[3]:
                return None  # another tag's UID: stay READY, stay silent
            if len(self.uid) == 7 and self.level == 1:
                self.level = 2
                sak = bytes((0x04,))
            else:
                self.state = TagState.ACTIVE
                sak = bytes((0x00 if len(self.uid) == 7 else 0x08,))
            return sak + crc_a(sak)
        if self.state is TagState.ACTIVE and len(frame) == 4 and frame[:2] == b"\x50\x00" and crc_a(frame[:2]) == frame[2:]:
            self.state, self.starred = TagState.HALT, False
            return None
        if self.state in (TagState.READY, TagState.ACTIVE):
            self._error()
        return None


RESET_VALUES = {0x01: 0x20, 0x02: 0x80, 0x0C: 0x10, 0x0B: 0x08, 0x11: 0x3F, 0x14: 0x80, 0x26: 0x48}


@dataclass
class _Operation:
    """A frame on air: when it ends, what comes back, and when the timer would fire."""

    command: int
    tx_end: float
    answer: bytes | None
    error: int
    coll_pos: int
    rx_end: float
    timer_at: float | None
    tx_done: bool = False
    rx_done: bool = False
    timer_done: bool = False


@dataclass
class FakeMfrc522:
    """The chip on one chip-select: implements `xfer2` and counts transfers."""

    clock: VirtualClock | WallClock = field(default_factory=VirtualClock)
    version: int = 0x92
    transfer_s: float = 40e-6
    tags: list[FakeTag] = field(default_factory=list)
    transfers: int = 0
    fail_next: int = 0
    corrupt_next: int = 0

    def __post_init__(self) -> None:
        self.regs = [0] * 64
        self.fifo: list[int] = []
        self._op: _Operation | None = None
        self._soft_reset()

    # -- the test's hands ------------------------------------------------------------------------------

    def place(self, *tags: FakeTag | bytes) -> list[FakeTag]:
        """Put tags on the reader (they enter the field powered down, i.e. IDLE)."""
        placed = [t if isinstance(t, FakeTag) else FakeTag(bytes(t)) for t in tags]
        for tag in placed:
            tag.power_off()
        self.tags.extend(placed)
        return placed

    def remove(self, tag: FakeTag | None = None) -> None:
        """Take one tag (or all) off the reader."""
        for gone in [tag] if tag is not None else list(self.tags):
            gone.power_off()
            self.tags.remove(gone)

    @property
    def antenna_on(self) -> bool:
        """Whether both TX drivers are on."""
        return self.regs[0x14] & 0x03 == 0x03

    @property
    def irq_active(self) -> bool:
        """The IRQ pin: any enabled ComIrq bit set."""
        self._advance()
        return bool(self.regs[0x04] & self.regs[0x02] & 0x7F)

    def next_event(self) -> float | None:
        """When the next interrupt-raising event happens, if one is scheduled."""
        op = self._op
        if op is None:
            return None
        times = [t for t, done in ((op.tx_end, op.tx_done), (op.rx_end if op.answer is not None or op.error else None, op.rx_done),
                                   (op.timer_at, op.timer_done)) if t is not None and not done]
        return min(times) if times else None

    # -- SPI ---------------------------------------------------------------------------------------------

    def xfer2(self, data: list[int]) -> list[int]:
        """One SPI transaction: address byte(s) per the datasheet's section 8.1.2."""
        self.transfers += 1
        self.clock.sleep(self.transfer_s)
        if self.fail_next > 0:
            self.fail_next -= 1
            raise OSError(121, "Remote I/O error")
        if not data:
            return []
        self._advance()
        if data[0] & 0x80:  # read: each byte names the register whose value comes back on the next byte
            out = [0]
            for address in data[:-1]:
                out.append(self._read((address >> 1) & 0x3F))
            return out
        reg = (data[0] >> 1) & 0x3F
        for value in data[1:]:
            self._write(reg, value & 0xFF)
        return [0] * len(data)

    # -- registers ---------------------------------------------------------------------------------------

    def _soft_reset(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[0x37] = self.version
        self.fifo.clear()
        self._op = None
        for tag in self.tags:
            tag.power_off()

    def _read(self, reg: int) -> int:
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == 0x09:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[0x06] |= 0x10
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo.clear()
                self.regs[0x06] &= ~0x10
        elif reg == 0x04:  # Set1: 1 sets the marked bits, 0 clears them
            self.regs[0x04] = (self.regs[0x04] | value & 0x7F) if value & 0x80 else (self.regs[0x04] & ~value & 0x7F)
        elif reg == 0x05:
            self.regs[0x05] = (self.regs[0x05] | value & 0x7F) if value & 0x80 else (self.regs[0x05] & ~value & 0x7F)
        elif reg in (0x06, 0x37, 0x21, 0x22):
            pass  # read-only
        elif reg == 0x01:
            self._command(value)
        elif reg == 0x0D:
            self.regs[0x0D] = value & 0x7F  # StartSend reads back as 0 once the transmission has started
            if value & 0x80 and self.regs[0x01] & 0x0F == 0x0C:
                self._transmit(0x0C)
        elif reg == 0x14:
            was_on = self.antenna_on
            self.regs[0x14] = value
            if was_on and not self.antenna_on:
                for tag in self.tags:
                    tag.power_off()
        else:
            self.regs[reg] = value

    def _command(self, value: int) -> None:
        command = value & 0x0F
        self.regs[0x01] = (self.regs[0x01] & 0x30) | (value & 0x30) | command
        if command == 0x0F:
            self._soft_reset()
        elif command == 0x00:
            self._op = None
        elif command == 0x03:
            self.regs[0x22], self.regs[0x21] = crc_a(self.fifo)
            self.fifo.clear()
            self.regs[0x05] |= 0x04
        elif command == 0x04:
            self._transmit(0x04)

    def _timeout_s(self) -> float | None:
        if not self.regs[0x2A] & 0x80:
            return None
        prescaler = ((self.regs[0x2A] & 0x0F) << 8) | self.regs[0x2B]
        reload = (self.regs[0x2C] << 8) | self.regs[0x2D]
        return (reload + 1) * (2 * prescaler + 1) / 13.56e6

    def _transmit(self, command: int) -> None:
        """Send the FIFO on air; every tag in a powered field hears it and the answers are decided now."""
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.regs[0x06] &= 0x40
        last_bits = self.regs[0x0D] & 0x07
        if self.regs[0x12] & 0x80:
            frame += crc_a(frame)
        bits = (len(frame) - 1) * 8 + (last_bits or 8) if frame else 0
        tx_end = self.clock.now + (bits * 9 / 8 + 2) * BIT_S
        answers = [a for a in (t.receive(frame, last_bits) for t in (self.tags if self.antenna_on else [])) if a is not None]
        answer, error, coll_pos = _combine(answers)
        if answer is not None and self.corrupt_next > 0:
            self.corrupt_next -= 1
            answer = answer[:-1] + bytes((answer[-1] ^ 0x5A,))
            error |= 0x02  # the parity of the corrupted byte fails too
        if answer is not None and self.regs[0x13] & 0x80:
            if len(answer) < 3 or crc_a(answer[:-2]) != answer[-2:]:
                error |= 0x04
            answer = answer[:-2]
        rx_end = tx_end + FDT_S + (len(answer or b"") * 9 + 2) * BIT_S
        timeout = self._timeout_s()
        heard = answer is not None or bool(error)
        timer_at = None if timeout is None or (heard and command == 0x0C) else tx_end + timeout
        self._op = _Operation(command, tx_end, answer if command == 0x0C else None, error if command == 0x0C else 0,
                              coll_pos, rx_end, timer_at)

    def _advance(self) -> None:
        """Apply every event whose time has come: TxIRq, then the answer (RxIRq/ErrIRq), then the timer."""
        op = self._op
        if op is None:
            return
        now = self.clock.now
        if not op.tx_done and now >= op.tx_end:
            op.tx_done = True
            self.regs[0x04] |= 0x40
            if op.command == 0x04:
                self.regs[0x04] |= 0x10
                self.regs[0x01] &= 0xF0
        if not op.rx_done and (op.answer is not None or op.error) and now >= op.rx_end:
            op.rx_done = True
            self.fifo.extend(op.answer or b"")
            self.regs[0x0C] = (self.regs[0x0C] & 0xF8)
            self.regs[0x06] |= op.error
            self.regs[0x0E] = (op.coll_pos & 0x1F) if op.error & 0x08 else 0x20
            self.regs[0x04] |= 0x20 | (0x02 if op.error else 0)
        if op.timer_at is not None and not op.timer_done and now >= op.timer_at:
            op.timer_done = True
            self.regs[0x04] |= 0x01


def _combine(answers: list[bytes]) -> tuple[bytes | None, int, int]:
    """Overlay several tags' answers: identical bits add up, the first differing bit is a collision."""
    if not answers:
        return None, 0, 0
    first = answers[0]
    for other in answers[1:]:
        for index, (a, b) in enumerate(zip(first, other)):
            if a != b:
                bit = ((a ^ b) & -(a ^ b)).bit_length()
                return first, 0x08, (index * 8 + bit) % 32
        if len(other) != len(first):
            return first, 0x01, 0
    return first, 0, 0


class FakeIrqLine:
    """The IRQ pin of a fake chip as gpiozero's `wait_for_active` sees it, on the chip's virtual clock."""

    def __init__(self, chip: FakeMfrc522) -> None:
        self.chip = chip

    def wait_for_active(self, timeout: float | None = None) -> bool:
        """Jump the clock to the next event (within the timeout) and report the pin."""
        clock = self.chip.clock
        if not isinstance(clock, VirtualClock):
            raise TypeError("FakeIrqLine jumps the clock: give the chip a VirtualClock")
        if self.chip.irq_active:
            return True
        event = self.chip.next_event()
        limit = clock.now + (timeout if timeout is not None else 1e9)
        if event is not None and event <= limit:
            clock.now = max(clock.now, event)
        else:
            clock.now = limit
        return self.chip.irq_active


class DeadBus:
    """A chip-select where nothing answers: MISO floats high (0xFF) or is pulled low (0x00)."""

    def __init__(self, fill: int = 0xFF) -> None:
        self.fill = fill
        self.transfers = 0

    def xfer2(self, data: list[int]) -> list[int]:
        """Every byte clocked in is the fill value."""
        self.transfers += 1
        return [self.fill] * len(data)


def fake_reader(uids: Iterable[bytes] = (), **kwargs: object) -> FakeMfrc522:
    """A fake chip with tags already in its field."""
    chip = FakeMfrc522(**kwargs)  # type: ignore[arg-type]
    chip.place(*uids)
    return chip
