"""WS281x strips on a Pi: a pure spidev encoder (Pi 5, no root) and rpi-ws281x (PWM or SPI mode, Pi 1-4).

Both take a frame of (r, g, b) tuples, apply gamma and a brightness and current limit, and write GRB.
Vendor modules are imported only inside the constructors; tests pass fakes that record bytes.
"""

from __future__ import annotations

import binascii
import importlib
from collections.abc import Sequence
from itertools import chain
from types import ModuleType
from typing import Any, Protocol

from companion.config import LedConfig
from companion.errors import DeviceError
from companion.hal.interfaces import LedStrip

Rgb = tuple[int, int, int]

SPI_HZ = 3_200_000
"""Four SPI bits per LED bit, one LED bit per nibble: 3.2 MHz gives WS281x's 800 kHz with 312.5 ns SPI bits.
A 0 is 1000 (high 312.5 ns, low 937.5 ns), a 1 is 1100 (625 ns, 625 ns): inside the WS2812B-V5 windows
(T0H 220-380 ns, T0L/T1H/T1L 580-1000 ns). Whole symbols per byte, so a pause between SPI bytes only
stretches a low time instead of cutting a bit in two. The Pi rounds the clock down (core clock / an even
divider: 3.165 MHz from a 500 MHz Pi 4 core, 3.125 MHz on a Pi 5), which stays inside the windows too."""
RESET_BYTES = 120
"""Zero bytes before and after each frame: 120 x 8 / 3.2 MHz = 300 µs low, above the V5's 280 µs reset."""
WS2812B_V5_NS: dict[str, tuple[float, float]] = {"T0H": (220, 380), "T0L": (580, 1000), "T1H": (580, 1000),
                                                 "T1L": (580, 1000)}
"""The WS2812B-V5 datasheet's high and low time windows in ns; read-only."""
WS2812B_V5_RESET_US = 280.0
MILLIAMPS_PER_CHANNEL = 20.0
"""Roughly what one fully lit colour channel of a 5050 WS2812B draws."""
IDLE_MILLIAMPS_PER_LED = 1.0
"""What each WS2812B draws even when dark (its driver chip)."""
GAMMA = 2.2
"""The strip's gamma: WS2812 duty is linear in light, eyes are not."""
PWM_PINS = {12: 0, 18: 0, 13: 1, 19: 1}
"""rpi-ws281x PWM pins and their channel; GPIO10 means SPI mode, GPIO21 PCM."""


