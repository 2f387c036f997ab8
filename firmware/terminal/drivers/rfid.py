"""MFRC522 for the terminal's own reader: the same algorithm as the Pi's driver (companion/hal/mfrc522.py),
cut down for MicroPython. Waits end on the chip's timer; WUPA + HLTA so a resting tag answers every poll;
cascade levels 1 and 2 with BCC and SAK CRC checks. Talks to anything with `xfer2(list) -> list`, so the
tests run it against the Pi side's register-level fake chip."""

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


def crc_a(data):
    """ISO 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


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
    """`poll()` returns the UID bytes of a tag in the field, or None."""

    def __init__(self, bus, timeout_ticks=60, guard_ms=50, now_ms=_ticks_ms, diff=_ticks_diff, sleep_ms=_sleep_ms):
        self.bus = bus
        self.sleep_ms = sleep_ms
        self.timeout_ticks = timeout_ticks  # 60 x 25 µs = 1.5 ms, as on the Pi
        self.guard_ms = guard_ms
        self.now_ms = now_ms
        self.diff = diff

    def write(self, reg, *values):
        self.bus.xfer2([(reg << 1) & 0x7E] + list(values))

    def read(self, reg):
        return self.bus.xfer2([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def init(self):
        """Soft reset, timer (TAuto, 25 µs ticks), 100 % ASK, CRC preset, antenna on; the VersionReg value."""
        self.write(0x01, 0x0F)
        self.sleep_ms(RESET_MS)  # the chip ignores the bus while its oscillator restarts after a soft reset
        version = self.read(0x37)
        if version in (0x00, 0xFF):
            raise OSError("no MFRC522 answering (VersionReg 0x%02X)" % version)
        for reg, value in ((0x2A, 0x80), (0x2B, 0xA9), (0x2C, self.timeout_ticks >> 8),
                           (0x2D, self.timeout_ticks & 0xFF), (0x15, 0x40), (0x11, 0x3D), (0x14, 0x83)):
            self.write(reg, value)
        return version

    def _wait(self, done):
        start = self.now_ms()
        while True:
            irq = self.read(0x04)
            if irq & (done | 0x03):
                return irq
            if self.diff(self.now_ms(), start) > self.guard_ms:
                raise OSError("MFRC522 stuck (ComIrq 0x%02X)" % irq)

    def _start(self, command, frame, last_bits):
        self.write(0x01, 0x00)
        self.write(0x04, 0x7F)
        self.write(0x0A, 0x80)
        self.write(0x09, *frame)
        if command == 0x0C:
            self.write(0x01, command)
            self.write(0x0D, 0x80 | last_bits)
        else:
            self.write(0x0D, last_bits)
            self.write(0x01, command)

    def _transceive(self, frame, last_bits=0):
        """(data, ok): ok False on timeout or error."""
        self._start(0x0C, frame, last_bits)
        irq = self._wait(0x20)
        if irq & 0x01 and not irq & 0x22:
            return b"", False
        if irq & 0x02 and self.read(0x06) & 0x1F:
            return b"", False
        level = self.read(0x0A) & 0x7F
        data = bytes(self.bus.xfer2([0x92] * level + [0])[1:]) if level else b""
        return data, True

    def _halt(self):
        frame = [0x50, 0x00]
        self._start(0x04, frame + list(crc_a(frame)), 0)
        self._wait(0x10)

    def poll(self):
        """WUPA, read the UID over both cascade levels, HLTA; None when nothing (readable) is there."""
        self._start(0x0C, [0x52], 7)
        irq = self._wait(0x20)
        if irq & 0x01 and not irq & 0x22:
            return None  # the chip's timer: nothing answered
        ok = not (irq & 0x02 and self.read(0x06) & 0x1F)
        level = self.read(0x0A) & 0x7F
        atqa = bytes(self.bus.xfer2([0x92] * level + [0])[1:]) if level else b""
        uid = self._read_uid() if ok and len(atqa) == 2 else None
        self._halt()
        return uid

    def _read_uid(self):
        uid = b""
        for select in (0x93, 0x95):
            part, ok = self._transceive([select, 0x20])
            if not ok or len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            frame = [select, 0x70] + list(part)
            sak, ok = self._transceive(frame + list(crc_a(frame)))
            if not ok or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if part[0] == 0x88 and sak[0] & 0x04:
                uid += part[1:4]
                continue
            return uid + part[:4]
        return None


def open_reader(cfg):
    """The reader described by config.RFID: SPI bus, pins, optional reset line held high."""
    from machine import SPI, Pin

    if cfg.get("rst") is not None:
        Pin(cfg["rst"], Pin.OUT).value(1)
    spi = SPI(cfg.get("spi", 0), baudrate=1000000, polarity=0, phase=0,
              sck=Pin(cfg["sck"]), mosi=Pin(cfg["mosi"]), miso=Pin(cfg["miso"]))
    reader = Reader(SpiBus(spi, Pin(cfg["cs"], Pin.OUT)))
    reader.init()
    return reader
