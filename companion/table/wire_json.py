"""Compact UTF-8 JSON for the live-update wire: orjson where it is installed, else the standard library, with
the same bytes from both (a publish encodes the whole snapshot, and orjson does it ~10x faster).

Both spell a value alike for everything the table publishes: dicts with string (or int) keys, lists, tuples,
strings, ints, bools, None and ordinary floats. Where orjson refuses a value (an int past 64 bits) the standard
encoder takes it, so the bytes never depend on which one is installed.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any, Callable

STDLIB = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
"""The standard encoder (no state of its own); the data is a tree of fresh dicts and lists, never a cycle, so
the circular-reference bookkeeping is skipped."""


def stdlib_dumps(data: Any) -> bytes:
    """`data` as compact UTF-8 JSON by the standard library's encoder."""
    return STDLIB.encode(data).encode()


def _orjson() -> ModuleType | None:
    try:
        import orjson
    except ImportError:  # an optional speed-up: armv6 boards (Pi Zero W, Pi 1) have no wheel
        return None
    return orjson


def make_dumps(module: ModuleType | None) -> Callable[[Any], bytes]:
    """The wire encoder with `module` (orjson) when given, else the standard one."""
    if module is None:
        return stdlib_dumps
    encode, option, refused = module.dumps, module.OPT_NON_STR_KEYS, module.JSONEncodeError

    def dumps(data: Any) -> bytes:
        """`data` as compact UTF-8 JSON (orjson; the standard encoder for what orjson refuses)."""
        try:
            return encode(data, option=option)  # type: ignore[no-any-return]
        except refused:
            return stdlib_dumps(data)

    return dumps


dumps: Callable[[Any], bytes] = make_dumps(_orjson())
"""`data` as compact UTF-8 JSON: the encoder chosen once at import (a function, no state)."""
