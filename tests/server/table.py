"""A real `companion run` in a subprocess on 127.0.0.1 and a free port, and plain-HTTP clients for it."""

from __future__ import annotations

import hashlib
import http.client
import http.cookiejar
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.table.test_crash import call

ROOT = Path(__file__).resolve().parents[2]
PIN = "135790"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(directory: Path, extra_web: str = "") -> Path:
    """The 10-seat mock table's config with a known host PIN (and more `[web]` lines)."""
    text = (ROOT / "hardware" / "tables" / "mock-10-seats.toml").read_text()
    text = text.replace("[web]\n", f'[web]\nhost_pin = "{PIN}"\n{extra_web}\n', 1)
    path = directory / "table.toml"
    path.write_text(text)
    return path


def companion(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run a `companion` command to completion."""
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def digest(directory: Path) -> dict[str, str]:
    """sha256 of every file in a directory (to show that something changed nothing)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir()) if p.is_file()}


def hang_up(conn: http.client.HTTPConnection, resp: http.client.HTTPResponse) -> None:
    """Close a stream's socket for good (the response holds the socket open until it is closed too)."""
    resp.close()
    conn.close()


class Table:
    """`companion run --config C --data D --port P`; `stop()` sends SIGTERM (SIGKILL after 10 s)."""

    def __init__(self, config: Path, data: Path, port: int | None = None, wait: bool = True) -> None:
        self.config, self.data, self.port = config, data, port or free_port()
        self.stderr_path = data.parent / f"stderr-{self.port}-{time.monotonic_ns()}.txt"
        self._stderr = self.stderr_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--data", str(data),
             "--port", str(self.port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self._stderr)
        if wait:
            self.wait_up()

    def wait_up(self, timeout: float = 30) -> None:
        """Block until /healthz answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"companion run exited {self.proc.returncode}: {self.stderr()}")
            try:
                if self.call("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("companion run did not come up")

    def stderr(self) -> str:
        """What the process wrote to stderr so far."""
        self._stderr.flush()
        return self.stderr_path.read_text()

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             opener: Any = None) -> tuple[int, Any]:
        """One JSON request: (status, parsed body)."""
        return call(self.port, method, path, body, headers, opener)

    def host(self) -> tuple[Any, dict[str, str]]:
        """A logged-in host: (cookie-keeping opener, CSRF header)."""
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        status, body = self.call("POST", "/api/host/login", {"pin": PIN}, opener=opener)
        assert status == 200, body
        return opener, {"X-CSRF-Token": body["csrf"]}

    def stream(self, source: str = "127.0.0.1") -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        """An open /api/events stream whose first line has been read."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(source, 0))
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        if resp.status == 200:
            assert resp.readline() == b"retry: 2000\n"
        return conn, resp

    def stop(self) -> int:
        """End the table; its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._stderr.close()
        return int(self.proc.returncode)
