"""The project's own MFRC522 driver over an SPI transport with spidev's `xfer2` interface.

Why not the PyPI `mfrc522` package: its wait loop ignores the chip's timer (2013 SPI transfers per empty
poll) and it reads only cascade level 1, so distinct 7-byte UIDs collide (see hardware/README.md, Measured facts).
Here every wait ends on the chip's own timer interrupt with a short programmed timeout, presence polling
uses WUPA + HLTA so a resting tag answers every poll, and all three cascade levels (4-, 7- and 10-byte UIDs)
are read with BCC and SAK CRC checks through the ISO 14443-3 bit-oriented anticollision loop: two tags on one
reader are resolved to one (the one read before, when it is still there) and the scan says the field is
crowded, so the table can refuse the second card in words instead of reading nothing.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.hal.interfaces import ReaderError


class Reg(enum.IntEnum):
    """MFRC522 registers used by the driver (datasheet section 9)."""

    COMMAND = 0x01
    COM_IEN = 0x02
    DIV_IEN = 0x03
    COM_IRQ = 0x04
    DIV_IRQ = 0x05
    ERROR = 0x06
    STATUS2 = 0x08
    FIFO_DATA = 0x09
    FIFO_LEVEL = 0x0A
    CONTROL = 0x0C
    BIT_FRAMING = 0x0D
    COLL = 0x0E
    MODE = 0x11
    TX_MODE = 0x12
    RX_MODE = 0x13
    TX_CONTROL = 0x14
    TX_ASK = 0x15
    CRC_RESULT_H = 0x21
    CRC_RESULT_L = 0x22
    RF_CFG = 0x26
    T_MODE = 0x2A
    T_PRESCALER = 0x2B
    T_RELOAD_H = 0x2C
    T_RELOAD_L = 0x2D
    VERSION = 0x37


RF_CFG_GAIN = 0x70
"""RFCfgReg bits 6-4 (RxGain); the other bits are reserved and keep the value the chip holds."""
GAIN_DB: dict[int, int] = {18: 0x00, 23: 0x10, 33: 0x40, 38: 0x50, 43: 0x60, 48: 0x70}
"""Receiver gain in dB -> RxGain bits (datasheet table 98; 0x20/0x30 repeat 18/23 dB); read-only."""
DEFAULT_GAIN_DB = 33
"""The chip's reset value; more gain reads farther but hears a neighbour's tag sooner."""



class Cmd(enum.IntEnum):
    """CommandReg command codes."""

    IDLE = 0x00
    CALC_CRC = 0x03
    TRANSMIT = 0x04
    TRANSCEIVE = 0x0C
    SOFT_RESET = 0x0F


class Picc(enum.IntEnum):
    """ISO 14443-3 type A commands sent to the tag."""

    REQA = 0x26
    WUPA = 0x52
    SEL_CL1 = 0x93
    SEL_CL2 = 0x95
    SEL_CL3 = 0x97
    HLTA = 0x50
    CASCADE_TAG = 0x88


CASCADE_LEVELS = (Picc.SEL_CL1, Picc.SEL_CL2, Picc.SEL_CL3)
"""SEL of cascade levels 1-3: a 4-byte UID needs one, a 7-byte two, a 10-byte three."""
COLL_POS_NOT_VALID = 0x20
VALUES_AFTER_COLL = 0x80

# ComIrqReg bits
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
# ErrorReg bits
ERR_PROTOCOL = 0x01
ERR_PARITY = 0x02
ERR_CRC = 0x04
ERR_COLL = 0x08
ERR_BUFFER_OVFL = 0x10
ERR_HARD = ERR_PROTOCOL | ERR_BUFFER_OVFL
# DivIrqReg bit
DIV_CRC = 0x04

GENUINE_VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0"}
CLONE_VERSIONS = {0x88: "FM17522 clone", 0x12: "counterfeit MFRC522"}
ABSENT_VERSIONS = (0x00, 0xFF)

TIMER_TICK_S = (2 * 0xA9 + 1) / 13.56e6
"""One timer tick with TPrescaler 0xA9: 25 µs."""
BIT_S = 128 / 13.56e6
"""One bit on air at 106 kbit/s."""
FDT_S = 1236 / 13.56e6
"""Frame delay time between the end of a request and the tag's answer (ISO 14443-3, last bit 1)."""
WAKE_SLACK_S = 0.00002
"""Added to each computed wake-up: the chip's clock and ours never quite agree."""


