"""The skeleton of a tap, with no game logic: what this machine charges for the thread hand-offs, the durable
commit and the fan-out a tap cannot skip, so that `cpu_per_tap_ms` can be read against it.

Per tap, as the table does it: the poller thread wakes for the read and again for the confirming read
(CONFIRM_GAP_S later) and hands the tag to the loop thread; the loop commits one action row through the real
journal (WAL, synchronous=FULL) and writes one snapshot-sized frame to each of N loopback TCP clients, read in
another process; then it wakes a renderer thread, which only takes the wake. The poller's plain interval wakes
(which an idle table pays too) are measured alone and subtracted, as `cpu_per_tap` subtracts the idle table."""

from __future__ import annotations

import multiprocessing
import queue
import selectors
import socket
import threading
import time
from pathlib import Path

from companion.hal.readers import CONFIRM_GAP_S
from companion.table.journal import Journal, open_db

INTERVAL_S = 0.010
"""The bench table's poll interval."""
FRAME_BYTES = 3000
"""About a 7-seat Secret Hitler state event on the wire."""


def _read_all(port: int, clients: int) -> None:
    """Child process: `clients` connections that read whatever comes until the other end closes."""
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    while sel.get_map():
        for key, _ in sel.select():
            if not key.fileobj.recv(65536):  # type: ignore[union-attr]
                sel.unregister(key.fileobj)


def _run(clients: int, taps: int, data_dir: Path) -> float:
    """CPU ms per skeleton tap with `clients` readers (one run)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    child = multiprocessing.get_context("spawn").Process(target=_read_all, args=(server.getsockname()[1], clients),
                                                         daemon=True)
    child.start()
    conns = [server.accept()[0] for _ in range(clients)]
    for c in conns:
        c.setblocking(False)
    journal = Journal(open_db(data_dir / "skeleton.db"))
    game = journal.new_game("secret_hitler", 7, {}, "digital", ("t",) * 7)
    inbox: queue.SimpleQueue[int | None] = queue.SimpleQueue()
    lights = threading.Condition()
    scene = [0]
    frame = b"x" * FRAME_BYTES
    row = [({"type": "vote", "seat": 3, "vote": "ja"}, "reader:r3")]  # one ballot, as a tap journals it

    def poller() -> None:
        for i in range(taps):
            time.sleep(INTERVAL_S)  # the poll that first reads the tag
            time.sleep(CONFIRM_GAP_S)  # the confirming read
            inbox.put(i)
            time.sleep(INTERVAL_S)
        inbox.put(None)

    def loop() -> None:
        while inbox.get() is not None:
            journal.append(game, row)
            for c in conns:
                c.send(frame)
            with lights:
                scene[0] += 1
                lights.notify()
        with lights:
            scene[0] = -1
            lights.notify()

    def renderer() -> None:
        seen = 0
        while seen >= 0:
            with lights:
                lights.wait_for(lambda: scene[0] != seen)
                seen = scene[0]

    threads = [threading.Thread(target=f) for f in (poller, loop, renderer)]
    try:
        t0 = time.process_time()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        spent = time.process_time() - t0
        t1 = time.thread_time()
        for _ in range(2 * taps):  # the interval wakes alone: an idle table's polling, not the tap's
            time.sleep(INTERVAL_S)
        idle = time.thread_time() - t1
    finally:
        for c in conns:
            c.close()
        server.close()
        journal.conn.close()
        child.join(5)
        if child.is_alive():
            child.kill()
    return (spent - idle) / taps * 1000


def tap_skeleton_ms(data_dir: str, taps: int = 100, rounds: int = 3) -> dict[str, float]:
    """{clients_0, clients_12}: the least of `rounds` runs' CPU ms per skeleton tap (as `cpu_per_tap` keeps)."""
    out = {}
    for clients in (0, 12):
        runs = []
        for r in range(rounds):
            run_dir = Path(data_dir) / f"skeleton-c{clients}r{r}"
            run_dir.mkdir(parents=True, exist_ok=True)
            runs.append(_run(clients, taps, run_dir))
        out[f"clients_{clients}"] = round(min(runs), 3)
    return out
