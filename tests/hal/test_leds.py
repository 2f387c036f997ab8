"""LED backends tested through the bytes they write: spidev encoding and rpi-ws281x through a fake module."""

from __future__ import annotations

import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.config import demo_config
from companion.hal.leds import (
    RESET_BYTES, SPI_HZ, WS2812B_V5_NS, WS2812B_V5_RESET_US, LedError, Shaper, SpidevStrip, Ws281xStrip,
    config_shaper, decode_spi, encode_spi, gamma_table, milliamps, pulses,
)
from companion.hal.mock import MockStrip


class RecordingSpi:
    def __init__(self) -> None:
        self.max_speed_hz = 0
        self.mode = -1
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_each_led_bit_is_one_nibble_1100_for_one_and_1000_for_zero() -> None:
    def symbols(value: int) -> bytes:
        return encode_spi(bytes((value,)))[RESET_BYTES:-RESET_BYTES]

    assert symbols(0x00) == bytes((0x88, 0x88, 0x88, 0x88))
    assert symbols(0xFF) == bytes((0xCC, 0xCC, 0xCC, 0xCC))
    assert symbols(0x80) == bytes((0xC8, 0x88, 0x88, 0x88))
    assert symbols(0x5A) == bytes((0x8C, 0x8C, 0xC8, 0xC8))
    assert encode_spi(b"") == bytes(2 * RESET_BYTES)
    assert encode_spi(b"\x00\x01") == bytes(RESET_BYTES) + b"\x88\x88\x88\x88\x88\x88\x88\x8c" + bytes(RESET_BYTES)


def test_encoding_round_trips_between_a_leading_and_a_trailing_reset() -> None:
    grb = bytes(range(0, 256, 7))
    stream = encode_spi(grb)
    assert len(stream) == RESET_BYTES + 4 * len(grb) + RESET_BYTES
    assert stream.startswith(bytes(RESET_BYTES)) and stream.endswith(bytes(RESET_BYTES))
    assert decode_spi(stream) == grb


