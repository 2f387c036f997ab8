"""MFRC522 for the terminal's own reader: the same algorithm as the Pi's driver (companion/hal/mfrc522.py), cut
down for MicroPython. Waits end on the chip's timer; WUPA + HLTA so a resting tag answers every poll; the ISO
14443-3 bit-oriented anticollision loop over cascade levels 1-3 (4-, 7- and 10-byte UIDs) with BCC and SAK CRC
checks: two tags are resolved to one (the one read before, when it is still there) and the scan says so. Talks
to anything with `xfer2(list) -> list`, so the tests run it against the Pi side's register-level fake chip."""

import time

if hasattr(time, "ticks_ms"):
    _ticks_ms = time.ticks_ms
    _ticks_diff = time.ticks_diff
else:
    def _ticks_ms():
        return int(time.monotonic() * 1000)

    def _ticks_diff(a, b):
        return a - b

if hasattr(time, "sleep_ms"):
    _sleep_ms = time.sleep_ms
else:
    def _sleep_ms(ms):
        time.sleep(ms / 1000)

RESET_MS = 50
"""Wait after the soft reset before reading VersionReg (the oscillator restarts; datasheet: up to ~37.7 ms)."""
SPI_HZ = 1000000
"""The terminal's reader sits 5 cm from the Pico: 1 MHz has a wide margin (hardware/README.md, SPI timing)."""
GAINS = {18: 0x00, 23: 0x10, 33: 0x40, 38: 0x50, 43: 0x60, 48: 0x70}
"""Receiver gain in dB -> RFCfgReg RxGain bits (the other bits are reserved and kept)."""
SELECTS = (0x93, 0x95, 0x97)

EMPTY = "empty"
TAG = "tag"
UNREADABLE = "unreadable"


def crc_a(data):
    """ISO 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(data):
    return data[0] ^ data[1] ^ data[2] ^ data[3]


def cascade_parts(uid):
    """The four bytes a tag with this UID answers at each cascade level (CT 0x88 before a continued UID)."""
    levels = {4: 1, 7: 2, 10: 3}.get(len(uid), 0)
    out = []
    for i in range(levels):
        out.append(bytes((0x88,)) + uid[3 * i:3 * i + 3] if i < levels - 1 else uid[3 * i:])
    return out


class SpiBus:
    """machine.SPI plus a chip-select pin, offering spidev's `xfer2`."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)

    def xfer2(self, data):
        out = bytearray(len(data))
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes(data), out)
        finally:
            self.cs.value(1)
        return list(out)


