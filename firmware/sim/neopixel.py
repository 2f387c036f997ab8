"""Stand-in for MicroPython's `neopixel` on a host (tests only): writes each frame to $TERMINAL_SIM_PIXELS."""

import os

_OUT = os.getenv("TERMINAL_SIM_PIXELS")
_CRASH = os.getenv("TERMINAL_SIM_CRASH")
"""A file: while it says "crash", the next write fails as a broken pixel line would (once; the file is emptied)."""


class NeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count

    def __setitem__(self, index, colour):
        self.pixels[index] = colour

    def write(self):
        if _CRASH:
            try:
                with open(_CRASH) as f:
                    crash = f.read().strip() == "crash"
            except OSError:
                crash = False
            if crash:
                with open(_CRASH, "w") as f:
                    f.write("")
                raise OSError("pixel write failed (simulated)")
        if _OUT:
            with open(_OUT, "w") as f:
                f.write(" ".join("%d,%d,%d" % p for p in self.pixels))
