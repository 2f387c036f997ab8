"""A few WS2812 pixels through MicroPython's `neopixel`, with a brightness cap (config.PIXEL_BRIGHTNESS)."""

import machine
import neopixel


class Pixels:
    def __init__(self, pin, count, brightness=0.2):
        self.count = count
        self.brightness = brightness
        self.np = neopixel.NeoPixel(machine.Pin(pin), count)
        self.last = None

    def show(self, colours):
        """Write colours (list of (r, g, b)); skips the write when nothing changed."""
        frame = [tuple(int(c * self.brightness) for c in colours[i]) if i < len(colours) else (0, 0, 0)
                 for i in range(self.count)]
        if frame == self.last:
            return
        for i, colour in enumerate(frame):
            self.np[i] = colour
        self.np.write()
        self.last = frame
