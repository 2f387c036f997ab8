"""The demo table in its own process for the latency benches that drive clients (SSE readers, browsers).

The table runs apart from the benchmark's clients, as `companion run` runs apart from the phones and screens:
in one process the clients' Python shares the server's interpreter lock, which delayed SSE writes by up to
250 ms, a cost no real table has. Tap times are wall-clock milliseconds since the epoch, comparable across
the two processes."""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

from companion.config import PollingConfig, WebConfig, demo_config
from companion.bench.tap import SECRET_HITLER_7, enroll_ballots, lift_ballots, voters_or_advance


ACCEPT_S = 0.020
"""Longer than a placed ballot takes to be read, confirmed and handled on the bench table (10 ms polling)."""
ACCEPT_RETRY_S = 0.005
"""How long to sleep again before the next ping when a tap was not yet handled."""


@dataclass(frozen=True)
class Tap:
    """A ballot placed: the game, its action count and the bus's last event number before it, and when."""

    game_id: str
    actions_before: int
    event_before: int
    at_ms: float


def _thread_group(name: str) -> str:
    """A thread's name without its pool number (`waitress-12` -> `waitress`)."""
    return name.rstrip("0123456789").rstrip("-_") or name


def _cpu_by_thread() -> dict[str, int]:
    """CPU nanoseconds spent so far by this process's threads, by thread group, the calling (benchmark) thread
    left out; threads that have ended count under `ended`."""
    me = threading.get_ident()
    groups: dict[str, int] = {}
    for thread in threading.enumerate():
        if thread.ident is None or thread.ident == me:
            continue
        try:
            spent = time.clock_gettime_ns(time.pthread_getcpuclockid(thread.ident))
        except (OSError, ProcessLookupError):  # it ended between the listing and the read
            continue
        group = _thread_group(thread.name)
        groups[group] = groups.get(group, 0) + spent
    groups["ended"] = time.process_time_ns() - time.thread_time_ns() - sum(groups.values())
    return groups


def _await_accepted(loop: Any, actions_before: int, taps: int = 1) -> None:
    """Block until the game holds `taps` more actions than `actions_before`, their publish done: asleep while the tap
    can still be on its way (a reader's poll interval plus its confirming read), then asking the loop with a
    ping, whose cost the benchmark measures and subtracts. A bus subscription stayed in the figure: the loop
    thread paid its wake-up at every publish (the bus's publish took 88 us with it, 62-77 us without), which no
    real table pays. So did polling: a look every 0.5 ms took the interpreter lock from the loop it waited for."""
    deadline = time.monotonic() + 10
    if len(loop.session.actions) < actions_before + taps:
        time.sleep(ACCEPT_S)
    while True:
        loop.wait_idle()
        if len(loop.session.actions) >= actions_before + taps:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("the tap was never accepted")
        time.sleep(ACCEPT_RETRY_S)


def _count_commits(runtime: Any) -> list[int]:
    """[n]: the action commits (journal transactions) the runtime has made since, counted as they return."""
    commits = [0]
    append_all = runtime.journal.append_all

    def counted(appends: Any) -> int:
        written = append_all(appends)
        commits[0] += 1
        return written

    runtime.journal.append_all = counted
    return commits


