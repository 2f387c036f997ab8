"""A seat terminal behind a pty: the real firmware main loop as a process, reachable at a stable path.

Plugging spawns the firmware (under MicroPython's unix port or CPython, with the machine/neopixel shims)
on a fresh pty and points a by-id style symlink at its slave; unplugging kills it like pulling the cable.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tty
from pathlib import Path
from typing import Any

from tests.firmware.runtimes import FIRMWARE, SHIMS


class SimTerminal:
    """One terminal: `plug()`, `press(*pins)`, `unplug()`; `path` is what the Pi side opens."""

    def __init__(self, workdir: Path, exe: str, uid: str = "e660583883724a32",
                 name: str = "usb-MicroPython_Board_in_FS_mode_e660583883724a32-if00", reader: bool = False,
                 pixel_pin: int | None = None) -> None:
        self.workdir = workdir
        self.exe = exe
        self.uid = uid
        by_id = workdir / "by-id"
        by_id.mkdir(exist_ok=True)
        self.path = str(by_id / name)
        self.process: subprocess.Popen[bytes] | None = None
        self.slave: int | None = None
        self.plugs = 0
        self.presses = workdir / "presses-0"
        self.tag_file = workdir / f"tag-{uid}" if reader else None
        self.log = workdir / f"errors-{uid}.log"
        self.crash_file = workdir / f"crash-{uid}"
        self.pixel_pin = pixel_pin
        if self.tag_file is not None:
            self.tag_file.write_text("")

    @property
    def terminal_id(self) -> str:
        """The id the firmware derives from the board's unique id."""
        return "T-" + self.uid

    def plug(self) -> None:
        """Power the terminal up on a new pty (a new /dev/ttyACMn) behind the same stable path."""
        master, slave = os.openpty()
        tty.setraw(slave)
        self.plugs += 1
        self.presses = self.workdir / f"presses-{self.uid}-{self.plugs}"
        self.presses.write_text("")
        env = dict(os.environ, TERMINAL_SIM_PRESSES=str(self.presses), TERMINAL_SIM_UID=self.uid,
                   TERMINAL_SIM_LOG=str(self.log), TERMINAL_SIM_CRASH=str(self.crash_file))
        if self.pixel_pin is not None:
            env["TERMINAL_SIM_PIXEL_PIN"] = str(self.pixel_pin)
        if self.tag_file is not None:
            env["TERMINAL_SIM_TAG"] = str(self.tag_file)
        self.process = subprocess.Popen(
            [self.exe, str(SHIMS / "sim_boot.py"), str(FIRMWARE), str(SHIMS)],
            stdin=master, stdout=master, stderr=subprocess.DEVNULL, env=env, close_fds=True,
        )
        os.close(master)
        self.slave = slave
        tmp = self.path + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)

    def press(self, *pins: int) -> None:
        """Press buttons one after another (GPIO numbers from firmware/terminal/config.py)."""
        with open(self.presses, "a", encoding="ascii") as f:
            f.write("".join(f"{pin}\n" for pin in pins))

    def hold(self, uid: str | None) -> None:
        """Hold a tag (hex UID) to the terminal's reader; None takes it away ("fail" before plug: a dead chip)."""
        assert self.tag_file is not None, "this terminal has no reader"
        self.tag_file.write_text(uid or "")

    def crash(self) -> None:
        """Make the next pixel write fail inside the firmware's loop (its handler must log it and go on)."""
        self.crash_file.write_text("crash")

    def unplug(self) -> None:
        """Pull the cable: the firmware dies with its pty and the stable path disappears."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=5)
            self.process = None
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None
        if os.path.lexists(self.path):
            os.unlink(self.path)


def unlinked(event: Any) -> Any:
    """A hub event without its `link` (the pty's path and the firmware's random boot nonce), for comparing."""
    return dataclasses.replace(event, link="") if hasattr(event, "link") else event
