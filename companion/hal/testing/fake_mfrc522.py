"""A register-level MFRC522 with ISO 14443-3 type A tags, spoken to over spidev's `xfer2`.

It models what a driver can get wrong: the SPI address byte format, the FIFO, CommandReg (Idle, CalcCRC,
Transmit, Transceive, SoftReset), BitFramingReg StartSend, TxLastBits and RxAlign, ComIrqReg/DivIrqReg
set-and-clear semantics, the timer (TAuto, prescaler, reload) on a virtual clock, ErrorReg, CollReg (the
position of the first colliding bit, counted from bit 1 of the first FIFO byte, RxAlign included; and
ValuesAfterColl), ControlReg's RxLastBits, the antenna, and tags walking IDLE/READY/ACTIVE/HALT exactly as
the standard says (a resting tag polled with REQA misses every other poll). Tags have 4-, 7- or 10-byte UIDs
(cascade levels 1-3) and answer bit-oriented ANTICOLLISION frames; several tags' answers overlay bit by bit,
so two tags on one reader collide where their UIDs first differ. Every transfer advances the virtual clock by
`transfer_s`, like a real bus would.
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


Bits = list[int]
"""A frame as its bits in the order they go on air: each byte least significant bit first."""

SELECTS = (0x93, 0x95, 0x97)
"""SEL of cascade levels 1, 2 and 3."""


def to_bits(data: bytes) -> Bits:
    """Bytes as bits on air (LSB first)."""
    return [(byte >> i) & 1 for byte in data for i in range(8)]


def frame_bits(frame: bytes, last_bits: int) -> Bits:
    """The bits a frame of `frame` bytes puts on air when only `last_bits` of its last byte go (0 = all 8)."""
    bits = to_bits(frame)
    if frame and last_bits:
        bits = bits[:len(bits) - 8 + last_bits]
    return bits


@dataclass
class FakeTag:
    """A type A tag: 4-byte (MIFARE Classic), 7-byte (NTAG213) or 10-byte UID (cascade levels 1 to 3)."""

    uid: bytes
    state: TagState = TagState.IDLE
    starred: bool = False  # READY*/ACTIVE*: woken from HALT, errors send it back to HALT
    level: int = 1

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("type A UIDs are 4, 7 or 10 bytes")

    @property
    def levels(self) -> int:
        """Cascade levels this UID needs: 1, 2 or 3."""
        return {4: 1, 7: 2, 10: 3}[len(self.uid)]

    @property
    def atqa(self) -> bytes:
        """Answer to request: UID size in bits 7-6 (single 00, double 01, triple 10), bit-frame anticollision bit 2."""
        return bytes(((self.levels - 1) << 6 | 0x04, 0x00))

    def level_bytes(self, level: int) -> bytes:
        """The four UID bytes answered at a cascade level (CT 0x88 first when the UID continues)."""
        if level < self.levels:
            return bytes((0x88,)) + self.uid[3 * (level - 1):3 * level]
        return self.uid[3 * (level - 1):]

    def level_frame(self, level: int) -> bytes:
        """UID CLn and its BCC: the 40 bits the anticollision loop resolves."""
        part = self.level_bytes(level)
        return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))

    def power_off(self) -> None:
        """Leaving the field (or the field switching off) forgets everything."""
        self.state, self.starred, self.level = TagState.IDLE, False, 1

    def _error(self) -> None:
        """An unexpected frame: back to HALT if woken from there, else IDLE; no answer."""
        self.state = TagState.HALT if self.starred else TagState.IDLE
        self.level = 1

    def receive(self, frame: bytes, last_bits: int) -> Bits | None:
        """React to a frame from the reader; return the answer's bits (CRC included where the standard has one)."""
        bits = frame_bits(frame, last_bits)
        if len(bits) == 7:
            command = frame[0] & 0x7F
            if command == 0x52 and self.state in (TagState.IDLE, TagState.HALT):
                self.starred = self.state is TagState.HALT
                self.state, self.level = TagState.READY, 1
                return to_bits(self.atqa)
            if command == 0x26 and self.state is TagState.IDLE:
                self.state, self.level = TagState.READY, 1
                return to_bits(self.atqa)
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._error()
            return None
        if self.state is TagState.READY and len(bits) >= 16 and frame[0] in SELECTS:
            return self._anticollision(frame, bits)
        if self.state is TagState.ACTIVE and len(bits) == 32 and frame[:2] == b"\x50\x00" and crc_a(frame[:2]) == frame[2:4]:
            self.state, self.starred = TagState.HALT, False
            return None
        if self.state in (TagState.READY, TagState.ACTIVE):
            self._error()
        return None

    def _anticollision(self, frame: bytes, bits: Bits) -> Bits | None:
        """ANTICOLLISION (NVB below 0x70: answer the rest of UID CLn) or SELECT (NVB 0x70 with CRC: answer SAK)."""
        if frame[0] != SELECTS[self.level - 1]:
            self._error()
            return None
        nvb = frame[1]
        known = (nvb >> 4) * 8 + (nvb & 0x0F) - 16
        mine = to_bits(self.level_frame(self.level))
        if nvb == 0x70:
            if len(frame) != 9 or len(bits) != 72 or crc_a(frame[:7]) != frame[7:9]:
                self._error()
                return None
            if frame[2:7] != self.level_frame(self.level):
                return None  # another tag's UID: stay READY, stay silent
            if self.level < self.levels:
                self.level += 1
                sak = bytes((0x04,))
            else:
                self.state = TagState.ACTIVE
                sak = bytes(({1: 0x08, 2: 0x00, 3: 0x20}[self.levels],))
            return to_bits(sak + crc_a(sak))
        if not 0 <= known < 40 or len(bits) != 16 + known or nvb & 0x0F > 7:
            self._error()
            return None
        if bits[16:] != mine[:known]:
            return None  # the known bits are not ours: keep quiet, stay READY
        return mine[known:]


