"""Seat terminals on USB serial: a link per Pico port (found by USB id, rescanned), table messages translated.

One port's link (handshake, heartbeat, reconnect) is companion.hal.serial_link.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from companion.hal import terminal_protocol as proto
from companion.hal.events import TerminalChoice, TerminalGone, TerminalHello
from companion.hal.interfaces import TerminalHub
from companion.hal.serial_link import (HOST_FW, LinkChoice, LinkDown, LinkEvent, LinkHealth, LinkProblem, LinkTag,
                                       LinkUp, Port, TerminalLink, open_serial)

__all__ = ["HOST_FW", "LinkChoice", "LinkDown", "LinkEvent", "LinkHealth", "LinkProblem", "LinkTag", "LinkUp",
           "Port", "SerialTerminalHub", "TerminalLink", "find_terminals", "open_serial", "vars_of"]

log = logging.getLogger("companion.hal.terminals")

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


class SerialTerminalHub(TerminalHub):
    """The pi backend's terminals: a link per Pico port (found by USB id, rescanned), table messages translated.

    The table speaks dicts ({"type": "prompt", "options": [{"value": 0, "label": ..}]} ...); the wire speaks
    protocol v1. Option values go out as strings and come back as the table's own values.
    """

    def __init__(
        self,
        paths: Iterable[str] = (),
        *,
        discover: Callable[[], list[str]] | None = find_terminals,
        rescan_s: float = 2.0,
        **link_options: Any,
    ) -> None:
        self._fixed = list(paths)
        self._discover = discover
        self._rescan_s = rescan_s
        self._options = link_options
        self._links: dict[str, TerminalLink] = {}
        self._threads: list[threading.Thread] = []
        self._values: dict[tuple[str, str], dict[str, Any]] = {}
        self._open: dict[str, str] = {}
        self._stop = threading.Event()
        self._sink: Callable[[Any], None] | None = None
        self._lock = threading.Lock()
        self.problems = 0

    def start(self, sink: Callable[[Any], None]) -> None:
        """Open the configured ports and keep looking for new terminals."""
        self._sink = sink
        for path in self._fixed:
            self._add(path)
        if self._discover is not None:
            thread = threading.Thread(target=self._scan_loop, name="terminal-scan", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _scan_loop(self) -> None:
        while not self._stop.is_set():
            try:
                found = self._discover() if self._discover else []
            except OSError:
                found = []
            for path in found:
                self._add(path)
            self._stop.wait(self._rescan_s)

    def _add(self, path: str) -> None:
        with self._lock:
            if path in self._links or self._stop.is_set():
                return
            link = TerminalLink(path, self._on_event, **self._options)
            self._links[path] = link
            thread = threading.Thread(target=link.run, args=(self._stop,), name=f"terminal:{Path(path).name}", daemon=True)
            self._threads.append(thread)
        thread.start()

    def _link(self, terminal: str) -> TerminalLink | None:
        with self._lock:
            links = list(self._links.values())
        return next((li for li in links if li.terminal == terminal and li.connected), None)

    def send(self, terminal: str, message: Mapping[str, Any]) -> bool:
        """Translate a table message to the wire and send it; False when the terminal is not connected."""
        link = self._link(terminal)
        kind = message.get("type")
        try:
            if kind == "prompt":
                ballot = str(message["ballot"])
                values = {str(o["value"]): o["value"] for o in message["options"]}
                options = [(str(o["value"]), str(o.get("label", o["value"]))[:64]) for o in message["options"]]
                with self._lock:
                    self._values[(terminal, ballot)] = values
                    self._open[terminal] = ballot
                if link is None:
                    return False
                link.prompt(ballot, options)
                return link.connected
            if kind == "idle":
                with self._lock:
                    ballot = self._open.pop(terminal, "")
                if link is None:
                    return False
                if ballot:
                    link.close_prompt(ballot)
                return link.connected
            if link is None:
                return False
            if kind == "ack":
                return link.send(proto.Ack(int(message["seq"])))
            if kind == "error":
                return link.send(proto.Error(int(message["seq"]), str(message.get("code", "refused"))))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"cannot send {kind!r} to terminal {terminal}: {exc}") from exc
        return False

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
        return {"connected": sorted(self.connected()), "problems": self.problems,
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
        sink = self._sink
        if sink is None:
            return
        if isinstance(event, LinkUp):
            sink(TerminalHello(event.terminal, event.fw))
        elif isinstance(event, LinkDown):
            if event.terminal is not None and event.reason != "stopped":
                sink(TerminalGone(event.terminal))
        elif isinstance(event, LinkChoice):
            with self._lock:
                values = self._values.get((event.terminal, event.ballot), {})
            sink(TerminalChoice(event.terminal, event.ballot, event.seq, values.get(event.value, event.value)))
        elif isinstance(event, LinkProblem):
            with self._lock:
                self.problems += 1
            log.warning("terminal %s: %s %s", event.path, event.code, event.detail)
        elif isinstance(event, LinkTag):
            log.info("terminal %s saw tag %s", event.terminal, event.uid.hex())


def vars_of(health: LinkHealth) -> dict[str, Any]:
    """A LinkHealth as a plain dict."""
    return dict(health.__dict__)
