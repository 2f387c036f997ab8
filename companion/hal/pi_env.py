"""What the Pi's own setup says, for `companion doctor`: boot config, spidev buffer, groups, the service, LG_WD.

Every reader of the system takes its paths or commands as arguments, so tests run it against files they write.
"""

from __future__ import annotations

import grp
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from companion.hal.pins import Boot

BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")
BUFSIZ_PARAM = "/sys/module/spidev/parameters/bufsiz"
NEEDED_GROUPS = ("gpio", "spi", "dialout")
SERVICE = "companion"
LED_BUFSIZ_BYTES_PER_PIXEL = 12
"""The SPI encoder's 4 bytes per colour byte (companion/hal/leds.py)."""


@dataclass(frozen=True)
class BootConfig:
    """The lines of config.txt that matter here (every section, as the board may be any of them)."""

    path: str | None
    spi0: bool
    spi1: bool
    core_freq: tuple[str, ...]
    audio_on: bool

    def boot(self) -> Boot:
        """The SPI buses the kernel owns; without a config.txt, what install.sh would set up."""
        return Boot(self.spi0, self.spi1) if self.path else Boot()


def read_boot_config(paths: tuple[str, ...] = BOOT_CONFIGS) -> BootConfig:
    """Parse the first config.txt found (none: not a Pi, or not mounted)."""
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
        return BootConfig(path, "dtparam=spi=on" in lines, any(line.startswith("dtoverlay=spi1-3cs") for line in lines),
                          tuple(line for line in lines if line.startswith("core_freq")),
                          "dtparam=audio=on" in lines)
    return BootConfig(None, False, False, (), False)


def spidev_bufsiz(path: str = BUFSIZ_PARAM) -> int | None:
    """The spidev module's largest single transfer in bytes, when the module is loaded."""
    try:
        return int(Path(path).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def missing_groups() -> list[str]:
    """Which of gpio, spi, dialout this process is not in (root needs none)."""
    if os.geteuid() == 0:
        return []
    names = set()
    for gid in set(os.getgroups()) | {os.getegid()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return [group for group in NEEDED_GROUPS if group not in names]


def service_running(systemctl: str | None = None) -> bool | None:
    """Whether the companion service is active (None: no systemd here)."""
    command = systemctl or shutil.which("systemctl")
    if command is None:
        return None
    try:
        result = subprocess.run([command, "is-active", "--quiet", SERVICE], timeout=5, check=False,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.returncode == 0


def ensure_lg_wd(environ: dict[str, str] | None = None) -> str:
    """Point LG_WD at a writable directory before lgpio loads (it makes its notify pipes there; by default in
    the working directory, which `sudo -u companion` from a user's home cannot write, and gpiozero then falls
    back silently to no pin library). Returns the directory used."""
    env = os.environ if environ is None else environ
    current = env.get("LG_WD") or os.getcwd()
    if os.access(current, os.W_OK | os.X_OK):
        env.setdefault("LG_WD", current)
        return current
    for candidate in (env.get("XDG_RUNTIME_DIR"), "/var/lib/companion", None):
        if candidate is None:
            candidate = tempfile.mkdtemp(prefix="companion-lgpio-")
        if os.access(candidate, os.W_OK | os.X_OK):
            env["LG_WD"] = candidate
            return candidate
    return current