def spi_clock(core_hz: float, wanted_hz: float) -> float:
    """What the Pi's SPI block runs at when asked for `wanted_hz`: the core clock over an even divider, rounded down."""
    divider = -(-core_hz // wanted_hz)
    divider += divider % 2
    return core_hz / divider


@pytest.mark.parametrize("spi_hz", [
    SPI_HZ,
    spi_clock(500e6, SPI_HZ),  # Pi 4 with core_freq=500 (install.sh sets it)
    spi_clock(400e6, SPI_HZ),  # Pi 3 / Zero 2 core clock
    spi_clock(200e6, SPI_HZ),  # Pi 5: RP1's SPI clock
])
def test_every_decoded_high_and_low_time_is_inside_the_ws2812b_v5_windows(spi_hz: float) -> None:
    stream = encode_spi(bytes(range(256)) + bytes((0x00, 0xFF, 0x55, 0xAA)))
    timings = pulses(stream, spi_hz)
    assert len(timings) == 8 * 260
    bits = [bit for byte in decode_spi(stream) for bit in ((byte >> i) & 1 for i in range(7, -1, -1))]
    for index, ((high, low), bit) in enumerate(zip(timings, bits)):
        lo_h, hi_h = WS2812B_V5_NS[f"T{bit}H"]
        lo_l, hi_l = WS2812B_V5_NS[f"T{bit}L"]
        assert lo_h <= high <= hi_h, f"pulse {index}: T{bit}H {high:.0f} ns at {spi_hz / 1e6:.3f} MHz"
        if index < len(timings) - 1:
            assert lo_l <= low <= hi_l, f"pulse {index}: T{bit}L {low:.0f} ns at {spi_hz / 1e6:.3f} MHz"
    leading = (len(stream) - len(stream.lstrip(b"\0"))) * 8 / spi_hz * 1e6
    assert leading >= WS2812B_V5_RESET_US and timings[-1][1] / 1000 >= WS2812B_V5_RESET_US


def test_a_pause_between_spi_bytes_only_stretches_a_low_time() -> None:
    """Every SPI byte holds two whole symbols and ends low: idle time between bytes never splits a bit."""
    for value in range(256):
        for byte in encode_spi(bytes((value,)))[RESET_BYTES:-RESET_BYTES]:
            assert byte & 0x11 == 0, f"byte {byte:08b} of {value:#04x} ends a nibble high"
            assert byte & 0x88 == 0x88, f"byte {byte:08b} of {value:#04x} has a nibble that never goes high"


def test_decoder_refuses_garbage() -> None:
    with pytest.raises(ValueError):
        decode_spi(b"\xff\xff\xff" + bytes(10))


def test_gamma_table_endpoints_and_identity() -> None:
    table = gamma_table(2.2)
    assert table[0] == 0 and table[255] == 255 and table[128] < 128
    assert gamma_table(1.0) == bytes(range(256))
    with pytest.raises(ValueError):
        gamma_table(0)


def test_shaper_orders_grb_and_caps_brightness() -> None:
    shaper = Shaper(brightness=0.5, gamma=1.0)
    assert shaper.grb([(255, 0, 0), (0, 255, 0), (0, 0, 255)]) == bytes((0, 127, 0, 127, 0, 0, 0, 0, 127))
    with pytest.raises(ValueError):
        Shaper(brightness=1.5)


def test_current_limit_scales_a_white_frame_down() -> None:
    shaper = Shaper(brightness=1.0, gamma=1.0, max_milliamps=600.0)
    grb = shaper.grb([(255, 255, 255)] * 20)  # 20 LEDs x 61 mA = 1220 mA asked
    assert 590 <= milliamps(grb) <= 600
    assert Shaper(brightness=1.0, gamma=1.0, max_milliamps=600.0).grb([(255, 0, 0)]) == bytes((0, 255, 0))


@pytest.mark.parametrize("brightness", [1.0, 0.5, 0.25])
def test_current_limit_holds_at_any_brightness_for_a_120_led_strip_on_a_4_a_supply(brightness: float) -> None:
    shaper = Shaper(brightness=brightness, gamma=2.2, max_milliamps=3500.0)
    for colour in ((255, 255, 255), (255, 0, 0), (255, 255, 0)):
        grb = shaper.grb([colour] * 120)
        assert milliamps(grb) <= 3500.0


def test_without_the_limit_full_white_on_120_leds_would_draw_about_7_a() -> None:
    assert milliamps(Shaper(brightness=1.0, gamma=2.2).grb([(255, 255, 255)] * 120)) > 7000


def test_spidev_strip_writes_the_encoded_frame_at_3_2_mhz() -> None:
    spi = RecordingSpi()
    strip = SpidevStrip(3, shaper=Shaper(brightness=1.0, gamma=1.0), spi=spi)
    assert spi.max_speed_hz == SPI_HZ and spi.mode == 0
    strip.show([(1, 2, 3), (255, 0, 128)])
    assert decode_spi(spi.writes[-1]) == bytes((2, 1, 3, 0, 255, 128, 0, 0, 0))
    strip.close()
    assert decode_spi(spi.writes[-1]) == bytes(9) and spi.closed


def test_spidev_strip_without_spidev_is_a_clear_error() -> None:
    with pytest.raises(LedError) as info:
        SpidevStrip(3, bus=9, device=9)
    assert info.value.code == "led_spi_unavailable"


class FakeWs281x:
    """Stands in for the rpi_ws281x module: PixelStrip records calls and refuses pixels before begin()."""

    def __init__(self, begin_error: str | None = None) -> None:
        self.begin_error = begin_error
        self.strips: list[object] = []
        outer = self

        class PixelStrip:
            def __init__(self, num: int, pin: int, **kwargs: object) -> None:
                self.num, self.pin, self.kwargs = num, pin, kwargs
                self.begun = False
                self.pixels = [0] * num
                self.frames: list[list[int]] = []
                self._leds = object()
                outer.strips.append(self)

            def begin(self) -> None:
                if outer.begin_error:
                    raise RuntimeError(outer.begin_error)
                self.begun = True

            def setPixelColor(self, n: int, color: int) -> None:  # noqa: N802 - the library's name
                assert self.begun, "a pixel call before begin() segfaults the real library"
                self.pixels[n] = color

            def show(self) -> None:
                assert self.begun
                self.frames.append(list(self.pixels))

        self.PixelStrip = PixelStrip
        self.Color = lambda r, g, b: (r << 16) | (g << 8) | b

    def module(self) -> types.SimpleNamespace:
        return types.SimpleNamespace(PixelStrip=self.PixelStrip, Color=self.Color)


def test_ws281x_strip_sets_shaped_pixels_then_shows() -> None:
    fake = FakeWs281x()
    strip = Ws281xStrip(2, pin=18, shaper=Shaper(brightness=0.5, gamma=1.0), module=fake.module())
    strip.show([(255, 128, 0)])
    (pixel_strip,) = fake.strips
    assert pixel_strip.kwargs["brightness"] == 255 and pixel_strip.kwargs["channel"] == 0
    assert pixel_strip.frames == [[(127 << 16) | (64 << 8), 0]]


def test_ws281x_channel_follows_the_pin() -> None:
    fake = FakeWs281x()
    Ws281xStrip(1, pin=13, module=fake.module())
    Ws281xStrip(1, pin=10, module=fake.module())
    assert [s.kwargs["channel"] for s in fake.strips] == [1, 0]


def test_ws281x_failed_begin_is_a_clear_error_and_the_strip_is_never_touched() -> None:
    fake = FakeWs281x(begin_error="ws2811_init failed with code -5 (mmap() failed)")
    with pytest.raises(LedError) as info:
        Ws281xStrip(4, pin=18, module=fake.module())
    assert info.value.code == "led_init_failed" and "root" in info.value.message
    (pixel_strip,) = fake.strips
    assert pixel_strip.frames == [] and pixel_strip._leds is None


def test_ws281x_refuses_a_pin_that_cannot_drive_leds() -> None:
    with pytest.raises(LedError) as info:
        Ws281xStrip(4, pin=4, module=FakeWs281x().module())
    assert info.value.code == "led_bad_pin"


def _reference_grb(shaper: Shaper, pixels: list[tuple[Any, Any, Any]]) -> bytes:
    """The shaping as specified: per channel clamp, gamma, brightness; the whole frame scaled to the budget."""
    duty = [shaper.table[min(255, max(0, int(c)))] * shaper.brightness for r, g, b in pixels for c in (g, r, b)]
    if shaper.max_milliamps is not None:
        budget = max(0.0, shaper.max_milliamps - 1.0 * len(pixels))
        total = sum(duty) / 255 * 20.0
        if total > budget:
            duty = [d * (budget / total) for d in duty]
    return bytes(int(d) for d in duty)


@settings(max_examples=300, deadline=None)
@given(brightness=st.sampled_from([0.0, 0.1, 0.5, 0.77, 1.0]), gamma=st.sampled_from([1.0, 2.2, 2.8]),
       cap=st.sampled_from([None, 100.0, 600.0, 3500.0]),
       pixels=st.lists(st.tuples(*[st.integers(0, 255)] * 3), max_size=150),
       odd=st.lists(st.tuples(st.integers(-40, 300), st.floats(-10, 300), st.integers(0, 255)), max_size=3))
def test_the_table_lookup_shaping_gives_the_specified_bytes(brightness: float, gamma: float, cap: float | None,
                                                            pixels: list[tuple[Any, Any, Any]],
                                                            odd: list[tuple[Any, Any, Any]]) -> None:
    shaper = Shaper(brightness=brightness, gamma=gamma, max_milliamps=cap)
    assert shaper.grb(pixels) == _reference_grb(shaper, pixels)
    assert shaper.grb(pixels + odd) == _reference_grb(shaper, pixels + odd)  # floats, out of range: clamped


def test_the_mock_strip_shapes_and_encodes_each_frame_as_the_spidev_strip_writes_it() -> None:
    leds = demo_config().leds
    frame = [(255, 40, 0), (0, 0, 0), (12, 200, 255)] + [(255, 255, 255)] * (leds.pixels - 3)
    spi = RecordingSpi()
    SpidevStrip(leds.pixels, shaper=config_shaper(leds), spi=spi).show(frame)
    mock = MockStrip(leds.pixels, config_shaper(leds))
    mock.show(frame)
    assert mock.wire == spi.writes[-1] and mock.last() == tuple(frame)
    assert decode_spi(mock.wire) == config_shaper(leds).grb(frame)
    with pytest.raises(ValueError):
        mock.show(frame[:-1])  # a frame of the wrong length, refused as before
