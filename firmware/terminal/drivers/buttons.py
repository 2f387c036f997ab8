"""Debounced push buttons on GPIO pins (pressed = low, internal pull-up)."""

from machine import Pin

STABLE_READS = 2


class Buttons:
    """Call `scan()` every loop turn; it returns the keys newly pressed since the last call."""

    def __init__(self, pins):
        self.pins = {}
        self.stable = {}
        self.count = {}
        for key, number in pins.items():
            self.pins[key] = Pin(number, Pin.IN, Pin.PULL_UP)
            self.stable[key] = 1
            self.count[key] = 0

    def scan(self):
        pressed = []
        for key, pin in self.pins.items():
            value = pin.value()
            if value == self.stable[key]:
                self.count[key] = 0
                continue
            self.count[key] += 1
            if self.count[key] >= STABLE_READS:
                self.stable[key] = value
                self.count[key] = 0
                if value == 0:
                    pressed.append(key)
        return pressed
