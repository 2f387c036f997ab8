"""Checks firmware/terminal/protocol.py against vectors.json; runs under MicroPython and CPython alike.

Usage: run_vectors.py FIRMWARE_DIR VECTORS_JSON -> prints one JSON object {"failures": [...], "checked": n}.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])
import protocol  # noqa: E402


def bad_line(case):
    if "line_hex" in case:
        return bytes(int(case["line_hex"][i:i + 2], 16) for i in range(0, len(case["line_hex"]), 2))
    if "line_repeat" in case:
        head, unit, count, tail = case["line_repeat"]
        return (head + unit * count + tail).encode()
    return case["line"].encode()


def same(a, b):
    return json.dumps(sorted_items(a)) == json.dumps(sorted_items(b))


def sorted_items(value):
    if type(value) is dict:
        return [[k, sorted_items(value[k])] for k in sorted(value)]
    if type(value) is list:
        return [sorted_items(v) for v in value]
    return value


def main():
    with open(sys.argv[2]) as f:
        vectors = json.load(f)
    failures = []
    checked = 0
    for case in vectors["good"]:
        line = case["line"].encode("utf-8")
        got = protocol.encode(case["msg"])
        if got != line + b"\n":
            failures.append([case["name"], "encode", got.decode("utf-8")])
        if not same(protocol.decode(line), case["msg"]):
            failures.append([case["name"], "decode"])
        checked += 1
    for case in vectors["decode_only"]:
        if not same(protocol.decode(case["line"].encode("utf-8")), case["msg"]):
            failures.append([case["name"], "decode"])
        checked += 1
    for case in vectors["bad"]:
        try:
            protocol.decode(bad_line(case))
            failures.append([case["name"], "accepted"])
        except protocol.ProtocolError as exc:
            if exc.code != case["code"]:
                failures.append([case["name"], exc.code])
        checked += 1
    print(json.dumps({"failures": failures, "checked": checked}))


main()
