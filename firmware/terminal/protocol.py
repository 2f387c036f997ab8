"""Seat-terminal protocol: one JSON object per line over USB serial; every line says "v":1 (the line format).

This firmware speaks protocol PROTOCOL (4), announced as `proto` in its hello: optional hello fields (`proto`,
`screen`, `display`, `faults`), an optional prompt `title`, `phone` and `untag` (protocol 2), `crowd` (3: two
or more tags on the terminal's reader, or no longer), the hello's `nonce` (4: random at each boot) and the Pi's
answer to a hello whose id another port holds: `error` seq 0 `duplicate_id`. A v1 side leaves them out.

MicroPython and CPython both run this file (no typing, dataclasses or f-strings needing newer ports).
Encoding writes keys in a fixed order with a hand-made string encoder so both produce the same bytes;
decoding is lenient about key order and extra keys, strict about types. Errors carry a stable code.
"""

import json

VERSION = 1
PROTOCOL = 4
MAX_LINE = 1024
MAX_OPTIONS = 8

# type -> ordered ((field, kind), ...); kinds: "str", "id", "int", "opts", "hex", "bool"
FIELDS = {
    "hello": (("id", "id"), ("fw", "str"), ("boot", "int"), ("proto", "int"), ("screen", "int"),
              ("display", "bool"), ("faults", "str"), ("nonce", "id")),
    "prompt": (("ballot", "id"), ("options", "opts"), ("title", "str")),
    "phone": (("ballot", "id"),),
    "close": (("ballot", "id"),),
    "choice": (("ballot", "id"), ("seq", "int"), ("value", "str")),
    "ack": (("seq", "int"),),
    "error": (("seq", "int"), ("code", "id")),
    "tag": (("seq", "int"), ("uid", "hex")),
    "untag": (("seq", "int"),),
    "crowd": (("seq", "int"), ("on", "bool")),
    "ping": (("n", "int"),),
    "pong": (("n", "int"),),
}

OPTIONAL = ("proto", "screen", "display", "faults", "title", "nonce")
"""Fields a message may leave out (a v1 side never sends them)."""

ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:"
HEX_CHARS = "0123456789abcdef"


class ProtocolError(Exception):
    """A line that is not a valid message; `code` is stable: too_long, bad_json, bad_version, unknown_type, bad_field."""

    def __init__(self, code, detail=""):
        super().__init__(code + (": " + detail if detail else ""))
        self.code = code
        self.detail = detail


def _check(kind, value, name):
    """Validate one field; return it or raise bad_field."""
    if value is None and name in OPTIONAL:
        return None
    if kind == "bool":
        if type(value) is not bool:
            raise ProtocolError("bad_field", name)
    elif kind == "int":
        if type(value) is not int or value < 0 or value > 0x7FFFFFFF:
            raise ProtocolError("bad_field", name)
    elif kind in ("str", "id"):
        if type(value) is not str or len(value) > 64:
            raise ProtocolError("bad_field", name)
        for ch in value:
            if ord(ch) < 0x20 or ch == "\x7f":
                raise ProtocolError("bad_field", name)
            if kind == "id" and ch not in ID_CHARS:
                raise ProtocolError("bad_field", name)
        if kind == "id" and not value:
            raise ProtocolError("bad_field", name)
    elif kind == "hex":
        if type(value) is not str or len(value) not in (8, 14, 20):
            raise ProtocolError("bad_field", name)
        for ch in value:
            if ch not in HEX_CHARS:
                raise ProtocolError("bad_field", name)
    elif kind == "opts":
        if type(value) is not list or not value or len(value) > MAX_OPTIONS:
            raise ProtocolError("bad_field", name)
        out = []
        for item in value:
            if type(item) is not dict:
                raise ProtocolError("bad_field", name)
            out.append({"value": _check("str", item.get("value"), name), "label": _check("str", item.get("label"), name)})
        return out
    return value


def _string(value):
    """JSON string without escapes beyond quote and backslash (control characters are refused earlier)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value(kind, value):
    if kind == "bool":
        return "true" if value else "false"
    if kind == "int":
        return str(value)
    if kind == "opts":
        return "[" + ",".join('{"value":' + _string(o["value"]) + ',"label":' + _string(o["label"]) + "}" for o in value) + "]"
    return _string(value)


def encode(message):
    """A message dict ({"t": type, fields...}) as one line of UTF-8 bytes ending in a newline."""
    kind = message.get("t")
    if kind not in FIELDS:
        raise ProtocolError("unknown_type", str(kind))
    parts = ['{"v":' + str(VERSION), '"t":' + _string(kind)]
    for name, field_kind in FIELDS[kind]:
        value = _check(field_kind, message.get(name), name)
        if value is not None:
            parts.append(_string(name) + ":" + _value(field_kind, value))
    line = (",".join(parts) + "}\n").encode("utf-8")
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", str(len(line)))
    return line


def decode(line):
    """One received line (bytes, with or without its newline) as a message dict; raise ProtocolError."""
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", str(len(line)))
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeError):
        raise ProtocolError("bad_json") from None
    if type(obj) is not dict:
        raise ProtocolError("bad_json", "not an object")
    if obj.get("v") != VERSION or type(obj.get("v")) is not int:
        raise ProtocolError("bad_version", str(obj.get("v")))
    kind = obj.get("t")
    if kind not in FIELDS:
        raise ProtocolError("unknown_type", str(kind))
    message = {"t": kind}
    for name, field_kind in FIELDS[kind]:
        value = _check(field_kind, obj.get(name), name)
        if value is not None:
            message[name] = value
    return message


class LineBuffer:
    """Splits a byte stream into lines; an over-long line is dropped whole and reported as too_long."""

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.buf = b""
        self.overflow = False

    def feed(self, data):
        """Add bytes; return a list of complete lines, with None standing for each dropped over-long line."""
        self.buf += data
        lines = []
        while True:
            cut = self.buf.find(b"\n")
            if cut < 0:
                break
            line, self.buf = self.buf[:cut], self.buf[cut + 1:]
            if self.overflow:
                self.overflow = False
                lines.append(None)
            elif line.strip():
                lines.append(line.rstrip(b"\r"))
        if len(self.buf) > self.limit:
            self.buf = b""
            self.overflow = True
        return lines