def frame_air_s(length: int, last_bits: int = 0) -> float:
    """Time a frame of `length` bytes (the last one `last_bits` long, 0 = 8) takes on air: parity, SOF and EOF."""
    bits = (length - 1) * 8 + (last_bits or 8) if length else 0
    return (bits * 9 / 8 + 2) * BIT_S


def answer_air_s(length: int) -> float:
    """From the end of a request to the end of a `length`-byte answer."""
    return FDT_S + (length * 9 + 2) * BIT_S


class SpiLike(Protocol):
    """What the driver needs from its transport: spidev's full-duplex transfer."""

    def xfer2(self, data: list[int]) -> list[int]:
        """Clock `data` out with chip-select held low; return the bytes clocked in."""
        ...


class IrqLine(Protocol):
    """An input that goes active when the chip raises an enabled interrupt (gpiozero DigitalInputDevice)."""

    def wait_for_active(self, timeout: float | None = None) -> bool:
        """Block until active or timeout; True when active."""
        ...


class ResetLine(Protocol):
    """The chip's NRSTPD output (gpiozero DigitalOutputDevice): off holds the chip in reset."""

    def on(self) -> None:
        """Release reset."""
        ...

    def off(self) -> None:
        """Hold in reset (hard power-down)."""
        ...


class ScanStatus(enum.Enum):
    """What one poll of the field found."""

    EMPTY = "empty"
    TAG = "tag"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Scan:
    """One poll's result: a UID, nothing, or something present that could not be read (CRC, parity, no SAK).

    `crowded`: more than one tag answered (a bit collision); `uid` is then the one the anticollision loop
    selected, which is the one preferred (read before) whenever it is still in the field.
    """

    status: ScanStatus
    uid: bytes | None = None
    detail: str = ""
    crowded: bool = False


EMPTY = Scan(ScanStatus.EMPTY)


@dataclass(frozen=True)
class Health:
    """VersionReg verdict: genuine, clone, absent or unknown."""

    version: int
    verdict: str
    label: str

    @property
    def ok(self) -> bool:
        """Whether the reader can be used (genuine or a known clone)."""
        return self.verdict in ("genuine", "clone")


def classify_version(version: int) -> Health:
    """Interpret a VersionReg value (0x91/0x92 genuine, 0x88 clone, 0x00/0xFF nothing answering)."""
    if version in GENUINE_VERSIONS:
        return Health(version, "genuine", GENUINE_VERSIONS[version])
    if version in CLONE_VERSIONS:
        return Health(version, "clone", CLONE_VERSIONS[version])
    if version in ABSENT_VERSIONS:
        return Health(version, "absent", "no chip answering (check wiring, chip-select, 3.3 V)")
    return Health(version, "unknown", f"unknown chip version 0x{version:02X}")


