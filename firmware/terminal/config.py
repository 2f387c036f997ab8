"""Pins of one seat terminal (Raspberry Pi Pico). Edit to match your wiring; see hardware/terminal.md.

No GPIO may have two jobs: main.py refuses a clash at start (the hello says `faults = "pins"`, pixel 0 stays
dark, and the terminal only talks to the Pi until the pins are fixed)."""

BUTTON_PINS = {"next": 14, "ok": 15, "back": 13}
"""Buttons wired from the GPIO to ground; internal pull-ups are used."""

PIXEL_PIN = 22
PIXEL_COUNT = 4
"""WS2812 pixels through a 74AHCT1G125 powered from VBUS (5 V data for 5 V pixels): the first shows the link
state, the others the highlighted option."""
PIXEL_BRIGHTNESS = 51
"""The pixels' brightness cap, 0..255 (51: at most 13 mA a pixel; the Pi's power budget reads the same figure
from `[terminals] pixel_brightness`)."""

SCREEN = None
"""Options one screen shows (said in the hello; the Pi pages longer prompts). None: 8 with a display, else one
per option pixel (PIXEL_COUNT - 1, at least 2)."""

DISPLAY = None
"""An optional SSD1306 128x64 OLED on I2C, e.g. {"i2c": 0, "sda": 4, "scl": 5, "addr": 0x3C}."""

RFID = {"spi": 0, "sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20, "hz": 1000000, "gain_db": 33}
"""The seat's MFRC522 on SPI0 (the reference builds of 5 seats and more); None for a terminal without one."""


def terminal_id():
    """A stable id from the board's flash serial number: 'T-' and 16 hex digits."""
    import machine
    return "T-" + "".join("%02x" % b for b in machine.unique_id())