def _serve(conn: Connection, data_dir: str, seed: int, threads: int, heartbeat_s: float) -> None:
    """Child process: the demo table on mock hardware and its waitress server, placing ballots when asked."""
    from companion.hal.mock import MockHardware
    from companion.table.runtime import Runtime

    cfg = replace(demo_config(), data_dir=data_dir, polling=PollingConfig(interval_ms=10, removal_ms=20),
                  web=WebConfig(threads=threads))
    runtime = Runtime(cfg, rng=random.Random(seed)).start()
    hw, loop = runtime.hardware, runtime.loop
    assert isinstance(hw, MockHardware)
    server = runtime.make_server("127.0.0.1", 0, SSE_HEARTBEAT_S=heartbeat_s)
    commits = _count_commits(runtime)
    runtime.freeze_heap()  # as `companion run` does once its server is built
    threading.Thread(target=server.run, daemon=True).start()
    ballots = enroll_ballots(loop, "E")  # UIDs are hex
    rng = random.Random(seed)
    loop.call(SECRET_HITLER_7)
    conn.send(server.effective_port)
    tapped: list[int] = []
    try:
        while (ask := conn.recv()) != "stop":
            if ask == "voters":
                voters: list[int] = []
                while not voters:
                    voters = voters_or_advance(loop, rng)
                conn.send(voters)
            elif ask[0] == "cpu":  # the table's threads only: this one runs the benchmark's side
                if ask[1] is not None:
                    _await_accepted(loop, ask[1])  # ends with the loop idle: the tap's publish is done
                else:
                    loop.wait_idle()
                conn.send(_cpu_by_thread())
            elif ask[0] == "burst":  # every seat's ballot at once, as a table drops them when a vote opens
                session = loop.session
                tap = Tap(str(session.game_id), len(session.actions), loop.bus.last_number(), time.time() * 1000)
                for seat in ask[1]:
                    tapped.append(seat)
                    hw.place(f"r{seat}", ballots[(seat, "nein" if rng.random() < 0.6 else "ja")], wait=False)
                conn.send(tap)
            elif ask == "commits":
                conn.send(commits[0])
            elif ask[0] == "accepted":
                _await_accepted(loop, ask[1], ask[2])
                conn.send((loop.bus.last_number(), commits[0]))
            elif ask == "clear":
                lift_ballots(hw, loop, tapped)
                tapped.clear()
                conn.send(True)
            else:
                seat, settle = ask[1], ask[2]
                tapped.append(seat)
                if settle:
                    loop.wait_idle()
                session = loop.session
                vote = "nein" if rng.random() < 0.6 else "ja"
                tap = Tap(str(session.game_id), len(session.actions), loop.bus.last_number(), time.time() * 1000)
                hw.place(f"r{seat}", ballots[(seat, vote)], wait=False)
                conn.send(tap)
    finally:
        runtime.stop()  # ends the streams, then closes the server on its own thread


class TableProcess:
    """Start the demo table in a child process; drive its Secret Hitler votes from here."""

    def __init__(self, data_dir: str, seed: int = 1, threads: int = 32, heartbeat_s: float = 5.0) -> None:
        mp = multiprocessing.get_context("spawn")
        self._conn, child = mp.Pipe()
        self._process = mp.Process(target=_serve, args=(child, data_dir, seed, threads, heartbeat_s), daemon=True)
        self._process.start()
        deadline = time.monotonic() + 60
        while not self._conn.poll(0.1):
            if not self._process.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the table process did not start")
        self.port: int = self._conn.recv()

    def _ask(self, message: Any) -> Any:
        self._conn.send(message)
        return self._conn.recv()

    def voters(self) -> list[int]:
        """Advance the game to its next vote; the seats that may vote."""
        return self._ask("voters")

    def tap(self, seat: int, settle: bool = True) -> Tap:
        """Place a random ballot on a seat's reader (once every queued input is handled, with `settle`;
        without, the caller has just waited for that, as `table_cpu_by_thread` does, and the table is spared
        one more ping)."""
        return self._ask(("tap", seat, settle))

    def table_cpu_by_thread(self, after: Tap | None = None) -> dict[str, int]:
        """CPU nanoseconds the table process has spent so far in all its threads but the benchmark's own
        (once `after`'s tap is accepted and published, when given), by thread group (`table-loop`,
        `reader-poller`, `waitress`, ...; `ended`: threads that have ended)."""
        return self._ask(("cpu", None if after is None else after.actions_before))

    def burst(self, seats: list[int]) -> Tap:
        """Place a random ballot on each of these seats' readers at once (a CPU reading just left the loop idle)."""
        return self._ask(("burst", seats))

    def commits(self) -> int:
        """How many action commits (journal transactions) the table has made so far."""
        return self._ask("commits")

    def accepted(self, tap: Tap, taps: int) -> tuple[int, int]:
        """Once `taps` actions after `tap` are accepted and published: the bus's last event number and how many
        action commits the table has made so far."""
        return self._ask(("accepted", tap.actions_before, taps))

    def clear(self) -> None:
        """Take the tapped ballots off their readers."""
        self._ask("clear")

    def stop(self) -> None:
        """End the table process."""
        try:
            self._conn.send("stop")
        except OSError:
            pass
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()
