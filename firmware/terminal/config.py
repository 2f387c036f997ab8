"""Pins of one seat terminal (Raspberry Pi Pico). Edit to match your wiring; see hardware/terminal.md."""

BUTTON_PINS = {"next": 14, "ok": 15, "back": 13}
"""Buttons wired from the GPIO to ground; internal pull-ups are used."""

PIXEL_PIN = 16
PIXEL_COUNT = 4
"""WS2812 pixels: the first shows the link state, the others the highlighted option."""

SCREEN = None
"""Options one screen shows (said in the hello; the Pi pages longer prompts). None: 8 with a display, else one
per option pixel (PIXEL_COUNT - 1, at least 2)."""

DISPLAY = None
"""An optional SSD1306 128x64 OLED on I2C, e.g. {"i2c": 0, "sda": 4, "scl": 5, "addr": 0x3C}."""

RFID = None
"""An optional MFRC522 on SPI0, e.g. {"spi": 0, "sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20}."""


def terminal_id():
    """A stable id from the board's flash serial number: 'T-' and 16 hex digits."""
    import machine
    return "T-" + "".join("%02x" % b for b in machine.unique_id())
