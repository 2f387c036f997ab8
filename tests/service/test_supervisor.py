"""The supervisor: READY=1, watchdog pings only while every worker is alive, sd_notify over a real socket."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.supervisor import Heartbeats, Notifier, Supervisor, start_supervisor, watch_runtime, watchdog_interval


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10)
    yield path, sock
    sock.close()


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.enabled = True

    def notify(self, state: str) -> None:
        self.sent.append(state)


def test_explicit_beats_go_stale_after_their_age() -> None:
    clock = Clock()
    beats = Heartbeats(clock)
    beats.expect("web", 5.0)
    clock.now += 4.9
    assert beats.stale() == []
    clock.now += 0.2
    assert beats.stale() == ["web"]
    beats.beat("web")
    assert beats.stale() == []


def test_a_progress_counter_must_keep_moving() -> None:
    clock = Clock()
    beats = Heartbeats(clock)
    counter = {"n": 0}
    beats.watch_progress("reader-poller", lambda: counter["n"], 5.0)
    for _ in range(10):
        clock.now += 1.0
        counter["n"] += 1
        assert beats.stale() == []
    clock.now += 5.1
    assert beats.stale() == ["reader-poller"]


def test_a_dead_thread_is_stale_but_an_idle_one_is_not() -> None:
    beats = Heartbeats(Clock())
    idle = threading.Event()
    alive = threading.Thread(target=idle.wait, daemon=True)
    dead = threading.Thread(target=lambda: None)
    alive.start()
    dead.start()
    dead.join()
    beats.watch_alive("table-loop", alive.is_alive)
    beats.watch_alive("led-renderer", dead.is_alive)
    assert beats.stale() == ["led-renderer"]
    idle.set()


def test_the_watchdog_is_pinged_only_while_everything_is_fresh() -> None:
    clock = Clock()
    beats = Heartbeats(clock)
    beats.expect("reader-poller", 3.0)
    notifier = Recorder()
    supervisor = Supervisor(beats, notifier, 10.0, clock)  # type: ignore[arg-type]
    supervisor.ready()
    assert supervisor.tick() is True
    clock.now += 4
    assert supervisor.tick() is False
    assert supervisor.tick() is False
    beats.beat("reader-poller")
    assert supervisor.tick() is True
    assert notifier.sent == ["READY=1\nSTATUS=table running", "WATCHDOG=1", "STATUS=stale: reader-poller",
                             "STATUS=table running", "WATCHDOG=1"]


def test_watchdog_interval_comes_from_systemd_for_this_process_only() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, pid=2) is None
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "7"}, pid=7) == 20.0
    assert watchdog_interval({}) is None


@pytest.mark.parametrize("use_sdnotify", [True, False], ids=["sdnotify", "builtin"])
def test_notifications_reach_the_socket(listener: tuple[str, socket.socket], use_sdnotify: bool,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)  # sdnotify reads the environment itself
    notifier = Notifier({"NOTIFY_SOCKET": path}, use_sdnotify=use_sdnotify)
    assert (notifier._sdnotify is not None) is use_sdnotify  # noqa: SLF001
    notifier.notify("READY=1")
    assert sock.recv(1024) == b"READY=1"


def test_outside_systemd_nothing_is_sent() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    notifier.notify("READY=1")


def test_watch_runtime_registers_the_tables_workers() -> None:
    stop = threading.Event()
    loop_thread = threading.Thread(target=stop.wait, daemon=True)
    loop_thread.start()
    runtime = SimpleNamespace(
        loop=SimpleNamespace(_thread=loop_thread), renderer=SimpleNamespace(_thread=threading.Thread(target=print)),
        hardware=SimpleNamespace(readers=[object()], poller=SimpleNamespace(_cycles=0),
                                 terminals=SimpleNamespace(stalled=lambda age: ["/dev/ttyACM0"])))
    clock = Clock()
    beats = Heartbeats(clock)
    watch_runtime(beats, runtime)
    clock.now += 6
    assert beats.stale() == ["led-renderer", "reader-poller", "terminal-links"]
    stop.set()


def test_start_supervisor_says_ready(listener: tuple[str, socket.socket]) -> None:
    path, sock = listener
    supervisor, stop = start_supervisor(SimpleNamespace(), {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "300000"})
    try:
        assert sock.recv(1024).startswith(b"READY=1")
        assert sock.recv(1024) == b"WATCHDOG=1", "no workers registered: healthy, so the thread pings"
    finally:
        stop.set()


def test_companion_run_notifies_ready_and_stopping(listener: tuple[str, socket.socket], tmp_path: Path) -> None:
    path, sock = listener
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="600000", WATCHDOG_PID="")
    process = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--port", str(port), "--data", str(tmp_path)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert sock.recv(1024).startswith(b"READY=1")
        messages = [sock.recv(1024) for _ in range(2)]
        assert b"WATCHDOG=1" in messages, messages
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # SIGTERM before the web server is up would be lost (run.py)
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        while (message := sock.recv(1024)) != b"STOPPING=1":
            assert message in (b"WATCHDOG=1",) or message.startswith(b"STATUS="), message
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
