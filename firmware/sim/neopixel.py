"""Stand-in for MicroPython's `neopixel` on a host (tests only): writes each frame to $TERMINAL_SIM_PIXELS."""

import os

_OUT = os.getenv("TERMINAL_SIM_PIXELS")


class NeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count

    def __setitem__(self, index, colour):
        self.pixels[index] = colour

    def write(self):
        if _OUT:
            with open(_OUT, "w") as f:
                f.write(" ".join("%d,%d,%d" % p for p in self.pixels))
