"""A recorder of every public byte one running table puts out, over its real web server.

What it keeps: the public live stream as a browser reads it (`/api/events` over HTTP, the bytes after the
chunked framing), `/api/state` asked after every step, the LED renderer's every command (the scene and each
flash: the strip's frames are these drawn over time), every message each seat terminal was sent, and the seat
pages' answers. The host's stream (`/api/host/events`, with a host session) is recorded beside them, apart: it
is where what only the host may know goes, and the driver reads enrolled UIDs from it as the host page does.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from companion.table.runtime import Runtime
from tests.table.helpers import hw

EVENT_ID = re.compile(rb"^id: [0-9a-f]+-(\d+)(?:\.(\d+))?$", re.M)


class StreamReader:
    """One live stream read over HTTP on a thread of its own: its raw bytes and the last event number seen."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, (path, self.response.status, self.response.read())
        self.data = bytearray()
        self.public = 0
        self.host = 0
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                got = self.response.read1(65536)
            except (OSError, ValueError, AttributeError, http.client.HTTPException):  # hung up
                got = b""
            with self._cond:
                if not got:
                    self._cond.notify_all()
                    return
                self.data += got
                for match in EVENT_ID.finditer(got):
                    self.public = max(self.public, int(match.group(1)))
                    if match.group(2):
                        self.host = max(self.host, int(match.group(2)))
                self._cond.notify_all()

    def wait_for(self, public: int, timeout: float = 10.0) -> None:
        """Wait until public event `public` (or a later one) has arrived."""
        with self._cond:
            assert self._cond.wait_for(lambda: self.public >= public, timeout), (self.public, public)

    def events(self, since: int = 0) -> list[tuple[str, dict[str, Any]]]:
        """(type, data) of every event in the bytes from offset `since`."""
        out = []
        for block in bytes(self.data[since:]).split(b"\n\n"):
            lines = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line and
                         not line.startswith(b":"))
            if b"event" in lines:
                out.append((lines[b"event"].decode(), json.loads(lines[b"data"])))
        return out

    def close(self) -> None:
        """Hang up."""
        self.response.close()
        self.conn.close()


@dataclass
class Recorder:
    """Everything public one table shows, as comparable text, step by step."""

    rt: Runtime
    pin: str
    port: int = 0
    cookie: str = ""
    public: StreamReader | None = None
    host: StreamReader | None = None
    leds: list[str] = field(default_factory=list)
    terminals: dict[str, int] = field(default_factory=dict)
    _mark: dict[str, int] = field(default_factory=dict)
    _last_host: int = 0
    """Where the host's stream stood when the step just compared began."""
    _server: Any = None

    def start(self) -> "Recorder":
        """Serve the table on a free port, record its LEDs, open the public and the host's streams."""
        self._server = self.rt.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=0.5)
        self.port = self._server.effective_port
        threading.Thread(target=self._server.run, daemon=True).start()
        renderer = self.rt.renderer
        set_scene, flash = renderer.set_scene, renderer.flash
        renderer.set_scene = lambda scene: (self.leds.append(  # type: ignore[method-assign]
            "scene " + repr(sorted(scene.items()))), set_scene(scene))[1]
        renderer.flash = lambda zone, until=None, colour=(255, 0, 0): (self.leds.append(  # type: ignore[method-assign]
            f"flash {zone} {colour}"), flash(zone, until, colour))[1]
        status, headers, body = self.request("POST", "/api/host/login", {"pin": self.pin})
        assert status == 200, body
        self.cookie = headers["Set-Cookie"].split(";", 1)[0]
        self.csrf = body["csrf"]
        self.public = StreamReader(self.port, "/api/events")
        self.host = StreamReader(self.port, "/api/host/events", {"Cookie": self.cookie})
        self.settle()
        self.mark()
        return self

    def stop(self) -> None:
        """Hang up the streams (the runtime stops the server)."""
        for reader in (self.public, self.host):
            if reader is not None:
                reader.close()

    def request(self, method: str, path: str, body: Any = None, host: bool = False) -> tuple[int, Any, Any]:
        """One HTTP request to the table (as the host when `host`): status, headers, JSON body."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if host:
            headers.update({"Cookie": self.cookie, "X-CSRF-Token": self.csrf})
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = conn.getresponse()
            raw = response.read()
            return response.status, response.headers, json.loads(raw) if raw else None
        finally:
            conn.close()

    def settle(self) -> None:
        """Wait until the table has handled everything and both streams carry everything published."""
        self.rt.loop.wait_idle()
        number = self.rt.loop.bus.last_number()
        assert self.public is not None and self.host is not None
        self.public.wait_for(number)
        self.host.wait_for(number)

    def host_events(self, kind: str, wait: float = 5.0, since: int | None = None) -> list[dict[str, Any]]:
        """The host's stream's events of a kind since the last step began (or since offset `since`), waiting
        up to `wait` for one."""
        assert self.host is not None
        deadline = time.monotonic() + wait
        while True:
            found = [data for type_, data in self.host.events(self._last_host if since is None else since)
                     if type_ == kind]
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.005)

    def mark(self) -> None:
        """Start a new step: what comes after this is the next step's output."""
        assert self.public is not None and self.host is not None
        self._last_host = self._mark.get("host", 0)
        self._mark = {"public": len(self.public.data), "host": len(self.host.data), "leds": len(self.leds)}
        self.terminals = {t: len(m) for t, m in hw(self.rt).mock_terminals.sent.items()}

    def step_output(self, seats: list[str] | None = None, terminals: Iterable[str] | None = None) -> dict[str, str]:
        """This step's public output as text: the stream's new bytes, `/api/state`, the LED commands, the new
        messages to these terminals (None: every terminal) and the seat pages of the tokens given."""
        assert self.public is not None
        out = {"stream": bytes(self.public.data[self._mark["public"]:]).decode(),
               "state": json.dumps(self.request("GET", "/api/state")[2], sort_keys=True),
               "leds": "\n".join(self.leds[self._mark["leds"]:])}
        sent = hw(self.rt).mock_terminals.sent
        shown = sorted(sent) if terminals is None else sorted(terminals)
        out["terminals"] = json.dumps({t: sent.get(t, [])[self.terminals.get(t, 0):] for t in shown}, sort_keys=True)
        for token in seats or ():
            out[f"seat page {seats.index(token)}"] = json.dumps(  # type: ignore[union-attr]
                self.request("GET", f"/api/seat/{token}")[2], sort_keys=True)
        return out

    def whole_public(self) -> str:
        """Every public byte recorded so far (the stream and the LED commands)."""
        assert self.public is not None
        return bytes(self.public.data).decode() + "\n".join(self.leds)
