"""Seat terminal firmware (Raspberry Pi Pico, MicroPython): buttons, a few pixels, JSON lines over USB serial.

The loop polls stdin with `select.poll()`, so a 0x03 byte is data (`kbd_intr(-1)`), never Ctrl-C.
A choice needs a confirm press before it is sent, and is resent until the Pi acknowledges it. The hello says
how many options one screen shows; the Pi pages a longer prompt: an option whose value starts with "~" turns
the page or changes level ("more", "back", a kind of action), takes one press and is never a vote. A `phone`
message means the prompt is too big for this terminal: the seat answers on its phone. A reader or display
that fails to start leaves the terminal running; the hello names it and pixel 0 flashes magenta.
"""

import sys
import time

import protocol

try:
    import micropython
except ImportError:  # CPython running the firmware in tests
    micropython = None

FW_VERSION = "0.2.1"
RESEND_MS = 1000
READ_MAX = 2 * protocol.MAX_LINE
"""Bytes taken from USB serial per loop turn at most (was 256, less than one long screen line)."""
HOST_SILENT_MS = 3000
TAG_POLL_MS = 100
TAG_CONFIRM = 2
"""Consecutive reads before a tag is reported (a one-poll ghost read is nothing, as on the Pi's readers)."""
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

    def __init__(self, ident, send, boot, reader=None, screen=protocol.MAX_OPTIONS, display=None, faults=""):
        self.ident = ident
        self.send = send
        self.boot = boot
        self.reader = reader
        self.screen = max(1, min(protocol.MAX_OPTIONS, screen))
        self.display = display
        self.faults = faults
        self.phone = None
        self.tag_candidate = None
        self.tag_reads = 0
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
                    "faults": self.faults})

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
            self.start(now)
            for seq in self.pending:
                self.pending[seq][1] = None  # resend at once
        elif kind == "ping":
            self._send({"t": "pong", "n": msg["n"]})
        elif kind == "ack":
            self.pending.pop(msg["seq"], None)
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
        """Read the reader once: a tag read TAG_CONFIRM times in a row is reported, its loss is `untag`."""
        try:
            uid = self.reader.poll()
        except Exception:  # a failing read is a miss; the reader may come back
            self.errors += 1
            uid = None
        uid = None if uid is None else bytes(uid)
        self.tag_reads = self.tag_reads + 1 if uid == self.tag_candidate else 1
        self.tag_candidate = uid
        message = None
        if uid is not None and self.tag_reads >= TAG_CONFIRM and uid != self.last_tag:
            message = {"t": "tag", "seq": self._next_seq(), "uid": "".join("%02x" % b for b in uid)}
            self.last_tag = uid
        elif uid is None and self.last_tag is not None:
            message = {"t": "untag", "seq": self._next_seq()}
            self.last_tag = None
        if message is not None:
            self.pending[message["seq"]] = [message, None]

    def colours(self, now):
        """Pixel 0: red no host, green idle, blue asking, blinking white confirming, amber sent, blinking purple
        "use your phone", a magenta flash every 2 s when a part failed to start; then the highlighted option
        (purple when it turns the page)."""
        blink = (now // 250) % 2 == 0
        prompt = self.prompt
        if self.faults and (now // 250) % 8 == 0:
            status = MAGENTA
        elif not self.host_alive(now) or (self.refused_at is not None and ticks_diff(now, self.refused_at) < 1000):
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
            nav = prompt["options"][self.index]["value"].startswith(NAV)
            out += [OFF] * self.index + [WHITE if self.confirming else PURPLE if nav else BLUE]
        return out

    def lines(self):
        """What a display shows: the seat's screen title, and the highlighted option's label (ASCII from the Pi)."""
        if self.phone is not None:
            return ["Use your phone", "to choose"]
        prompt = self.prompt
        if prompt is None:
            return [self.ident, "waiting"]
        if prompt["ballot"] in self.chosen:
            return [prompt.get("title") or "choose", "sent"]
        label = prompt["options"][self.index]["label"]
        return [prompt.get("title") or "choose", ("OK? " if self.confirming else "> ") + label]


def screen_size(config, display):
    """Options one screen shows: config.SCREEN, else 8 with a display, else one per option pixel (at least 2)."""
    if getattr(config, "SCREEN", None):
        return config.SCREEN
    if display is not None:
        return protocol.MAX_OPTIONS
    return max(2, min(protocol.MAX_OPTIONS, config.PIXEL_COUNT - 1))


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


def main():
    import select

    import config
    from drivers.buttons import Buttons

    if micropython is not None:
        micropython.kbd_intr(-1)  # 0x03 is protocol data, not Ctrl-C
    pixels = None
    if config.PIXEL_COUNT:
        from drivers.pixels import Pixels
        pixels = Pixels(config.PIXEL_PIN, config.PIXEL_COUNT)
    faults = []
    reader = None
    if config.RFID:
        try:
            from drivers.rfid import open_reader
            reader = open_reader(config.RFID)
        except Exception:  # no chip answering, a wiring fault: run without it and say so
            faults.append("reader")
    display = None
    if getattr(config, "DISPLAY", None):
        try:
            from drivers.display import open_display
            display = open_display(config.DISPLAY)
        except Exception:
            faults.append("display")
    buttons = Buttons(config.BUTTON_PINS)
    if "back" in buttons.pins and buttons.pins["back"].value() == 0:
        return  # "back" held at power-up: leave the USB port to the REPL for maintenance
    read_available, write = _io()
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    lines = protocol.LineBuffer()
    terminal = Terminal(config.terminal_id(), write, _boot_number(), reader, screen_size(config, display),
                        display, ",".join(faults))
    terminal.start(ticks_ms())
    while True:
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
        for key in buttons.scan():
            terminal.on_key(key, now)
        terminal.tick(now)
        if pixels is not None:
            pixels.show(terminal.colours(now))
        if display is not None:
            display.show(terminal.lines())


if __name__ == "__main__":
    main()
