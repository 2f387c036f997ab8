"""Runs firmware pieces on request, under MicroPython's unix port or CPython alike: one JSON request a line in,
one answer a line out. The terminal's reader talks to its chip through the host (a `cb` line per SPI transfer,
clock read or sleep), so the firmware driver meets the Pi side's register-level fake chip.

Usage: mp_harness.py FIRMWARE_DIR (a directory of .py or of mpy-cross's .mpy files).
"""

import gc
import json
import sys

gc.collect()
_BASE = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
sys.path.insert(0, sys.argv[1])
import main  # noqa: E402
import protocol  # noqa: E402
from drivers import display, rfid  # noqa: E402

gc.collect()
IMPORTED = (gc.mem_alloc() - _BASE) if hasattr(gc, "mem_alloc") else 0

_in = sys.stdin
_out = sys.stdout


def _say(obj):
    _out.write(json.dumps(obj) + "\n")
    _out.flush()


def _ask(obj):
    _say(obj)
    return json.loads(_in.readline())["ret"]


class RemoteBus:
    def xfer2(self, data):
        return _ask({"cb": "xfer", "data": list(data)})


def _now_ms():
    return _ask({"cb": "now"})


def _sleep_ms(ms):
    _ask({"cb": "sleep", "ms": ms})


class Oled:
    def __init__(self):
        self.calls = []

    def fill(self, colour):
        self.calls.append(["fill", colour])

    def text(self, text, x, y, colour):
        self.calls.append(["text", text, y])

    def hline(self, x, y, width, colour):
        self.calls.append(["hline", y])

    def show(self):
        self.calls.append(["show"])


class Script:
    """A reader answering scripted scans: [kind, uid hex or None, crowded] each."""

    def __init__(self, scans):
        self.scans = scans

    def scan(self, prefer=None):
        if not self.scans:
            return "empty", None, False
        kind, uid, crowded = self.scans.pop(0)
        if kind == "raise":
            raise OSError("bus")
        return kind, None if uid is None else bytes(int(uid[i:i + 2], 16) for i in range(0, len(uid), 2)), crowded


def plain(value):
    """A firmware value as JSON: bytes as hex, tuples as lists, dict keys as strings."""
    if isinstance(value, (bytes, bytearray)):
        return "".join("%02x" % b for b in value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


class Harness:
    def __init__(self):
        self.objects = {}
        self.wires = {}

    def op_memory(self):
        gc.collect()
        return {"imported": IMPORTED, "free": gc.mem_free() if hasattr(gc, "mem_free") else 0,
                "implementation": sys.implementation.name}

    def op_reader(self, gain_db=33):
        reader = rfid.Reader(RemoteBus(), gain_db=gain_db, now_ms=_now_ms, diff=lambda a, b: a - b,
                             sleep_ms=_sleep_ms)
        handle = len(self.objects)
        self.objects[handle] = reader
        return handle

    def op_terminal(self, ident, boot, screen=protocol.MAX_OPTIONS, faults="", reader=None, script=None,
                    display_=False):
        wire = []
        source = self.objects[reader] if reader is not None else (Script(script) if script is not None else None)
        screen_ = display.Display(Oled()) if display_ else None
        terminal = main.Terminal(ident, wire.append, boot, source, screen, screen_, faults)
        handle = len(self.objects)
        self.objects[handle] = terminal
        self.wires[handle] = wire
        return handle

    def op_call(self, handle, method, args=()):
        obj = self.objects[handle]
        args = [bytes(a, "utf-8") if isinstance(a, str) and method == "on_line" else a for a in args]
        if method == "scan" and args and args[0] is not None:
            args[0] = bytes(int(args[0][i:i + 2], 16) for i in range(0, len(args[0]), 2))
        return plain(getattr(obj, method)(*args))

    def op_get(self, handle, name):
        return plain(getattr(self.objects[handle], name))

    def op_sent(self, handle):
        wire = self.wires[handle]
        out = [line.decode("utf-8") for line in wire]
        del wire[:]
        return out

    def op_oled(self, handle):
        return plain(self.objects[handle].display.oled.calls)

    def op_module(self, module, name, args=()):
        return plain(getattr({"main": main, "rfid": rfid, "display": display, "protocol": protocol}[module],
                             name)(*args))

    def op_clashes(self, config):
        class Config:
            pass

        cfg = Config()
        for key, value in config.items():
            setattr(cfg, key, value)
        return main.pin_clashes(cfg)


def serve():
    harness = Harness()
    _say({"ready": True})
    while True:
        line = _in.readline()
        if not line:
            return
        request = json.loads(line)
        try:
            result = getattr(harness, "op_" + request.pop("op"))(**request)
            _say({"ret": result})
        except Exception as exc:  # the host test reports it
            _say({"err": type(exc).__name__ + ": " + str(exc)})


serve()
