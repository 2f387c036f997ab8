"""systemd integration: READY=1 once the table runs, and WATCHDOG=1 only while every worker is alive.

Workers are watched three ways: explicit `beat()` calls, a progress counter that must keep moving (the
reader poller's cycles), or a liveness check (the table loop and LED renderer threads, which sleep while
idle and so cannot be asked to move; terminal links that keep turning). One stale worker stops the pings,
and systemd restarts the service after `WatchdogSec` (Restart=on-failure).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class Notifier:
    """sd_notify: through the `sdnotify` package when installed, else the same datagram written directly.

    sdnotify reads NOTIFY_SOCKET from the process environment, so it is used only when that is the address.
    """

    def __init__(self, env: Mapping[str, str] | None = None, *, use_sdnotify: bool = True) -> None:
        env = os.environ if env is None else env
        self.address = env.get("NOTIFY_SOCKET")
        self._sdnotify: Any = None
        if self.address and use_sdnotify and self.address == os.environ.get("NOTIFY_SOCKET"):
            try:
                import sdnotify

                self._sdnotify = sdnotify.SystemdNotifier()
            except ImportError:
                self._sdnotify = None

    @property
    def enabled(self) -> bool:
        """Whether a service manager listens (NOTIFY_SOCKET is set)."""
        return bool(self.address)

    def notify(self, state: str) -> None:
        """Send `KEY=value` lines; silently nothing outside systemd."""
        if not self.address:
            return
        if self._sdnotify is not None:
            self._sdnotify.notify(state)
            return
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(address)
                sock.sendall(state.encode())
            except OSError:
                pass  # the manager went away; nothing to tell


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """WatchdogSec in seconds when systemd set a watchdog for this process, else None."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC")
    owner = env.get("WATCHDOG_PID")
    if not usec or (owner and int(owner) != (pid if pid is not None else os.getpid())):
        return None
    try:
        return int(usec) / 1e6
    except ValueError:
        return None


@dataclass
class _Watch:
    kind: str
    max_age_s: float
    read: Callable[[], Any] | None = None
    last_value: Any = None
    last_change: float = 0.0


class Heartbeats:
    """The workers that must be alive for the service to count as healthy."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._watches: dict[str, _Watch] = {}
        self._lock = threading.Lock()

    def expect(self, name: str, max_age_s: float) -> None:
        """A worker that calls `beat(name)` at least every `max_age_s`."""
        with self._lock:
            self._watches[name] = _Watch("beat", max_age_s, last_change=self._clock())

    def beat(self, name: str) -> None:
        """The worker is alive now."""
        with self._lock:
            watch = self._watches.get(name)
            if watch is not None:
                watch.last_change = self._clock()

    def watch_progress(self, name: str, read: Callable[[], Any], max_age_s: float) -> None:
        """A worker whose counter must change at least every `max_age_s`."""
        with self._lock:
            self._watches[name] = _Watch("progress", max_age_s, read, read(), self._clock())

    def watch_alive(self, name: str, alive: Callable[[], bool]) -> None:
        """A worker that may idle but must not die."""
        with self._lock:
            self._watches[name] = _Watch("alive", 0.0, alive)

    def stale(self, now: float | None = None) -> list[str]:
        """Names of workers that look dead or stuck now."""
        now = self._clock() if now is None else now
        dead = []
        with self._lock:
            for name, watch in self._watches.items():
                if watch.kind == "alive":
                    if watch.read is not None and not watch.read():
                        dead.append(name)
                    continue
                if watch.kind == "progress" and watch.read is not None:
                    value = watch.read()
                    if value != watch.last_value:
                        watch.last_value, watch.last_change = value, now
                if now - watch.last_change > watch.max_age_s:
                    dead.append(name)
        return sorted(dead)


class Supervisor:
    """Tells systemd the service is ready, then pings its watchdog while every heartbeat is fresh."""

    def __init__(self, heartbeats: Heartbeats, notifier: Notifier, watchdog_s: float | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.heartbeats = heartbeats
        self.notifier = notifier
        self.watchdog_s = watchdog_s
        self._clock = clock
        self.last_stale: list[str] = []

    def ready(self, status: str = "table running") -> None:
        """READY=1 (Type=notify)."""
        self.notifier.notify(f"READY=1\nSTATUS={status}")

    def tick(self, now: float | None = None) -> bool:
        """One check: ping the watchdog if all is well; True when it pinged."""
        stale = self.heartbeats.stale(now)
        if stale != self.last_stale:
            self.notifier.notify("STATUS=" + ("stale: " + ", ".join(stale) if stale else "table running"))
            self.last_stale = stale
        if stale:
            return False
        self.notifier.notify("WATCHDOG=1")
        return True

    def run(self, stop: threading.Event) -> None:
        """Check at a third of the watchdog interval until stopped."""
        period = (self.watchdog_s or 3.0) / 3
        while not stop.wait(period):
            self.tick()

    def stopping(self) -> None:
        """STOPPING=1 on a clean shutdown."""
        self.notifier.notify("STOPPING=1")


def watch_runtime(heartbeats: Heartbeats, runtime: Any, stuck_s: float = 5.0) -> None:
    """Register the running table's workers: loop and renderer threads, reader poller, terminal links."""
    for name, owner in (("table-loop", getattr(runtime, "loop", None)), ("led-renderer", getattr(runtime, "renderer", None))):
        thread = getattr(owner, "_thread", None)
        if isinstance(thread, threading.Thread):
            heartbeats.watch_alive(name, thread.is_alive)
    hardware = getattr(runtime, "hardware", None)
    poller = getattr(hardware, "poller", None)
    if poller is not None and getattr(hardware, "readers", None):
        heartbeats.watch_progress("reader-poller", lambda: getattr(poller, "_cycles", 0), stuck_s)
    stalled = getattr(getattr(hardware, "terminals", None), "stalled", None)
    if callable(stalled):
        heartbeats.watch_alive("terminal-links", lambda: not stalled(stuck_s))


def start_supervisor(runtime: Any, env: Mapping[str, str] | None = None) -> tuple[Supervisor, threading.Event]:
    """Under systemd: READY=1 now and a watchdog thread; outside it, nothing is sent."""
    heartbeats = Heartbeats()
    watch_runtime(heartbeats, runtime)
    supervisor = Supervisor(heartbeats, Notifier(env), watchdog_interval(env))
    stop = threading.Event()
    supervisor.ready()
    if supervisor.watchdog_s:
        threading.Thread(target=supervisor.run, args=(stop,), name="watchdog", daemon=True).start()
    return supervisor, stop
