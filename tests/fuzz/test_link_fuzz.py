"""Random bytes and lines into the terminal link: it never raises, reports each bad line with a stable code,
and a good choice after the noise still arrives exactly once."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hal import terminal_protocol as proto
from companion.hal.terminal_link import LinkChoice, LinkDown, LinkProblem
from tests.hal.test_terminal_link import HELLO, make

CODES = {"bad_field", "bad_json", "bad_version", "too_long", "unknown_type", "no_hello", "unexpected"}
TYPES = ["hello", "prompt", "close", "choice", "ack", "error", "tag", "ping", "pong", "bogus"]
SCALARS = st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats() | st.text(max_size=20)
FIELDS = st.dictionaries(st.sampled_from(["v", "t", "id", "fw", "boot", "ballot", "seq", "value", "uid", "n",
                                          "options", "code", "message"]), SCALARS | st.lists(SCALARS, max_size=3),
                         max_size=6)
LINES = (st.binary(max_size=300)
         | FIELDS.map(lambda d: json.dumps(d).encode() + b"\n")
         | st.builds(lambda t, d: json.dumps({"v": 1, "t": t, **d}).encode() + b"\n", st.sampled_from(TYPES), FIELDS)
         | st.integers(1, 3).map(lambda k: b"y" * (proto.MAX_LINE * k) + b"\n")
         | st.just(b"\r\n\x00\xff\x03\n"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(noise=st.lists(LINES, max_size=12), hello_first=st.booleans())
def test_random_bytes_and_lines_never_break_the_link(noise: list[bytes], hello_first: bool) -> None:
    link, opener, events = make()
    link.step(0.0)
    port = opener.ports[0]
    if hello_first:
        port.inbound.append(HELLO)
    t = 0.0
    for chunk in noise:
        port.inbound.append(chunk)
        t += 0.01
        link.step(t)
    port.inbound += [b"\n", HELLO, proto.encode(proto.Choice("b9", 2**31 - 1, "ok"))]
    for _ in range(4):
        t += 0.01
        link.step(t)
    problems = [e for e in events if isinstance(e, LinkProblem)]
    assert {p.code for p in problems} <= CODES, problems
    assert not any(isinstance(e, LinkDown) for e in events), "noise must never drop the link"
    assert link.connected
    assert [(e.terminal, e.seq, e.value) for e in events if isinstance(e, LinkChoice) and e.ballot == "b9"] == [
        ("T-1", 2**31 - 1, "ok")]
    assert link.health(t).malformed == len(problems)
