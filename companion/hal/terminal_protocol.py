"""Seat-terminal protocol, the Pi's side: typed messages, one JSON object per line.

Every line says `"v":1` (the line format); what a terminal understands is its `proto` in its hello: a hello
without it is a v1 terminal (prompts of at most MAX_OPTIONS, no `phone`, `untag` or prompt titles). Protocol 2
adds optional hello fields (`proto`, `screen` options per screen, `display`, `faults`), an optional prompt
`title`, `phone` (the prompt is on the seat's phone) and `untag` (the terminal's reader lost its tag).
Protocol 3 adds `crowd` (the terminal's reader has two or more tags at once, or no longer). Protocol 4 adds the
hello's `nonce` (random at each boot, from the board's hardware random source: the Pi counts a terminal's
message numbers per port and nonce), and the Pi's answers change meaning: a `choice` is acked (or refused with
`error`) only once the table has decided it, and a hello whose id another port already holds is answered
`error` with seq 0 and code `duplicate_id` (nothing that terminal sends is taken until it goes).

The firmware has its own MicroPython implementation (firmware/terminal/protocol.py); both are held to the
same bytes by tests/firmware/vectors.json. Encoding uses a fixed key order and escapes only `"` and `\\`
(control characters are refused), so the two produce identical lines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.errors import ProtocolFault

VERSION = 1
"""The line format every line carries."""
PROTOCOL = 4
"""The newest protocol this side speaks (announced as `proto` in hello)."""
MAX_LINE = 1024
MAX_OPTIONS = 8
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_HEX = re.compile(r"[0-9a-f]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_terminal_id(value: object) -> bool:
    """Whether `value` could be a terminal id announced in a hello (the same rule the protocol checks)."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


class ProtocolError(ProtocolFault):
    """A line that is not a valid message; `code`: too_long, bad_json, bad_version, unknown_type, bad_field."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code, detail or code, {"detail": detail} if detail else None)
        self.detail = detail
        self.args = (f"{code}: {detail}" if detail else code,)


@dataclass(frozen=True)
class Option:
    """One choice offered by a prompt: the value sent back and a short label."""

    value: str
    label: str


@dataclass(frozen=True)
class Hello:
    """Either side introduces itself: the terminal's id and firmware, and a per-boot number."""

    TYPE: ClassVar[str] = "hello"
    id: str
    fw: str
    boot: int
    proto: int | None = None
    screen: int | None = None
    """How many options one screen shows (None: a v1 terminal, MAX_OPTIONS)."""
    display: bool | None = None
    faults: str | None = None
    """Parts that failed to start, comma-separated (reader, display), empty when all is well."""
    nonce: str | None = None
    """Protocol 4: random at each boot (16 hex digits); a terminal without one is told apart by `boot`."""


@dataclass(frozen=True)
class Prompt:
    """Ask the seat to choose one of `options` for ballot `ballot`."""

    TYPE: ClassVar[str] = "prompt"
    ballot: str
    options: tuple[Option, ...]
    title: str | None = None
    """What the screen is (protocol 2): e.g. "nominate 1/2"."""


@dataclass(frozen=True)
class Close:
    """The ballot is no longer open."""

    TYPE: ClassVar[str] = "close"
    ballot: str


@dataclass(frozen=True)
class Phone:
    """Protocol 2: ballot `ballot` is open but too big for this terminal; the seat answers on its phone."""

    TYPE: ClassVar[str] = "phone"
    ballot: str


@dataclass(frozen=True)
class Choice:
    """The seat confirmed a value; `seq` numbers the terminal's messages so duplicates can be dropped."""

    TYPE: ClassVar[str] = "choice"
    ballot: str
    seq: int
    value: str


@dataclass(frozen=True)
class Ack:
    """The Pi received message `seq` (the terminal stops resending it)."""

    TYPE: ClassVar[str] = "ack"
    seq: int


@dataclass(frozen=True)
class Error:
    """The table refused message `seq` (`code` is the table's stable code); the seat may choose again. Seq 0
    answers a hello: `duplicate_id`, another port holds this terminal's id."""

    TYPE: ClassVar[str] = "error"
    seq: int
    code: str


@dataclass(frozen=True)
class Tag:
    """The terminal's own reader saw a tag."""

    TYPE: ClassVar[str] = "tag"
    seq: int
    uid: str


@dataclass(frozen=True)
class Untag:
    """Protocol 2: the terminal's reader no longer sees the tag it reported."""

    TYPE: ClassVar[str] = "untag"
    seq: int


@dataclass(frozen=True)
class Crowd:
    """Protocol 3: the terminal's reader has two or more tags in its field (`on`), or no longer (the tag it reported
    before, if still there, stays reported)."""

    TYPE: ClassVar[str] = "crowd"
    seq: int
    on: bool


@dataclass(frozen=True)
class Ping:
    """Heartbeat request."""

    TYPE: ClassVar[str] = "ping"
    n: int