RESET_VALUES = {0x01: 0x20, 0x02: 0x80, 0x0C: 0x10, 0x0B: 0x08, 0x0E: 0xA0, 0x11: 0x3F, 0x14: 0x80, 0x26: 0x48}
"""Registers whose reset value is not 0 (datasheet section 9.3); RFCfgReg's bit 3 is reserved and reads 1."""


@dataclass
class _Operation:
    """A frame on air: when it ends, what comes back, and when the timer would fire."""

    command: int
    tx_end: float
    answer: Bits | None
    error: int
    coll_pos: int | None
    rx_end: float
    timer_at: float | None
    tx_done: bool = False
    rx_done: bool = False
    timer_done: bool = False


@dataclass
class FakeMfrc522:
    """The chip on one chip-select: implements `xfer2` and counts transfers.

    Knobs for faults: `fail_next` SPI transfers raise OSError; the next `corrupt_next` answers arrive with a
    flipped byte and a parity error; the next `crc_errors_next` answers carrying a CRC (SAK) arrive with a wrong
    CRC but good parity (what the driver's own CRC check, or RxCRCEn's CRCErr, must catch).
    """

    clock: VirtualClock | WallClock = field(default_factory=VirtualClock)
    version: int = 0x92
    transfer_s: float = 40e-6
    tags: list[FakeTag] = field(default_factory=list)
    transfers: int = 0
    fail_next: int = 0
    corrupt_next: int = 0
    crc_errors_next: int = 0

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
        elif reg == 0x0E:
            self.regs[0x0E] = (self.regs[0x0E] & 0x3F) | (value & 0x80)  # only ValuesAfterColl is writable
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
        bits = len(frame_bits(frame, last_bits))
        tx_end = self.clock.now + (bits * 9 / 8 + 2) * BIT_S
        answers = [a for a in (t.receive(frame, last_bits) for t in (self.tags if self.antenna_on else [])) if a is not None]
        answer, error, coll_pos = _combine(answers, keep_after_collision=bool(self.regs[0x0E] & 0x80))
        if answer is not None and self.corrupt_next > 0:
            self.corrupt_next -= 1
            answer = answer[:-8] + [b ^ m for b, m in zip(answer[-8:], to_bits(b"\x5a"))]
            error |= 0x02  # the parity of the corrupted byte fails too
        elif answer is not None and len(answer) == 24 and self.crc_errors_next > 0:
            self.crc_errors_next -= 1
            answer = answer[:-1] + [answer[-1] ^ 1]  # the CRC's last bit: parity still good, CRC wrong
        if answer is not None and self.regs[0x13] & 0x80:
            data = _pack(answer, 0)
            if len(answer) % 8 or len(data) < 3 or crc_a(data[:-2]) != data[-2:]:
                error |= 0x04
            answer = answer[:-16]
        rx_end = tx_end + FDT_S + (len(answer or []) * 9 / 8 + 2) * BIT_S
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
            align = (self.regs[0x0D] >> 4) & 0x07
            answer = op.answer or []
            self.fifo.extend(_pack(answer, align))
            self.regs[0x0C] = (self.regs[0x0C] & 0xF8) | ((align + len(answer)) % 8)  # RxLastBits
            self.regs[0x06] |= op.error
            position = None if op.coll_pos is None else align + op.coll_pos + 1
            if position is None or position > 32:
                self.regs[0x0E] = (self.regs[0x0E] & 0x80) | 0x20  # CollPosNotValid
            else:
                self.regs[0x0E] = (self.regs[0x0E] & 0x80) | (position % 32)
            self.regs[0x04] |= 0x20 | (0x02 if op.error else 0)
        if op.timer_at is not None and not op.timer_done and now >= op.timer_at:
            op.timer_done = True
            self.regs[0x04] |= 0x01


def _pack(bits: Bits, align: int) -> bytes:
    """Received bits into FIFO bytes, the first stored from bit `align` of the first byte (RxAlign)."""
    padded = [0] * align + bits
    return bytes(sum(b << i for i, b in enumerate(padded[k:k + 8])) for k in range(0, len(padded), 8))


def _combine(answers: list[Bits], keep_after_collision: bool) -> tuple[Bits | None, int, int | None]:
    """Overlay several tags' answers bit by bit: the first bit where they differ is a collision (CollErr, its
    index); from there on the chip keeps the received bits (ValuesAfterColl 1, the reset value) or clears them."""
    if not answers:
        return None, 0, None
    first = answers[0]
    if len(answers) == 1:
        return first, 0, None
    length = max(len(a) for a in answers)
    merged = [0] * length
    collision = None
    for index in range(length):
        values = {a[index] for a in answers if index < len(a)}
        if len(values) > 1 or any(index >= len(a) for a in answers):
            collision = index if collision is None else collision
        merged[index] = max(values) if values else 0
    if collision is None:
        return merged, 0, None
    if not keep_after_collision:
        merged = merged[:collision] + [0] * (length - collision)
    return merged, 0x08, collision


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
