"""Seat terminals on USB serial: a link per Pico port (found by USB id, rescanned), table messages translated.

One port's link (handshake, heartbeat, reconnect) is companion.hal.serial_link; what a terminal is shown
(screens that fit it, page turns, the table's values) is companion.hal.terminal_hub, shared with the mock.
A terminal id belongs to one port at a time: the first link to greet it holds it until that link goes down; a
second device saying hello as it is refused and reported to the table (TerminalClash) until it goes.
"""

from __future__ import annotations

import glob
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.hal import terminal_protocol as proto
from companion.hal.events import TerminalClash, TerminalGone
from companion.hal.terminal_hub import ScreenHub
from companion.hal.serial_link import (HOST_FW, LinkChoice, LinkClash, LinkCrowd, LinkDown, LinkEvent, LinkHealth,
                                       LinkProblem, LinkTag, LinkUp, Port, TerminalLink, open_serial)

__all__ = ["HOST_FW", "LinkChoice", "LinkClash", "LinkCrowd", "LinkDown", "LinkEvent", "LinkHealth", "LinkProblem", "LinkTag", "LinkUp",
           "Port", "SerialTerminalHub", "TerminalLink", "find_terminals", "open_serial", "vars_of"]

PICO_VID = 0x2E8A
PICO_PID = 0x0005


def find_terminals(ports: Iterable[Any] | None = None, by_id_dir: str = "/dev/serial/by-id") -> list[str]:
    """Ports of MicroPython Picos (USB 2E8A:0005), as their stable /dev/serial/by-id path when there is one."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    stable = {os.path.realpath(p): p for p in sorted(glob.glob(os.path.join(by_id_dir, "*")))}
    found = []
    for port in ports:
        if getattr(port, "vid", None) == PICO_VID and getattr(port, "pid", None) == PICO_PID:
            device = str(port.device)
            found.append(stable.get(os.path.realpath(device), device))
    return sorted(found)


class SerialTerminalHub(ScreenHub):
    """The pi backend's terminals: a link per Pico port (found by USB id, rescanned, or configured by path or
    glob); what each is shown is companion.hal.terminal_hub's, the same for every backend."""

    def __init__(
        self,
        paths: Iterable[str] = (),
        *,
        discover: Callable[[], list[str]] | None = find_terminals,
        rescan_s: float = 2.0,
        **link_options: Any,
    ) -> None:
        super().__init__()
        self._fixed = list(paths)
        self._discover = discover
        self._rescan_s = rescan_s
        self._options = link_options
        self._links: dict[str, TerminalLink] = {}
        self._owners: dict[str, str] = {}
        """Terminal id -> the path of the link that holds it (from its hello until that link goes down)."""
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def start(self, sink: Callable[[Any], None]) -> None:
        """Open the configured ports (globs are expanded on every rescan) and keep looking for new terminals."""
        self._sink = sink
        for path in self._configured():
            self._add(path)
        if self._discover is not None or any(glob.has_magic(p) for p in self._fixed):
            thread = threading.Thread(target=self._scan_loop, name="terminal-scan", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _configured(self) -> list[str]:
        """The configured paths now: plain paths as they are, globs as what they match."""
        out: list[str] = []
        for path in self._fixed:
            out += sorted(glob.glob(path)) if glob.has_magic(path) else [path]
        return out

    def _scan_loop(self) -> None:
        while not self._stop.is_set():
            try:
                found = (self._discover() if self._discover else []) + self._configured()
            except OSError:
                found = []
            for path in found:
                self._add(path)
            self._stop.wait(self._rescan_s)

    def _add(self, path: str) -> None:
        with self._lock:
            if path in self._links or self._stop.is_set():
                return
            link = TerminalLink(path, self._on_event, claim=self._claim, **self._options)
            self._links[path] = link
            thread = threading.Thread(target=link.run, args=(self._stop,), name=f"terminal:{Path(path).name}", daemon=True)
            self._threads.append(thread)
        thread.start()

    def _claim(self, path: str, terminal: str) -> bool:
        """Whether the device on `path` may be `terminal`: yes unless another port holds that id (checked and
        taken at once, so two devices greeting together cannot both win)."""
        with self._lock:
            owner = self._owners.get(terminal)
            if owner is not None and owner != path:
                return False
            for held in [t for t, p in self._owners.items() if p == path and t != terminal]:
                del self._owners[held]  # the device on this port took another id: its old one is free
            self._owners[terminal] = path
            return True

    def _release(self, path: str) -> None:
        with self._lock:
            for held in [t for t, p in self._owners.items() if p == path]:
                del self._owners[held]

    def _link(self, terminal: str) -> TerminalLink | None:
        with self._lock:
            links = list(self._links.values())
        return next((li for li in links if li.terminal == terminal and li.connected), None)

    def _show(self, terminal: str, message: proto.Message) -> bool:
        link = self._link(terminal)
        if link is None:
            return False
        if isinstance(message, proto.Close):
            link.close_prompt(message.ballot)
            return link.connected
        if isinstance(message, proto.Prompt | proto.Phone):
            return link.show(message)
        return link.send(message)

    def _write(self, terminal: str, message: proto.Message) -> bool:
        link = self._link(terminal)
        return False if link is None else link.send(message)

    def connected(self) -> frozenset[str]:
        """Terminal ids with a live link."""
        with self._lock:
            links = list(self._links.values())
        return frozenset(li.terminal for li in links if li.connected and li.terminal is not None)

    def health(self) -> dict[str, Any]:
        """JSON-able status: connected ids and every link's counters."""
        now = time.monotonic()
        with self._lock:
            links = list(self._links.values())
        return {"connected": sorted(self.connected()), **self.screen_health(),
                "links": [vars_of(li.health(now)) for li in links]}

    def stalled(self, max_age_s: float) -> list[str]:
        """Paths of links whose thread has not turned for `max_age_s` (a hung read or write)."""
        now = time.monotonic()
        with self._lock:
            links = list(self._links.values())
        return [li.path for li in links if li.last_turn and now - li.last_turn > max_age_s]

    def close(self) -> None:
        """Stop every link thread and close the ports."""
        self._stop.set()
        for thread in list(self._threads):
            thread.join(timeout=2)

    def _on_event(self, event: LinkEvent) -> None:
        if self._sink is None:
            return
        if isinstance(event, LinkUp):
            hello = event.hello or proto.Hello(event.terminal, event.fw, 0)
            self._deliver(self.on_hello(event.terminal, hello, event.link))
        elif isinstance(event, LinkDown):
            self._release(event.path)
            if event.terminal is not None and event.reason != "stopped":
                self.on_gone(event.terminal)
                self._deliver(TerminalGone(event.terminal))
        elif isinstance(event, LinkChoice):
            self._deliver(self.on_choice(event.terminal, proto.Choice(event.ballot, event.seq, event.value),
                                         event.link))
        elif isinstance(event, LinkClash):
            if event.present:
                self.report(event.path, "duplicate_id", f"says hello as {event.terminal}, held by another port")
            self._deliver(TerminalClash(event.terminal, event.path, event.present))
        elif isinstance(event, LinkProblem):
            self.report(event.path, event.code, event.detail)
        elif isinstance(event, LinkTag):
            self.on_tag(event.terminal, None if event.uid is None else event.uid.hex())
        elif isinstance(event, LinkCrowd):
            self.on_crowd(event.terminal, event.on)


def vars_of(health: LinkHealth) -> dict[str, Any]:
    """A LinkHealth as a plain dict."""
    return dict(health.__dict__)