class Reader:
    """`scan(prefer)` -> (EMPTY | TAG | UNREADABLE, uid bytes or None, crowded); `poll()` the UID or None."""

    def __init__(self, bus, timeout_ticks=60, guard_ms=50, gain_db=33, now_ms=_ticks_ms, diff=_ticks_diff,
                 sleep_ms=_sleep_ms):
        if gain_db not in GAINS:
            raise ValueError("gain_db is one of 18, 23, 33, 38, 43, 48")
        self.bus = bus
        self.sleep_ms = sleep_ms
        self.timeout_ticks = timeout_ticks  # 60 x 25 µs = 1.5 ms, as on the Pi
        self.guard_ms = guard_ms
        self.gain = GAINS[gain_db]
        self.now_ms = now_ms
        self.diff = diff

    def write(self, reg, *values):
        self.bus.xfer2([(reg << 1) & 0x7E] + list(values))

    def read(self, reg):
        return self.bus.xfer2([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def init(self):
        """Soft reset, timer (TAuto, 25 µs ticks), 100 % ASK, CRC preset, gain (reserved bits kept), antenna on;
        the VersionReg value."""
        self.write(0x01, 0x0F)
        self.sleep_ms(RESET_MS)  # the chip ignores the bus while its oscillator restarts after a soft reset
        version = self.read(0x37)
        if version in (0x00, 0xFF):
            raise OSError("no MFRC522 answering (VersionReg 0x%02X)" % version)
        for reg, value in ((0x2A, 0x80), (0x2B, 0xA9), (0x2C, self.timeout_ticks >> 8),
                           (0x2D, self.timeout_ticks & 0xFF), (0x15, 0x40), (0x11, 0x3D)):
            self.write(reg, value)
        self.write(0x26, (self.read(0x26) & 0x8F) | self.gain)
        self.write(0x0E, 0x00)  # ValuesAfterColl 0: bits after a collision read 0
        self.write(0x14, 0x83)
        return version

    def _wait(self, done):
        start = self.now_ms()
        while True:
            irq = self.read(0x04)
            if irq & (done | 0x03):
                return irq
            if self.diff(self.now_ms(), start) > self.guard_ms:
                raise OSError("MFRC522 stuck (ComIrq 0x%02X)" % irq)

    def _start(self, command, frame, framing):
        self.write(0x01, 0x00)
        self.write(0x04, 0x7F)
        self.write(0x0A, 0x80)
        self.write(0x09, *frame)
        if command == 0x0C:
            self.write(0x01, command)
            self.write(0x0D, 0x80 | framing)
        else:
            self.write(0x0D, framing)
            self.write(0x01, command)

    def _transceive(self, frame, last_bits=0, align=0):
        """(data, error bits, timed out): ErrorReg's bits; a collision still returns the bits before it."""
        self._start(0x0C, frame, align << 4 | last_bits)
        irq = self._wait(0x20)
        if irq & 0x01 and not irq & 0x22:
            return b"", 0, True
        error = self.read(0x06) & 0x1F if irq & 0x02 else 0
        if error & 0x11:  # protocol error or FIFO overflow: nothing usable
            return b"", error, False
        level = self.read(0x0A) & 0x7F
        data = bytes(self.bus.xfer2([0x92] * level + [0])[1:]) if level else b""
        return data, error, False

    def _halt(self):
        frame = [0x50, 0x00]
        self._start(0x04, frame + list(crc_a(frame)), 0)
        self._wait(0x10)

    def poll(self):
        """The UID of a tag in the field, or None (also when something unreadable is there: see `scan`)."""
        return self.scan()[1]

    def scan(self, prefer=None):
        """WUPA, one full UID through the anticollision loop (following `prefer` at collisions), HLTA."""
        atqa, error, timed_out = self._transceive([0x52], 7)
        if timed_out:
            return EMPTY, None, False
        crowded = bool(error & 0x08)
        if error & ~0x08 or len(atqa) != 2:
            result = (UNREADABLE, None, crowded)
        else:
            result = self._read_uid(prefer, crowded)
        self._halt()
        return result

    def _read_uid(self, prefer, crowded):
        uid = b""
        wanted = cascade_parts(prefer) if prefer else []
        for level in range(3):
            select = SELECTS[level]
            part, collided = self._anticollision(select, wanted[level] if level < len(wanted) else None)
            crowded = crowded or collided
            if part is None:
                return UNREADABLE, None, crowded
            frame = [select, 0x70] + list(part) + [bcc(part)]
            sak, error, timed_out = self._transceive(frame + list(crc_a(frame)))
            if timed_out or error or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return UNREADABLE, None, crowded
            if part[0] == 0x88 and sak[0] & 0x04:
                uid += part[1:4]
                continue
            return TAG, uid + part, crowded
        return UNREADABLE, None, crowded

    def _anticollision(self, select, wanted):
        """One cascade level: (UID CLn or None, whether bits collided). At a collision the bit is taken from
        `wanted` (else 1); CollPos counts from bit 1 of the first FIFO byte, RxAlign included."""
        known = bytearray(5)
        bits = 0
        collided = False
        while True:
            whole = bits // 8
            extra = bits % 8
            frame = [select, (2 + whole) << 4 | extra] + list(known[:whole + (1 if extra else 0)])
            data, error, timed_out = self._transceive(frame, extra, extra)
            if timed_out or error & ~0x08 or not data:
                return None, collided
            for i in range(min(len(data), 5 - whole)):
                if i == 0 and extra:
                    mask = (1 << extra) - 1
                    known[whole] = (known[whole] & mask) | (data[0] & ~mask & 0xFF)
                else:
                    known[whole + i] = data[i]
            if not error & 0x08:
                if len(data) != 5 - whole or bcc(known) != known[4]:
                    return None, collided
                return bytes(known[:4]), collided
            coll = self.read(0x0E)
            position = 8 * whole + ((coll & 0x1F) or 32) - 1
            if coll & 0x20 or position < bits or position >= 32:
                return None, True
            collided = True
            byte = position // 8
            bit = position % 8
            choose = (wanted[byte] >> bit) & 1 if wanted is not None else 1
            known[byte] = (known[byte] & ((1 << bit) - 1)) | (choose << bit)
            for later in range(byte + 1, 5):
                known[later] = 0
            bits = position + 1


def open_reader(cfg):
    """The reader described by config.RFID: SPI bus, pins, clock, gain, optional reset line held high."""
    from machine import SPI, Pin

    if cfg.get("rst") is not None:
        Pin(cfg["rst"], Pin.OUT).value(1)
    spi = SPI(cfg.get("spi", 0), baudrate=cfg.get("hz", SPI_HZ), polarity=0, phase=0,
              sck=Pin(cfg["sck"]), mosi=Pin(cfg["mosi"]), miso=Pin(cfg["miso"]))
    reader = Reader(SpiBus(spi, Pin(cfg["cs"], Pin.OUT)), gain_db=cfg.get("gain_db", 33))
    reader.init()
    return reader
