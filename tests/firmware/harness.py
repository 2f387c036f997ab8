"""The host side of tests/firmware/mp_harness.py: one firmware process per interpreter, answering the driver's
SPI transfers from the Pi side's register-level fake chip on a virtual clock."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from companion.hal.testing.fake_mfrc522 import FakeMfrc522, VirtualClock

HARNESS = Path(__file__).resolve().parent / "mp_harness.py"


class FirmwareError(Exception):
    """The firmware raised; the message is its exception."""


class Firmware:
    """A running harness; `chip` answers the reader's transfers (set it before making a reader)."""

    def __init__(self, exe: str, firmware_dir: Path) -> None:
        self.process = subprocess.Popen([exe, str(HARNESS), str(firmware_dir)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.clock = VirtualClock()
        self.chip = FakeMfrc522(clock=self.clock)
        first = self._line()
        if first != {"ready": True}:
            raise FirmwareError(f"the harness did not start: {first} {self.process.stderr.read() if self.process.stderr else ''}")

    def _line(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            err = self.process.stderr.read() if self.process.stderr else ""
            raise FirmwareError(f"the firmware process ended: {err}")
        return json.loads(line)

    def request(self, op: str, **kwargs: Any) -> Any:
        """One request; the reader's callbacks are answered until its result comes."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **kwargs}) + "\n")
        self.process.stdin.flush()
        while True:
            answer = self._line()
            if "cb" in answer:
                self.process.stdin.write(json.dumps({"ret": self._callback(answer)}) + "\n")
                self.process.stdin.flush()
            elif "err" in answer:
                raise FirmwareError(answer["err"])
            else:
                return answer["ret"]

    def _callback(self, answer: dict[str, Any]) -> Any:
        if answer["cb"] == "xfer":
            return self.chip.xfer2(answer["data"])
        if answer["cb"] == "now":
            return int(self.clock.monotonic() * 1000)
        self.clock.sleep(answer["ms"] / 1000)
        return None

    def close(self) -> None:
        """End the process."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


class Remote:
    """A firmware object by handle: methods called remotely, attributes read remotely."""

    def __init__(self, fw: Firmware, handle: int) -> None:
        self._fw = fw
        self._handle = handle

    def call(self, method: str, *args: Any) -> Any:
        """Call a method with JSON-able arguments (bytes go as hex)."""
        return self._fw.request("call", handle=self._handle, method=method, args=list(args))

    def get(self, name: str) -> Any:
        """Read an attribute."""
        return self._fw.request("get", handle=self._handle, name=name)

    def sent(self) -> list[str]:
        """Lines the terminal sent since the last look."""
        return self._fw.request("sent", handle=self._handle)  # type: ignore[no-any-return]