class LedError(DeviceError):
    """The strip cannot be driven (wrong pin, no permission, not a Pi)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)

    def __str__(self) -> str:
        return self.message


def gamma_table(gamma: float) -> bytes:
    """256-entry lookup mapping linear intensity to PWM duty (gamma 1.0 is identity)."""
    if gamma <= 0:
        raise ValueError("gamma must be positive")
    return bytes(round(255 * (i / 255) ** gamma) for i in range(256))


class Shaper:
    """Gamma, a brightness ceiling and an optional supply-current limit, applied to whole frames."""

    def __init__(self, brightness: float = 0.5, gamma: float = 2.2, max_milliamps: float | None = None) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError("brightness must be within 0..1")
        self.brightness = brightness
        self.table = gamma_table(gamma)
        self.max_milliamps = max_milliamps
        # per channel value, its duty (gamma, then brightness) as a float and as the byte it becomes uncapped:
        # a frame is then one table lookup per channel, done in C (a Pi Zero 2 showed 80 LEDs in ~3 ms before)
        self._duty = tuple(self.table[i] * brightness for i in range(256))
        self._duty_bytes = bytes(int(d) for d in self._duty)
        self._full = max(self._duty)

    def grb(self, pixels: Sequence[Rgb]) -> bytes:
        """The bytes a WS2812 chain wants: G, R, B per pixel; gamma first, then the duty ceiling and current cap.

        The cap scales the whole frame so the strip's estimated draw (every lit channel plus each LED's idle
        current) stays within `max_milliamps`, whatever the brightness.
        """
        try:
            raw = bytes(chain.from_iterable(pixels))  # every channel an int 0..255, else the clamping path
        except (TypeError, ValueError):
            return self._grb_clamped(pixels)
        if len(raw) != 3 * len(pixels):
            return self._grb_clamped(pixels)
        order = bytearray(len(raw))
        order[0::3], order[1::3], order[2::3] = raw[1::3], raw[0::3], raw[2::3]
        if self.max_milliamps is not None and self._may_exceed(len(pixels)) and self._over_budget(
                sum(map(self._duty.__getitem__, order)), len(pixels)):
            # the same float arithmetic as the clamping path, in the same order, so both give the same bytes
            return self._capped(list(map(self._duty.__getitem__, order)), len(pixels))
        return order.translate(self._duty_bytes)

    def _grb_clamped(self, pixels: Sequence[Rgb]) -> bytes:
        """`grb` for frames holding floats or channels out of 0..255 (each clamped first)."""
        duty = [self._duty[min(255, max(0, int(c)))] for r, g, b in pixels for c in (g, r, b)]
        if self.max_milliamps is None:
            return bytes(map(int, duty))
        return self._capped(duty, len(pixels))

    def _budget(self, leds: int) -> float:
        """The milliamps the lit channels may draw (the limit less every LED's idle current)."""
        assert self.max_milliamps is not None
        return max(0.0, self.max_milliamps - IDLE_MILLIAMPS_PER_LED * leds)

    def _may_exceed(self, leds: int) -> bool:
        """Whether `leds` LEDs all at full duty would draw more than the budget (else no frame needs the sum)."""
        return 3 * leds * self._full / 255 * MILLIAMPS_PER_CHANNEL * (1 + 1e-9) > self._budget(leds)

    def _over_budget(self, duty_sum: float, leds: int) -> bool:
        return duty_sum / 255 * MILLIAMPS_PER_CHANNEL > self._budget(leds)

    def _capped(self, duty: list[float], leds: int) -> bytes:
        """Duty values as bytes, the whole frame scaled down when its estimated draw exceeds the limit."""
        total = sum(duty) / 255 * MILLIAMPS_PER_CHANNEL
        budget = self._budget(leds)
        if total > budget:
            duty = list(map((budget / total).__mul__, duty))
        return bytes(map(int, duty))


def config_shaper(leds: LedConfig) -> Shaper:
    """The shaping the table config asks for (brightness 0..255, the current budget), at GAMMA."""
    return Shaper(brightness=leds.brightness / 255, gamma=GAMMA, max_milliamps=leds.max_milliamps)


def milliamps(grb: bytes) -> float:
    """The estimated draw of a strip showing these GRB bytes (one per channel, three per LED)."""
    return sum(grb) / 255 * MILLIAMPS_PER_CHANNEL + IDLE_MILLIAMPS_PER_LED * len(grb) / 3


SPI_NIBBLES = bytes.maketrans(b"01", b"8c")
"""An LED bit as the hex digit of its SPI nibble: a 1 is 1100 (c), a 0 is 1000 (8), most significant first."""
SYMBOLS = {0x8: 0, 0xC: 1}
"""SPI nibble -> the LED bit it draws; read-only."""


def encode_spi(grb: bytes, reset_bytes: int = RESET_BYTES) -> bytes:
    """GRB bytes as the SPI stream that draws them at SPI_HZ, between a leading and a trailing reset."""
    # the frame's bits as one string of 0s and 1s, each made its nibble's hex digit: three C-level passes over
    # the frame instead of a table lookup per byte (10 us instead of 27 here for 80 LEDs)
    bits = format(int.from_bytes(grb, "big"), f"0{8 * len(grb)}b").encode() if grb else b""
    return bytes(reset_bytes) + binascii.a2b_hex(bits.translate(SPI_NIBBLES)) + bytes(reset_bytes)


def decode_spi(stream: bytes) -> bytes:
    """The GRB bytes an SPI stream draws (leading reset skipped, stops at the trailing one); refuses a bad symbol."""
    body = stream.lstrip(b"\0")
    out = bytearray()
    for start in range(0, len(body) - 3, 4):
        chunk = body[start:start + 4]
        if not any(chunk):
            break
        value = 0
        for byte in chunk:
            for nibble in (byte >> 4, byte & 0xF):
                if nibble not in SYMBOLS:
                    raise ValueError(f"not a WS281x symbol at byte {start}: {nibble:04b}")
                value = (value << 1) | SYMBOLS[nibble]
        out.append(value)
    return bytes(out)


def pulses(stream: bytes, spi_hz: float = SPI_HZ) -> list[tuple[float, float]]:
    """The (high ns, low ns) of every pulse MOSI draws, the last one's low being the trailing reset."""
    bit_ns = 1e9 / spi_hz
    runs: list[tuple[int, int]] = []  # (level, length in SPI bits)
    for byte in stream:
        for i in range(7, -1, -1):
            level = byte >> i & 1
            if runs and runs[-1][0] == level:
                runs[-1] = (level, runs[-1][1] + 1)
            else:
                runs.append((level, 1))
    if runs and runs[0][0] == 0:
        runs.pop(0)  # the leading reset
    return [(high * bit_ns, (runs[i + 1][1] if i + 1 < len(runs) else 0) * bit_ns)
            for i, (level, high) in enumerate(runs) if level == 1]


class NullStrip(LedStrip):
    """A table without LEDs (pixels = 0)."""

    def __init__(self) -> None:
        self.pixel_count = 0

    def show(self, frame: Sequence[Rgb]) -> None:
        """Nothing to light."""


class SpiWriter(Protocol):
    """What the spidev backend needs: spidev.SpiDev's writing side."""

    max_speed_hz: int
    mode: int

    def writebytes2(self, data: bytes) -> None:
        """Write a buffer of any length."""
        ...


class SpidevStrip(LedStrip):
    """WS281x on SPI MOSI (GPIO10 on SPI0) by bit encoding: no root, no DMA, works on the Pi 5."""

    def __init__(self, count: int, *, shaper: Shaper | None = None, spi: SpiWriter | None = None,
                 bus: int = 0, device: int = 0) -> None:
        """Open /dev/spidev{bus}.{device} unless a transport is given."""
        if count < 1:
            raise ValueError("a strip needs at least one LED")
        self.count = self.pixel_count = count
        self.shaper = shaper or Shaper()
        if spi is None:
            try:
                spidev = importlib.import_module("spidev")
            except ImportError as exc:
                raise LedError("led_spi_unavailable", "spidev is missing: `sudo apt-get install python3-spidev` "
                               "(the venv needs --system-site-packages)") from exc
            try:
                device_spi = spidev.SpiDev()
                device_spi.open(bus, device)
            except OSError as exc:
                raise LedError("led_spi_unavailable", f"cannot open /dev/spidev{bus}.{device} for the LED strip: {exc}") from exc
            spi = device_spi
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0
        self._spi = spi

    def show(self, pixels: Sequence[Rgb]) -> None:
        """Draw a frame (missing pixels are off, extra ones ignored)."""
        frame = list(pixels[: self.count]) + [(0, 0, 0)] * (self.count - len(pixels))
        self._spi.writebytes2(encode_spi(self.shaper.grb(frame)))

    def close(self) -> None:
        """Switch every LED off and release the bus."""
        self.show([])
        closer = getattr(self._spi, "close", None)
        if closer is not None:
            closer()


class Ws281xStrip(LedStrip):
    """WS281x through rpi-ws281x: PWM (GPIO18/12/13/19, root) or SPI mode (GPIO10, no root); Pi 1-4 only."""

    def __init__(self, count: int, *, pin: int = 18, shaper: Shaper | None = None, dma: int = 10,
                 freq_hz: int = 800_000, invert: bool = False, module: ModuleType | Any | None = None) -> None:
        """Create and `begin()` the strip; on failure raise LedError and never touch the strip again."""
        if count < 1:
            raise ValueError("a strip needs at least one LED")
        if pin not in PWM_PINS and pin not in (10, 21):
            raise LedError("led_bad_pin", f"GPIO{pin} cannot drive WS281x (use 18, 12, 13, 19 for PWM, 10 for SPI, 21 for PCM)")
        if module is None:
            try:
                module = importlib.import_module("rpi_ws281x")
            except ImportError as exc:
                raise LedError("led_library_missing", "rpi-ws281x is not installed (systemd/install.sh --with-ws281x, "
                               "or pip install '.[ws281x]'; the SPI mode needs none)") from exc
        self.count = self.pixel_count = count
        self.shaper = shaper or Shaper()
        self._color = module.Color
        strip = module.PixelStrip(count, pin, freq_hz=freq_hz, dma=dma, invert=invert, brightness=255,
                                  channel=PWM_PINS.get(pin, 0))
        try:
            strip.begin()
        except RuntimeError as exc:
            # A strip whose begin() failed segfaults on any pixel call and in its exit-time cleanup:
            # detach its C structure so the library's atexit hook has nothing to free.
            if hasattr(strip, "_leds"):
                strip._leds = None
            raise LedError("led_init_failed", f"rpi-ws281x could not start on GPIO{pin}: {exc} "
                           "(PWM needs root; use GPIO10 for SPI mode, or the spidev backend on a Pi 5)") from exc
        self._strip = strip

    def show(self, pixels: Sequence[Rgb]) -> None:
        """Draw a frame (missing pixels are off, extra ones ignored)."""
        frame = list(pixels[: self.count]) + [(0, 0, 0)] * (self.count - len(pixels))
        grb = self.shaper.grb(frame)
        for i in range(self.count):
            g, r, b = grb[3 * i: 3 * i + 3]
            self._strip.setPixelColor(i, self._color(r, g, b))
        self._strip.show()

    def close(self) -> None:
        """Switch every LED off."""
        self.show([])
