"""One set of vectors holds the Pi's protocol module and the firmware's (under CPython and MicroPython)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from typing import Any

import pytest

from companion.hal import terminal_protocol as pi
from tests.firmware.runtimes import FIRMWARE, VECTORS, interpreters

CASES: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))


def bad_line(case: dict[str, Any]) -> bytes:
    if "line_hex" in case:
        return bytes.fromhex(case["line_hex"])
    if "line_repeat" in case:
        head, unit, count, tail = case["line_repeat"]
        return (head + unit * count + tail).encode()
    return case["line"].encode()


@pytest.mark.parametrize("case", CASES["good"], ids=lambda c: c["name"])
def test_pi_side_encodes_and_decodes_every_good_vector(case: dict[str, Any]) -> None:
    message = pi.from_dict(case["msg"])
    assert pi.encode(message) == case["line"].encode() + b"\n"
    assert pi.decode(case["line"].encode()) == message
    assert pi.to_dict(message) == case["msg"]


@pytest.mark.parametrize("case", CASES["decode_only"], ids=lambda c: c["name"])
def test_pi_side_decodes_leniently(case: dict[str, Any]) -> None:
    assert pi.to_dict(pi.decode(case["line"].encode())) == case["msg"]


@pytest.mark.parametrize("case", CASES["bad"], ids=lambda c: c["name"])
def test_pi_side_refuses_bad_lines_with_the_vector_code(case: dict[str, Any]) -> None:
    with pytest.raises(pi.ProtocolError) as info:
        pi.decode(bad_line(case))
    assert info.value.code == case["code"]


@pytest.mark.parametrize("name, exe", interpreters())
def test_firmware_protocol_passes_the_same_vectors(name: str, exe: str) -> None:
    result = subprocess.run([exe, str(VECTORS.parent / "run_vectors.py"), str(FIRMWARE), str(VECTORS)],
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["failures"] == []
    assert report["checked"] == len(CASES["good"]) + len(CASES["decode_only"]) + len(CASES["bad"])


def test_firmware_protocol_refuses_to_encode_what_the_pi_refuses() -> None:
    spec = importlib.util.spec_from_file_location("firmware_protocol", FIRMWARE / "protocol.py")
    assert spec and spec.loader
    fw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fw)
    for bad in ({"t": "choice", "ballot": "b", "seq": True, "value": "x"}, {"t": "tag", "seq": 1, "uid": "xyz"},
                {"t": "nope"}, {"t": "hello", "id": "", "fw": "1", "boot": 1}):
        with pytest.raises(fw.ProtocolError):
            fw.encode(bad)
        with pytest.raises(pi.ProtocolError):
            pi.from_dict(bad)


@pytest.mark.parametrize("impl", ["pi", "firmware"])
def test_line_buffer_splits_and_drops_overlong_lines(impl: str) -> None:
    if impl == "pi":
        buffer: Any = pi.LineBuffer(limit=16)
    else:
        spec = importlib.util.spec_from_file_location("firmware_protocol_lb", FIRMWARE / "protocol.py")
        assert spec and spec.loader
        fw = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fw)
        buffer = fw.LineBuffer(limit=16)
    assert buffer.feed(b"ab") == []
    assert buffer.feed(b"c\r\n\nde\n") == [b"abc", b"de"]
    assert buffer.feed(b"x" * 40) == []
    assert buffer.feed(b"yy\nok\n") == [None, b"ok"]