def crc_a(data: Sequence[int]) -> bytes:
    """ISO 14443-3 CRC_A (initial 0x6363, reflected 0x8408), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(data: Sequence[int]) -> int:
    """Block check character of a UID CLn: XOR of its four bytes."""
    value = 0
    for byte in data:
        value ^= byte
    return value


@dataclass(frozen=True)
class _Reply:
    """What a transceive brought back."""

    data: bytes
    error: int
    timed_out: bool


def cascade_parts(uid: bytes) -> list[bytes]:
    """The four bytes a tag with this UID answers at each cascade level (CT 0x88 before a continued UID)."""
    levels = {4: 1, 7: 2, 10: 3}.get(len(uid), 0)
    return [(bytes((Picc.CASCADE_TAG,)) + uid[3 * i:3 * i + 3]) if i < levels - 1 else uid[3 * i:]
            for i in range(levels)]


class Mfrc522:
    """One MFRC522 on its own chip-select: version, antenna, and presence polling by WUPA + HLTA."""

    def __init__(
        self,
        spi: SpiLike,
        *,
        reset: ResetLine | None = None,
        irq: IrqLine | None = None,
        timeout_s: float = 0.0015,
        status_poll_s: float = 0.0002,
        guard_s: float = 0.05,
        gain_db: int = DEFAULT_GAIN_DB,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """Wrap an open transport; call `init()` before polling (the pi backend does)."""
        self._spi = spi
        self._reset = reset
        self._irq = irq
        self._timeout_ticks = max(1, min(0xFFFF, round(timeout_s / TIMER_TICK_S)))
        self._timeout_s = (self._timeout_ticks + 1) * TIMER_TICK_S
        self._status_poll_s = status_poll_s
        self._guard_s = guard_s
        if gain_db not in GAIN_DB:
            raise ValueError(f"receiver gain is one of {sorted(GAIN_DB)} dB, not {gain_db}")
        self._gain = GAIN_DB[gain_db]
        self._sleep = sleep
        self._monotonic = monotonic
        self._tx_last_bits = -1
        self._answered = True

    # -- register access: one SPI transfer each ----------------------------------------------------------

    def write(self, reg: int, *values: int) -> None:
        """Write one or more bytes to a register (several bytes only make sense for the FIFO)."""
        self._spi.xfer2([(reg << 1) & 0x7E, *values])

    def read(self, reg: int) -> int:
        """Read one register."""
        return self._spi.xfer2([((reg << 1) & 0x7E) | 0x80, 0])[1] & 0xFF

    def read_many(self, reg: int, count: int) -> bytes:
        """Read the same register `count` times in one transfer (drains the FIFO)."""
        address = ((reg << 1) & 0x7E) | 0x80
        return bytes(b & 0xFF for b in self._spi.xfer2([address] * count + [0])[1:])

    # -- setup and health --------------------------------------------------------------------------------

    def version(self) -> int:
        """VersionReg: 0x91/0x92 genuine, 0x88 clone, 0x00/0xFF when nothing answers."""
        return self.read(Reg.VERSION)

    def health(self) -> Health:
        """VersionReg read and classified."""
        return classify_version(self.version())

    def init(self) -> Health:
        """Reset the chip and program timer, modulation and gain; raise ReaderError when none answers."""
        if self._reset is not None:
            self._reset.off()
            self._sleep(0.001)
            self._reset.on()
            self._sleep(0.05)  # oscillator start-up after a hard power-down
        else:
            self.write(Reg.COMMAND, Cmd.SOFT_RESET)
            self._sleep(0.05)
        health = self.health()
        if health.verdict == "absent":
            raise ReaderError(f"VersionReg 0x{health.version:02X}: {health.label}", "reader_absent")
        self.write(Reg.T_MODE, 0x80)  # TAuto: the timer starts when a transmission ends
        self.write(Reg.T_PRESCALER, 0xA9)  # 25 µs ticks
        self.write(Reg.T_RELOAD_H, self._timeout_ticks >> 8)
        self.write(Reg.T_RELOAD_L, self._timeout_ticks & 0xFF)
        self.write(Reg.TX_ASK, 0x40)  # 100 % ASK, required by ISO 14443 type A
        self.write(Reg.MODE, 0x3D)  # CRC preset 0x6363 for the coprocessor
        self.write(Reg.RF_CFG, (self.read(Reg.RF_CFG) & ~RF_CFG_GAIN & 0xFF) | self._gain)  # keep reserved bits
        self.write(Reg.COLL, 0x00)  # ValuesAfterColl 0: bits after a collision read 0 (bit-oriented anticollision)
        if self._irq is not None:
            self.write(Reg.COM_IEN, 0x80 | IRQ_RX | IRQ_IDLE | IRQ_ERR | IRQ_TIMER)  # IRqInv: IRQ pin active low
        self._tx_last_bits = -1
        self.antenna_on()
        return health

    def antenna_on(self) -> None:
        """Switch the field on (TX1 and TX2); tags need up to 5 ms of field before they answer."""
        self.write(Reg.TX_CONTROL, 0x83)

    def antenna_off(self) -> None:
        """Switch the field off so this reader neither reads nor disturbs its neighbours' tags."""
        self.write(Reg.TX_CONTROL, 0x80)

    def antenna_is_on(self) -> bool:
        """Whether both antenna drivers are enabled."""
        return self.read(Reg.TX_CONTROL) & 0x03 == 0x03

    def calc_crc(self, data: Sequence[int]) -> bytes:
        """CRC_A computed by the chip's coprocessor (a data-path self test; polls use `crc_a`)."""
        self.write(Reg.COMMAND, Cmd.IDLE)
        self.write(Reg.DIV_IRQ, DIV_CRC)
        self.write(Reg.FIFO_LEVEL, 0x80)
        self.write(Reg.FIFO_DATA, *data)
        self.write(Reg.COMMAND, Cmd.CALC_CRC)
        deadline = self._monotonic() + self._guard_s
        while not self.read(Reg.DIV_IRQ) & DIV_CRC:
            if self._monotonic() > deadline:
                raise ReaderError("CRC coprocessor never finished", "reader_stuck")
            self._sleep(self._status_poll_s)
        self.write(Reg.COMMAND, Cmd.IDLE)
        return bytes((self.read(Reg.CRC_RESULT_L), self.read(Reg.CRC_RESULT_H)))

    def self_test(self) -> bool:
        """Whether the chip's CRC of a known frame matches ours (proves both SPI directions work)."""
        frame = (Picc.HLTA, 0x00)
        return self.calc_crc(frame) == crc_a(frame)

    # -- the wait loop -----------------------------------------------------------------------------------

    def _wait(self, done: int, answer_s: float | None, timer_s: float) -> int:
        """Wait for `done`, an error or the chip's timer; return ComIrqReg.

        With an IRQ line the wait blocks on it. Without one it sleeps until an answer would be complete
        (`answer_s` after the start, unless None) and then until the chip's timer has fired (`timer_s`),
        reading ComIrqReg after each sleep; only a chip that missed both goes on to short status polls until
        the guard, which catches a dead chip.
        """
        start = self._monotonic()
        deadline = start + self._guard_s
        if self._irq is None:
            for at in (timer_s,) if answer_s is None else (answer_s, timer_s):
                remaining = start + at + WAKE_SLACK_S - self._monotonic()
                if remaining > 0:
                    self._sleep(remaining)
                irq = self.read(Reg.COM_IRQ)
                if irq & (done | IRQ_ERR | IRQ_TIMER):
                    return irq
        while True:
            if self._irq is not None:
                self._irq.wait_for_active(self._guard_s)
            irq = self.read(Reg.COM_IRQ)
            if irq & (done | IRQ_ERR | IRQ_TIMER):
                return irq
            if self._monotonic() > deadline:
                raise ReaderError(f"no interrupt within {self._guard_s * 1000:.0f} ms (ComIrq 0x{irq:02X})", "reader_stuck")
            if self._irq is None:
                self._sleep(self._status_poll_s)

    def _start(self, command: Cmd, frame: Sequence[int], tx_last_bits: int, rx_align: int = 0) -> None:
        """Load the FIFO and start a command (Transceive needs StartSend, Transmit starts at once)."""
        self.write(Reg.COMMAND, Cmd.IDLE)
        self.write(Reg.COM_IRQ, 0x7F)
        self.write(Reg.FIFO_LEVEL, 0x80)
        self.write(Reg.FIFO_DATA, *frame)
        if command is Cmd.TRANSCEIVE:
            self.write(Reg.COMMAND, command)
            self.write(Reg.BIT_FRAMING, 0x80 | rx_align << 4 | tx_last_bits)
            self._tx_last_bits = rx_align << 4 | tx_last_bits
        else:
            if tx_last_bits != self._tx_last_bits:
                self.write(Reg.BIT_FRAMING, tx_last_bits)
                self._tx_last_bits = tx_last_bits
            self.write(Reg.COMMAND, command)

    def _transceive(self, frame: Sequence[int], answer_len: int, tx_last_bits: int = 0,
                    likely: bool = True, rx_align: int = 0) -> _Reply:
        """Send a frame and collect the `answer_len`-byte answer, ending on RxIRq, an error, or the chip's timeout.

        `likely=False` (nothing answered last time) skips the early look for an answer: one sleep to the timer.
        A collision is not a hard error here: the data up to it is returned with ERR_COLL for the caller.
        """
        self._start(Cmd.TRANSCEIVE, frame, tx_last_bits, rx_align)
        tx_s = frame_air_s(len(frame), tx_last_bits)
        irq = self._wait(IRQ_RX, tx_s + answer_air_s(answer_len) if likely else None, tx_s + self._timeout_s)
        if irq & IRQ_TIMER and not irq & (IRQ_RX | IRQ_ERR):
            return _Reply(b"", 0, True)
        error = self.read(Reg.ERROR) if irq & IRQ_ERR else 0
        if error & ERR_HARD:
            return _Reply(b"", error, False)
        level = self.read(Reg.FIFO_LEVEL) & 0x7F
        data = self.read_many(Reg.FIFO_DATA, level) if level else b""
        return _Reply(data, error, False)

    # -- ISO 14443-3 -------------------------------------------------------------------------------------

    def scan(self, prefer: bytes | None = None) -> Scan:
        """Wake any tag (WUPA), read one full UID through the anticollision loop, then halt it.

        With several tags in the field the loop follows `prefer` (the UID read before) at each collision, so a
        card already resting there keeps being read and the scan says `crowded`.
        """
        # An empty field is the common case: after an empty poll, sleep straight to the chip's timer; a tag
        # placed meanwhile is read at most one timer period (1.5 ms) later.
        atqa = self._transceive([Picc.WUPA], 2, tx_last_bits=7, likely=self._answered)
        self._answered = not atqa.timed_out
        if atqa.timed_out:
            return EMPTY
        crowded = bool(atqa.error & ERR_COLL)  # a 4-byte and a 7-byte tag answer different ATQAs
        if atqa.error & ~ERR_COLL or len(atqa.data) != 2:
            scan = Scan(ScanStatus.UNREADABLE, detail=_describe(atqa.error, "ATQA", atqa.data), crowded=crowded)
        else:
            scan = self._read_uid(prefer, crowded)
        # HLTA after anything answered: a read tag goes to HALT and the next WUPA wakes it again; a tag left
        # READY by an error would ignore the next WUPA, and HLTA sends it to IDLE instead.
        self._halt()
        return scan

    def _read_uid(self, prefer: bytes | None = None, crowded: bool = False) -> Scan:
        """Anticollision and select over cascade levels 1-3, after a tag answered the WUPA."""
        uid = bytearray()
        wanted = cascade_parts(prefer) if prefer else []
        for level, select in enumerate(CASCADE_LEVELS):
            found = self._anticollision(select, wanted[level] if level < len(wanted) else None)
            if isinstance(found, Scan):
                return Scan(found.status, detail=found.detail, crowded=crowded or found.crowded)
            part, collided = found
            crowded = crowded or collided
            frame = [select, 0x70, *part, bcc(part)]
            sak = self._transceive(frame + list(crc_a(frame)), 3)
            if sak.timed_out or sak.error or len(sak.data) != 3:
                return Scan(ScanStatus.UNREADABLE, detail=_describe(sak.error, "SAK", sak.data), crowded=crowded)
            if crc_a(sak.data[:1]) != sak.data[1:]:
                return Scan(ScanStatus.UNREADABLE, detail="SAK CRC error", crowded=crowded)
            if part[0] == Picc.CASCADE_TAG and sak.data[0] & 0x04:
                uid += part[1:4]
                continue
            uid += part
            return Scan(ScanStatus.TAG, bytes(uid), crowded=crowded)
        return Scan(ScanStatus.UNREADABLE, detail="the SAK still says 'cascade' after level 3", crowded=crowded)

    def _anticollision(self, select: int, wanted: bytes | None) -> tuple[bytes, bool] | Scan:
        """One cascade level's ISO 14443-3 anticollision loop: (UID CLn, whether bits collided) or UNREADABLE.

        The reader sends the bits of UID CLn it knows (NVB says how many); every tag whose UID starts so answers
        the rest. At a collision the loop takes the colliding bit from `wanted` (else 1) and asks again, so it
        ends on one tag after at most 32 rounds. CollPos counts from bit 1 of the first FIFO byte, RxAlign
        included, so the colliding bit of UID CLn is 8 x (the known whole bytes) + CollPos - 1.
        """
        known = bytearray(5)
        bits = 0
        collided = False
        while True:
            whole, extra = divmod(bits, 8)
            frame = [select, (2 + whole) << 4 | extra, *known[:whole + (1 if extra else 0)]]
            reply = self._transceive(frame, 5 - whole, tx_last_bits=extra, rx_align=extra)
            if reply.timed_out or reply.error & ~ERR_COLL or not reply.data:
                return Scan(ScanStatus.UNREADABLE, detail=_describe(reply.error, "anticollision", reply.data))
            for i, byte in enumerate(reply.data[:5 - whole]):
                if i == 0 and extra:
                    known[whole] = (known[whole] & ((1 << extra) - 1)) | (byte & ~((1 << extra) - 1) & 0xFF)
                else:
                    known[whole + i] = byte
            if not reply.error & ERR_COLL:
                if len(reply.data) != 5 - whole:
                    return Scan(ScanStatus.UNREADABLE, detail=_describe(0, "anticollision", reply.data))
                if bcc(known[:4]) != known[4]:
                    return Scan(ScanStatus.UNREADABLE, detail="BCC mismatch")
                return bytes(known[:4]), collided
            coll = self.read(Reg.COLL)
            position = 8 * whole + ((coll & 0x1F) or 32) - 1
            if coll & COLL_POS_NOT_VALID or not bits <= position < 32:
                return Scan(ScanStatus.UNREADABLE, detail="anticollision: collision outside the UID", crowded=True)
            collided = True
            byte, bit = divmod(position, 8)
            choose = (wanted[byte] >> bit) & 1 if wanted is not None else 1
            known[byte] = (known[byte] & ((1 << bit) - 1)) | (choose << bit)
            for later in range(byte + 1, 5):
                known[later] = 0
            bits = position + 1

    def request(self, wake: bool = True) -> bytes | None:
        """Only WUPA (or REQA when `wake` is False): the ATQA, or None when nothing answered cleanly."""
        reply = self._transceive([Picc.WUPA if wake else Picc.REQA], 2, tx_last_bits=7)
        return None if reply.timed_out or reply.error else reply.data

    def poll(self) -> bytes | None:
        """The UID of a tag in the field, or None (also when something unreadable is there: see `scan`)."""
        return self.scan().uid

    def _halt(self) -> None:
        """HLTA: the tag goes to HALT, and the next WUPA wakes it again; it never answers, so only transmit."""
        frame = [Picc.HLTA, 0x00, *crc_a([Picc.HLTA, 0x00])]
        self._start(Cmd.TRANSMIT, frame, 0)
        tx_s = frame_air_s(len(frame))
        self._wait(IRQ_IDLE, tx_s, tx_s + self._timeout_s)


def _describe(error: int, stage: str, data: bytes) -> str:
    """A short reason for an unreadable answer."""
    names = [n for bit, n in ((ERR_COLL, "collision"), (ERR_CRC, "CRC error"), (ERR_PARITY, "parity error"),
                              (ERR_PROTOCOL, "protocol error"), (ERR_BUFFER_OVFL, "FIFO overflow")) if error & bit]
    if names:
        return f"{stage}: {', '.join(names)}"
    return f"{stage}: unexpected {len(data)}-byte answer"
