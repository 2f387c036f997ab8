"""Stand-in for MicroPython's `machine` when the firmware runs on a host behind a pty (tests, bench).

Button presses come from the file named by $TERMINAL_SIM_PRESSES: one GPIO number per line, appended by
the test for each press. Presses play in file order, one at a time, each reading low for three scans of
its pin and then high for three, like a finger that presses, holds and lets go.
"""

import os

_PRESSES = os.getenv("TERMINAL_SIM_PRESSES")


def _sequence():
    if not _PRESSES:
        return []
    try:
        with open(_PRESSES) as f:
            return f.read().split()
    except OSError:
        return []


def unique_id():
    text = os.getenv("TERMINAL_SIM_UID") or "e660583883724a32"
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


class _Finger:
    cursor = 0
    phase = 0


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, number, mode=-1, pull=-1):
        self.number = str(number)

    def value(self, *args):
        if _Finger.phase == 0:
            sequence = _sequence()
            if _Finger.cursor >= len(sequence) or sequence[_Finger.cursor] != self.number:
                return 1
            _Finger.phase = 6
            _Finger.current = self.number
        elif _Finger.current != self.number:
            return 1
        _Finger.phase -= 1
        if _Finger.phase == 0:
            _Finger.cursor += 1
        return 0 if _Finger.phase >= 3 else 1


class WDT:
    """The watchdog on a host: fed, never fires (the tests kill the process instead)."""

    def __init__(self, timeout=5000):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1
