"""`companion venue simulate --tables N --data DIR`: N mock tables (the real table loop, journal and venue
publisher, each with its own MQTT client, on mock hardware without readers) playing random games in this
process against one Mosquitto, with `companion venue` running as its own process; measured:

- messages per second the tables published (every status, summary, health and result);
- the broker's CPU (its /proc/<pid>/stat, over the run);
- the dashboard's update latency: from a table's action (the moment it is submitted to the table) to the row that
  shows it arriving on the dashboard's own live stream (`/api/venue/events`, read over HTTP as the page reads it).
"""

from __future__ import annotations

import heapq
import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games.registry import all_games
from companion.venue.broker import STAFF_LOGIN, Layout
from companion.venue.errors import VenueError
from companion.venue.mqtt import read_password
from companion.venue.store import VenueStore

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def find_mosquitto() -> int | None:
    """The pid of a running mosquitto, if there is one."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "mosquitto":
                    return int(entry.name)
            except OSError:
                continue
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    raise VenueError("simulate_failed", f"{what} did not start")


class StreamReader(threading.Thread):
    """Reads the dashboard's live stream as the page does; notes when each table's rows arrive, with the game and
    action count each shows."""

    def __init__(self, port: int, cookie: str) -> None:
        super().__init__(name="dashboard-stream", daemon=True)
        self.port, self.cookie = port, cookie
        self.seen: dict[str, list[tuple[float, int, int]]] = {}
        """table -> [(arrival time, game id, action count)] in arrival order."""
        self.rows = 0

    def shown(self, table: str, game_id: int, actions: int, after: float) -> float | None:
        """When the first row showing that game at that action count or later arrived after `after` (the table
        sends only its newest summary: a move followed at once by another shows with the second)."""
        for at, gid, n in self.seen.get(table, ()):
            if at >= after and gid == game_id and n >= actions:
                return at
        return None

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        conn.request("GET", "/api/venue/events", headers={"Cookie": self.cookie})
        response = conn.getresponse()
        kind = ""
        while True:
            line = response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("data: ") and kind == "row":
                now = time.time()
                row = json.loads(text[6:])
                self.rows += 1
                summary = row.get("summary")
                if summary and summary.get("game_id") is not None:
                    self.seen.setdefault(row["table"], []).append((now, int(summary["game_id"]), int(summary["actions"])))


def _login(port: int, password: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/venue/login", json.dumps({"login": STAFF_LOGIN, "password": password}),
                 {"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        raise VenueError("simulate_failed", f"the staff login was refused ({response.status})")
    return response.getheader("Set-Cookie", "").split(";", 1)[0]


def _until(check: Any, timeout: float) -> None:
    """Wait until `check()` holds, or `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def run_simulation(data: Path, broker_url: str | None, tables: int, seconds: float, rate: float, as_json: bool,
                   ca_file: str | None = None) -> int:
    """Run the simulation and print its figures."""
    from companion.config import LedConfig, VenueConfig, demo_config
    from companion.table.core.commands import NewGame, Submit
    from companion.table.runtime import Runtime

    layout = Layout(data)
    store = VenueStore(data)
    ids = store.tables()[:tables]
    store.close()
    if len(ids) < tables:
        raise VenueError("simulate_failed", f"{data} has {len(ids)} tables: run `companion venue init --tables "
                                            f"{tables}` first")
    procs: list[subprocess.Popen[bytes]] = []
    runtimes: list[Any] = []
    work = Path(tempfile.mkdtemp(prefix="venue-sim-"))
    try:
        broker_pid = None
        if broker_url is None:
            port = int(re.search(r"^listener (\d+)", layout.conf.read_text(), re.M).group(1))  # type: ignore[union-attr]
            log = open(work / "mosquitto.log", "wb")
            conf = layout.conf
            if os.geteuid() == 0:  # as root, mosquitto drops to its own user, who cannot read venue init's 0600 files
                conf = work / "mosquitto.conf"
                conf.write_text(layout.conf.read_text() + "\nuser root\n")
            procs.append(subprocess.Popen(["mosquitto", "-c", str(conf)], stdout=log, stderr=log))
            _wait_port(port, procs[-1], "mosquitto")
            broker_url, broker_pid = f"mqtt://127.0.0.1:{port}", procs[-1].pid
        else:
            broker_pid = find_mosquitto()
        dash_port = _free_port()
        command = [sys.executable, "-m", "companion.cli", "venue", "--broker", broker_url, "--data", str(data),
                   "--port", str(dash_port)] + (["--ca-file", ca_file] if ca_file else [])
        dash_log = open(work / "dashboard.log", "wb")
        procs.append(subprocess.Popen(command, stdout=dash_log, stderr=dash_log))
        _wait_port(dash_port, procs[-1], "the dashboard")
        reader = StreamReader(dash_port, _login(dash_port, read_password(layout.account(STAFF_LOGIN))))
        reader.start()
        rng = random.Random(1)
        base = demo_config()
        games = all_games()
        for i, table in enumerate(ids):
            game = games[i % len(games)]
            cfg = replace(base, name=table, data_dir=str(work / table), readers=(), buttons=(), leds=LedConfig(),
                          game=replace(base.game, name=game.id, seats=game.demo_seats),
                          venue=VenueConfig(broker_url, table, str(layout.account(table)), ca_file=ca_file))
            runtimes.append(Runtime(cfg, rng=random.Random(i)).start())
        _until(lambda: all(rt.venue.state()["connected"] for rt in runtimes), 10.0)  # every table connected
        time.sleep(0.5)  # and its first messages out
        sent: list[tuple[str, int, int, float]] = []
        published0 = sum(rt.venue.published for rt in runtimes)
        broker0 = cpu_seconds(broker_pid) if broker_pid else None
        dash0 = cpu_seconds(procs[-1].pid)
        start = time.monotonic()
        due = [(start + rng.expovariate(rate), i) for i in range(len(runtimes))]
        heapq.heapify(due)
        actions = games_done = 0
        while due and due[0][0] < start + seconds:
            at, i = heapq.heappop(due)
            time.sleep(max(0.0, at - time.monotonic()))
            rt = runtimes[i]
            session = rt.loop.session
            acting = sorted(s for s in session.rules.to_act(session.state) if s >= 0) if session else []
            if not acting:
                rt.loop.call(NewGame(session.game, session.seats, replace=True))
                games_done += 1
            else:
                seat = rng.choice(acting)
                t0 = time.time()
                result = rt.loop.call(Submit(seat, rng.choice(session.rules.legal_actions(session.state, seat)), "sim"))
                if isinstance(result, dict):
                    sent.append((ids[i], session.game_id, len(rt.loop.session.actions), t0))
                    actions += 1
            heapq.heappush(due, (at + rng.expovariate(rate), i))
        elapsed = time.monotonic() - start
        published = sum(rt.venue.published for rt in runtimes) - published0
        broker_cpu = None if broker0 is None else (cpu_seconds(broker_pid) - broker0) / elapsed * 100  # type: ignore[arg-type]
        dash_cpu = (cpu_seconds(procs[-1].pid) - dash0) / elapsed * 100
        _until(lambda: all(reader.shown(t, g, n, t0) for t, g, n, t0 in sent[-len(runtimes):]), 3.0)  # the last rows
        arrivals = [(reader.shown(table, gid, n, t0), t0) for table, gid, n, t0 in sent]
        latencies = [(at - t0) * 1000 for at, t0 in arrivals if at is not None]
        figures = {
            "tables": len(runtimes), "seconds": round(elapsed, 1), "actions": actions, "games_finished": games_done,
            "actions_per_s": round(actions / elapsed, 1), "messages_published_per_s": round(published / elapsed, 1),
            "broker_cpu_pct": None if broker_cpu is None else round(broker_cpu, 1),
            "dashboard_cpu_pct": round(dash_cpu, 1), "dashboard_rows_received": reader.rows,
            "update_ms_p50": round(_percentile(latencies, 50), 1), "update_ms_p99": round(_percentile(latencies, 99), 1),
            "update_ms_max": round(max(latencies), 1) if latencies else None,
            "updates_measured": len(latencies), "updates_missing": len(sent) - len(latencies),
        }
        if as_json:
            print(json.dumps(figures))
        else:
            for key, value in figures.items():
                print(f"{key:28} {value}")
        return 0
    finally:
        for rt in runtimes:
            try:
                rt.stop()
            except Exception:
                pass
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