@dataclass(frozen=True)
class Pong:
    """Heartbeat answer, echoing `n`."""

    TYPE: ClassVar[str] = "pong"
    n: int


Message = Hello | Prompt | Phone | Close | Choice | Ack | Error | Tag | Untag | Crowd | Ping | Pong
TYPES: dict[str, type[Any]] = {cls.TYPE: cls for cls in (Hello, Prompt, Phone, Close, Choice, Ack, Error, Tag, Untag,
                                                          Crowd, Ping, Pong)}
_KINDS: dict[str, str] = {"id": "id", "ballot": "id", "fw": "str", "value": "str", "uid": "hex", "options": "opts",
                          "boot": "int", "seq": "int", "n": "int", "code": "id", "proto": "int", "screen": "int",
                          "display": "bool", "faults": "str", "title": "str", "on": "bool", "nonce": "id"}
OPTIONAL = frozenset({"proto", "screen", "display", "faults", "title", "nonce"})
"""Fields a message may leave out (None): a v1 side neither sends nor needs them."""


def _check(kind: str, value: Any, name: str) -> Any:
    """Validate one field by kind; raise bad_field."""
    if value is None and name in OPTIONAL:
        return None
    if kind == "bool":
        if type(value) is not bool:
            raise ProtocolError("bad_field", name)
        return value
    if kind == "int":
        if type(value) is not int or not 0 <= value <= 0x7FFFFFFF:
            raise ProtocolError("bad_field", name)
        return value
    if kind == "hex":
        if type(value) is not str or len(value) not in (8, 14, 20) or not _HEX.fullmatch(value):
            raise ProtocolError("bad_field", name)
        return value
    if kind == "opts":
        if type(value) not in (list, tuple) or not 1 <= len(value) <= MAX_OPTIONS:
            raise ProtocolError("bad_field", name)
        options = []
        for item in value:
            if isinstance(item, Option):
                item = {"value": item.value, "label": item.label}
            if type(item) is not dict:
                raise ProtocolError("bad_field", name)
            options.append(Option(_check("str", item.get("value"), name), _check("str", item.get("label"), name)))
        return tuple(options)
    if type(value) is not str or len(value) > 64 or _CONTROL.search(value):
        raise ProtocolError("bad_field", name)
    if kind == "id" and not _ID.fullmatch(value):
        raise ProtocolError("bad_field", name)
    return value


def _json_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def encode(message: Message) -> bytes:
    """A message as one UTF-8 line ending in a newline."""
    parts = [f'{{"v":{VERSION}', f'"t":{_json_string(message.TYPE)}']
    for f in fields(message):
        value = _check(_KINDS[f.name], getattr(message, f.name), f.name)
        if value is None:
            continue
        if f.name == "options":
            text = "[" + ",".join(f'{{"value":{_json_string(o.value)},"label":{_json_string(o.label)}}}' for o in value) + "]"
        elif isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = _json_string(value)
        parts.append(f"{_json_string(f.name)}:{text}")
    line = (",".join(parts) + "}\n").encode("utf-8")
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", str(len(line)))
    return line


def decode(line: bytes) -> Message:
    """One received line as a message; raise ProtocolError with a stable code."""
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", str(len(line)))
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", type(exc).__name__) from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_json", "not an object")
    if type(obj.get("v")) is not int or obj["v"] != VERSION:
        raise ProtocolError("bad_version", repr(obj.get("v")))
    kind = obj.get("t")
    cls = TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError("unknown_type", repr(obj.get("t")))
    return cls(**{f.name: _check(_KINDS[f.name], obj.get(f.name), f.name) for f in fields(cls)})


def from_dict(data: dict[str, Any]) -> Message:
    """A message from the plain form used in test vectors and logs: {"t": type, fields...}."""
    cls = TYPES.get(data.get("t", ""))
    if cls is None:
        raise ProtocolError("unknown_type", repr(data.get("t")))
    return cls(**{f.name: _check(_KINDS[f.name], data.get(f.name), f.name) for f in fields(cls)})


def to_dict(message: Message) -> dict[str, Any]:
    """The plain form of a message."""
    out: dict[str, Any] = {"t": message.TYPE}
    for f in fields(message):
        value = getattr(message, f.name)
        if value is None and f.name in OPTIONAL:
            continue
        out[f.name] = [{"value": o.value, "label": o.label} for o in value] if f.name == "options" else value
    return out


class LineBuffer:
    """Splits a byte stream into lines; an over-long line is dropped whole and reported as None."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = b""
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """Add bytes; return complete non-empty lines (None for each dropped over-long one)."""
        self._buf += data
        lines: list[bytes | None] = []
        while (cut := self._buf.find(b"\n")) >= 0:
            line, self._buf = self._buf[:cut], self._buf[cut + 1:]
            if self._overflow:
                self._overflow = False
                lines.append(None)
            elif line.strip():
                lines.append(line.rstrip(b"\r"))
        if len(self._buf) > self.limit:
            self._buf = b""
            self._overflow = True
        return lines
