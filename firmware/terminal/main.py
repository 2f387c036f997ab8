"""Seat terminal firmware (Raspberry Pi Pico, MicroPython): buttons, a few pixels, JSON lines over USB serial.

The loop polls stdin with `select.poll()`, so a 0x03 byte is data (`kbd_intr(-1)`), never Ctrl-C.
A choice needs a confirm press before it is sent, and is resent until the Pi answers it: an ack once the table
has counted it, an error when it refused it (the seat may choose again). The hello carries a nonce drawn at each
boot from the board's random source, so the Pi knows a new boot counts its messages from 1; a Pi answering the
hello with `error` seq 0 `duplicate_id` (another port has this id) leaves the terminal saying so, red. The hello says
how many options one screen shows; the Pi pages a longer prompt: an option whose value starts with "~" turns
the page or changes level ("more", "back", a kind of action), takes one press and is never a vote. A `phone`
message means the prompt is too big for this terminal: the seat answers on its phone. A reader or display
that fails to start leaves the terminal running; the hello names it and pixel 0 flashes magenta.

It never stops: `main()` runs the loop under a handler that logs any error to ERROR_LOG and starts it again
(a new boot number, so the Pi counts the terminal's messages afresh), a `machine.WDT` resets the board when
a loop turn hangs, and pins with two jobs are refused at start (`faults = "pins"`). Its reader reports a tag
after TAG_CONFIRM reads in a row, its loss only after UNTAG_MISSES clean empty polls (an unreadable answer
means something is still there), and two tags at once as `crowd` (the tag read before stays reported).
"""

import sys
import time

import protocol

try:
    import micropython
except ImportError:  # CPython running the firmware in tests
    micropython = None

FW_VERSION = "0.4.0"
RESEND_MS = 1000
READ_MAX = 2 * protocol.MAX_LINE
"""Bytes taken from USB serial per loop turn at most (was 256, less than one long screen line)."""
HOST_SILENT_MS = 3000
TAG_POLL_MS = 100
TAG_CONFIRM = 2
"""Consecutive reads before a tag is reported (a one-poll ghost read is nothing, as on the Pi's readers)."""
UNTAG_MISSES = 3
"""Clean empty polls in a row before a reported tag is `untag`ged: one RF glitch is not a removal."""
WDT_MS = 8000
"""The watchdog resets the board when the loop has not fed it for this long (the RP2040 allows up to 8388 ms)."""
ERROR_LOG = "errors.log"
ERROR_LOG_MAX = 4096
"""The log is started afresh past this size: flash is small and wears."""
RESTART_PAUSE_MS = 1000
RESTARTS_BEFORE_RESET = 10
"""After this many errors in a row (each within a minute of the last), the board is reset instead."""
NAV = "~"

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
else:
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

OFF = (0, 0, 0)
RED = (255, 0, 0)
GREEN = (0, 255, 0)
BLUE = (0, 0, 255)
WHITE = (255, 255, 255)
AMBER = (255, 120, 0)
PURPLE = (140, 0, 255)
MAGENTA = (255, 0, 160)


class Terminal:
    """The terminal's state machine, free of I/O: feed it lines, keys and ticks; it calls `send(bytes)`."""

    def __init__(self, ident, send, boot, reader=None, screen=protocol.MAX_OPTIONS, display=None, faults="",
                 nonce=None):
        self.ident = ident
        self.send = send
        self.boot = boot
        self.nonce = nonce or boot_nonce()
        self.refused = None
        """The Pi's code when it refused our hello (another port has our id), until it greets us again."""
        self.reader = reader
        self.screen = max(1, min(protocol.MAX_OPTIONS, screen))
        self.display = display
        self.faults = faults
        self.phone = None
        self.tag_candidate = None
        self.tag_reads = 0
        self.tag_misses = 0
        self.crowd_polls = 0
        self.crowd_sent = False
        self.prompt = None
        self.index = 0
        self.confirming = False
        self.chosen = {}
        self.seq = 0
        self.pending = {}
        self.last_host = None
        self.last_tag = None
        self.last_tag_poll = 0
        self.errors = 0
        self.sent = {}
        self.refused_at = None

    def _send(self, message):
        self.send(protocol.encode(message))

    def _next_seq(self):
        self.seq += 1
        return self.seq

    def start(self, now):
        """Introduce ourselves (lost if no host listens yet: the host's hello asks again)."""
        self._send({"t": "hello", "id": self.ident, "fw": FW_VERSION, "boot": self.boot,
                    "proto": protocol.PROTOCOL, "screen": self.screen, "display": self.display is not None,
                    "faults": self.faults, "nonce": self.nonce})

    def host_alive(self, now):
        return self.last_host is not None and ticks_diff(now, self.last_host) < HOST_SILENT_MS

    def on_line(self, line, now):
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError:
            self.errors += 1
            return
        self.last_host = now
        kind = msg["t"]
        if kind == "hello":
            self.refused = None  # asked again: the answer to this hello says whether the id is ours
            self.start(now)
            for seq in self.pending:
                self.pending[seq][1] = None  # resend at once
        elif kind == "ping":
            self._send({"t": "pong", "n": msg["n"]})
        elif kind == "ack":
            self.pending.pop(msg["seq"], None)
        elif kind == "error" and msg["seq"] == 0:
            self.refused = msg["code"]
        elif kind == "error":
            self.pending.pop(msg["seq"], None)
            ballot = self.sent.pop(msg["seq"], None)
            if ballot is not None:
                self.chosen.pop(ballot, None)  # refused: the seat may choose again
                self.refused_at = now
        elif kind == "prompt":
            if self.prompt is None or self.prompt["ballot"] != msg["ballot"]:
                self.index = 0
                self.confirming = False
            self.prompt = msg
            self.index = min(self.index, len(msg["options"]) - 1)  # the same ballot may come back shorter
            self.phone = None
        elif kind == "phone":
            self.prompt = None
            self.confirming = False
            self.phone = msg["ballot"]
        elif kind == "close":
            if self.prompt is not None and self.prompt["ballot"] == msg["ballot"]:
                self.prompt = None
                self.confirming = False
            if self.phone == msg["ballot"]:
                self.phone = None

    def on_key(self, key, now):
        prompt = self.prompt
        if prompt is None or prompt["ballot"] in self.chosen:
            return
        count = len(prompt["options"])
        self.index = min(self.index, count - 1)
        if key == "next":
            self.index = (self.index + 1) % count
            self.confirming = False
        elif key == "back":
            if self.confirming:
                self.confirming = False
            else:
                self.index = (self.index - 1) % count
        elif key == "ok":
            value = prompt["options"][self.index]["value"]
            if value.startswith(NAV):  # a page turn: one press, never marked chosen (the Pi sends the next page)
                self.confirming = False
                message = {"t": "choice", "ballot": prompt["ballot"], "seq": self._next_seq(), "value": value}
                self.pending[message["seq"]] = [message, None]
                return
            if not self.confirming:
                self.confirming = True
                return
            self.confirming = False
            message = {"t": "choice", "ballot": prompt["ballot"], "seq": self._next_seq(), "value": value}
            self.chosen[prompt["ballot"]] = value
            self.sent[message["seq"]] = prompt["ballot"]
            self.pending[message["seq"]] = [message, None]

    def tick(self, now):
        for entry in self.pending.values():
            if entry[1] is None or ticks_diff(now, entry[1]) >= RESEND_MS:
                self._send(entry[0])
                entry[1] = now
        if self.reader is not None and ticks_diff(now, self.last_tag_poll) >= TAG_POLL_MS:
            self.last_tag_poll = now
            self.poll_tag()

    def poll_tag(self):
        """Read the reader once: a tag read TAG_CONFIRM times in a row is reported, its loss (UNTAG_MISSES clean
        empty polls) is `untag`, and two tags at once for TAG_CONFIRM polls is `crowd`."""
        try:
            kind, uid, crowded = self.reader.scan(self.last_tag)
        except Exception:  # a failing read is neither a tag nor a miss; the reader may come back
            self.errors += 1
            self.tag_candidate, self.tag_reads = None, 0
            return
        uid = None if uid is None else bytes(uid)
        if crowded and uid != self.last_tag:
            uid = None  # a newcomer beside the reported tag (or two new ones): neither counts until one goes
            kind = "crowded"
        self._crowd(crowded)
        if kind == "unreadable" or (kind == "crowded" and self.last_tag is None):
            self.tag_misses = 0  # something is there: never a removal
            self.tag_candidate, self.tag_reads = None, 0
            return
        if uid is None:
            self.tag_misses += 1
            self.tag_candidate, self.tag_reads = None, 0
            if self.last_tag is not None and self.tag_misses >= UNTAG_MISSES:
                self.last_tag = None
                self._queue({"t": "untag", "seq": self._next_seq()})
            return
        self.tag_reads = self.tag_reads + 1 if uid == self.tag_candidate else 1
        self.tag_candidate = uid
        if uid == self.last_tag:
            self.tag_misses = 0
        elif self.tag_reads >= TAG_CONFIRM:
            self.tag_misses = 0
            self.last_tag = uid
            self._queue({"t": "tag", "seq": self._next_seq(), "uid": "".join("%02x" % b for b in uid)})

    def _crowd(self, crowded):
        """Say `crowd` on after TAG_CONFIRM crowded polls in a row, and off at the first poll that is not."""
        self.crowd_polls = self.crowd_polls + 1 if crowded else 0
        if crowded and self.crowd_polls >= TAG_CONFIRM and not self.crowd_sent:
            self.crowd_sent = True
            self._queue({"t": "crowd", "seq": self._next_seq(), "on": True})
        elif not crowded and self.crowd_sent:
            self.crowd_sent = False
            self._queue({"t": "crowd", "seq": self._next_seq(), "on": False})

    def _queue(self, message):
        """Send a message now and again every RESEND_MS until the Pi acknowledges it."""
        self.pending[message["seq"]] = [message, None]

    def colours(self, now):
        """Pixel 0: red no host, green idle, blue asking, blinking white confirming, amber sent, blinking purple
        "use your phone", a magenta flash every 2 s when a part failed to start; then the highlighted option
        (purple when it turns the page)."""
        blink = (now // 250) % 2 == 0
        prompt = self.prompt
        if self.faults and (now // 250) % 8 == 0:
            status = MAGENTA
        elif self.refused is not None or not self.host_alive(now) or (self.refused_at is not None and ticks_diff(now, self.refused_at) < 1000):
            status = RED
        elif self.phone is not None:
            status = PURPLE if (now // 500) % 2 == 0 else OFF
        elif prompt is None:
            status = GREEN
        elif prompt["ballot"] in self.chosen:
            status = AMBER
        elif self.confirming:
            status = WHITE if blink else OFF
        else:
            status = BLUE
        out = [status]
        if prompt is not None and prompt["ballot"] not in self.chosen:
            self.index = min(self.index, len(prompt["options"]) - 1)
            nav = prompt["options"][self.index]["value"].startswith(NAV)
            out += [OFF] * self.index + [WHITE if self.confirming else PURPLE if nav else BLUE]
        return out

    def lines(self):
        """What a display shows: the seat's screen title, and the highlighted option's label (ASCII from the Pi)."""
        if self.refused is not None:
            return [self.ident, "ID in use: unplug"]
        if self.phone is not None:
            return ["Use your phone", "to choose"]
        prompt = self.prompt
        if prompt is None:
            return [self.ident, "waiting"]
        if prompt["ballot"] in self.chosen:
            return [prompt.get("title") or "choose", "sent"]
        label = prompt["options"][min(self.index, len(prompt["options"]) - 1)]["label"]
        return [prompt.get("title") or "choose", ("OK? " if self.confirming else "> ") + label]


def screen_size(config, display):
    """Options one screen shows: config.SCREEN, else 8 with a display, else one per option pixel (at least 2)."""
    if getattr(config, "SCREEN", None):
        return config.SCREEN
    if display is not None:
        return protocol.MAX_OPTIONS
    return max(2, min(protocol.MAX_OPTIONS, config.PIXEL_COUNT - 1))


def boot_nonce():
    """16 hex digits from the board's random source (the RP2040's ring oscillator behind os.urandom), new at each
    boot: the Pi tells a new boot by it even when a seeded `random` would repeat its numbers."""
    try:
        import os
        data = os.urandom(8)
    except (ImportError, AttributeError, NotImplementedError, OSError):
        data = bytes((ticks_ms() >> s) & 0xFF for s in range(0, 64, 8))
    return "".join("%02x" % b for b in data)


def _boot_number():
    try:
        import random
        return random.getrandbits(30)
    except (ImportError, AttributeError):
        return ticks_ms() & 0x3FFFFFFF


def _io():
    """(read_available, write) for USB serial: stdin/stdout on MicroPython, fds 0/1 under CPython."""
    if sys.implementation.name == "micropython":
        stdin = sys.stdin.buffer
        stdout = sys.stdout.buffer

        def read_available(poller):
            # everything that has arrived, up to two lines' worth: a screen already here is taken whole before
            # the buttons are scanned, so a press is never counted against the screen it replaces
            data = b""
            while len(data) < READ_MAX and poller.poll(0):
                byte = stdin.read(1)
                if not byte:
                    break
                data += byte
            return data

        def write(data):
            stdout.write(data)

        return read_available, write
    import os

    def read_available(poller):
        return os.read(0, READ_MAX)

    def write(data):
        os.write(1, data)

    return read_available, write


def pin_clashes(config):
    """Every GPIO given two jobs by config.py, as "GPn: job and job" (empty when the pins are sound)."""
    jobs = []
    for key in sorted(config.BUTTON_PINS):  # a fixed order: MicroPython's dicts keep none
        jobs.append((config.BUTTON_PINS[key], "button " + key))
    if config.PIXEL_COUNT:
        jobs.append((config.PIXEL_PIN, "pixels"))
    for part, keys in (("RFID", ("sck", "mosi", "miso", "cs", "rst")), ("DISPLAY", ("sda", "scl"))):
        cfg = getattr(config, part, None)
        if cfg and not cfg.get("sim"):
            for key in keys:
                if cfg.get(key) is not None:
                    jobs.append((cfg[key], part.lower() + " " + key))
    seen = {}
    clashes = []
    for pin, job in jobs:
        if pin in seen:
            clashes.append("GP%d: %s and %s" % (pin, seen[pin], job))
        else:
            seen[pin] = job
    return clashes


def log_error(text, path=None):
    """Append one line to the error log on flash (started afresh past ERROR_LOG_MAX); never raises."""
    path = path or ERROR_LOG
    try:
        import os
        try:
            if os.stat(path)[6] > ERROR_LOG_MAX:
                os.remove(path)
        except OSError:
            pass
        with open(path, "a") as f:
            f.write(text + "\n")
    except Exception:  # a full or read-only flash must not stop the terminal
        pass


def describe_error(exc):
    """An exception as one line, with the traceback where the port can print one."""
    try:
        import io
        buf = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(exc, buf)
        else:
            import traceback
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=buf)
        return buf.getvalue().replace("\n", " | ")
    except Exception:
        return repr(exc)


def watchdog():
    """machine.WDT where the port has one (the Pico), else None (the host simulation)."""
    try:
        import machine
        return machine.WDT(timeout=WDT_MS) if hasattr(machine, "WDT") else None
    except Exception:  # a port that refuses the timeout: run without
        return None


def start_parts(config):
    """(pixels, reader, display, buttons, faults) from config.py; a part that fails is left out and named."""
    from drivers.buttons import Buttons

    clashes = pin_clashes(config)
    if clashes:  # refuse the wiring: drive no pin at all, only talk to the Pi and say why
        log_error("pins: " + "; ".join(clashes))
        return None, None, None, None, ["pins"]
    pixels = None
    if config.PIXEL_COUNT:
        from drivers.pixels import Pixels
        pixels = Pixels(config.PIXEL_PIN, config.PIXEL_COUNT, getattr(config, "PIXEL_BRIGHTNESS", 51) / 255)
    faults = []
    reader = None
    if config.RFID:
        try:
            from drivers.rfid import open_reader
            reader = open_reader(config.RFID)
        except Exception as exc:  # no chip answering, a wiring fault: run without it and say so
            log_error("reader: " + repr(exc))
            faults.append("reader")
    display = None
    if getattr(config, "DISPLAY", None):
        try:
            from drivers.display import open_display
            display = open_display(config.DISPLAY)
        except Exception as exc:
            log_error("display: " + repr(exc))
            faults.append("display")
    return pixels, reader, display, Buttons(config.BUTTON_PINS), faults


def run(config, dog, parts):
    """The loop: USB lines in, buttons, resends and the reader, pixels and display out; feeds the watchdog."""
    import select

    pixels, reader, display, buttons, faults = parts
    read_available, write = _io()
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    lines = protocol.LineBuffer()
    terminal = Terminal(config.terminal_id(), write, _boot_number(), reader, screen_size(config, display),
                        display, ",".join(faults))
    terminal.start(ticks_ms())
    while True:
        if dog is not None:
            dog.feed()
        ready = poller.poll(10)
        now = ticks_ms()
        if ready:
            try:
                data = read_available(poller)
            except OSError:
                data = b""  # the host closed the port: keep running, it may come back
            if data:
                for line in lines.feed(data):
                    if line is None:
                        terminal.errors += 1
                    else:
                        terminal.on_line(line, now)
            else:
                time.sleep(0.02)
        if buttons is not None:
            for key in buttons.scan():
                terminal.on_key(key, now)
        terminal.tick(now)
        if pixels is not None:
            pixels.show(terminal.colours(now))
        if display is not None:
            display.show(terminal.lines())


def main():
    """Start the parts, then run the loop for ever: an error is logged and the loop starts again."""
    import config

    if micropython is not None:
        micropython.kbd_intr(-1)  # 0x03 is protocol data, not Ctrl-C
    parts = start_parts(config)
    buttons = parts[3]
    if buttons is not None and "back" in buttons.pins and buttons.pins["back"].value() == 0:
        return  # "back" held at power-up: leave the USB port to the REPL for maintenance (no watchdog yet)
    dog = watchdog()
    failures = 0
    last_failure = None
    while True:
        try:
            run(config, dog, parts)
        except Exception as exc:  # noqa: BLE001 - whatever broke, the terminal comes back
            log_error("loop: " + describe_error(exc))
            now = ticks_ms()
            failures = failures + 1 if last_failure is not None and ticks_diff(now, last_failure) < 60000 else 1
            last_failure = now
            if failures >= RESTARTS_BEFORE_RESET and dog is not None:
                import machine
                machine.reset()
            time.sleep(RESTART_PAUSE_MS / 1000)


if __name__ == "__main__":
    main()
