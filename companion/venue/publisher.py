"""The table's venue worker: publishes its status (with a last will), public summary, health and finished games'
results to the venue's MQTT broker, on its own thread. The table never waits on it: the loop thread only
`offer`s each new public snapshot into a one-slot mailbox (the newest replaces an unsent one) and goes on.

One Paho client per connection, driven by this thread's own select (`loop_read` / `loop_write` / `loop_misc`)
so a new snapshot wakes it at once; a lost or refused connection is retried with growing, jittered backoff.
"""

from __future__ import annotations

import logging
import os
import random
import select
import socket
import ssl
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.config import VenueConfig
from companion.errors import CompanionError
from companion.venue import payloads
from companion.venue.errors import VenueError
from companion.venue.mqtt import Broker, connect, new_client, read_password
from companion.venue.outbox import Outbox
from companion.venue.topics import ANNOUNCEMENT, result_topic, table_topic

log = logging.getLogger("companion.venue")

HEALTH_EVERY_S = 2.0
"""How often the devices are looked at; the health is published when a state changed, or every HEALTH_REFRESH_S."""
HEALTH_REFRESH_S = 60.0
OUTBOX_EVERY_S = 5.0
"""Pending results are looked for this often (and at once when a game ends)."""
BACKOFF_S = (0.5, 30.0)
"""The first and the longest wait between connection attempts (doubling, with jitter)."""
GOODBYE_S = 1.0
"""How long a stopping table waits for the broker to take its `offline` status."""


def version() -> str:
    """This package's version (the status message says it)."""
    from importlib.metadata import PackageNotFoundError, version as dist_version
    try:
        return dist_version("table-companion")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


class Mailbox:
    """The newest public snapshot, for the worker: `put` replaces an unsent one and never blocks on the worker."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._lock = threading.Lock()
        self._item: Mapping[str, Any] | None = None
        self._wake = wake

    def put(self, item: Mapping[str, Any]) -> None:
        """Leave the newest snapshot (wakes the worker only when the box was empty)."""
        with self._lock:
            empty = self._item is None
            self._item = item
        if empty:
            self._wake()

    def take(self) -> Mapping[str, Any] | None:
        """The snapshot left since the last take, or None."""
        with self._lock:
            item, self._item = self._item, None
        return item


class VenuePublisher:
    """Publishes one table to its venue; `offer` is the only call the loop thread makes."""

    def __init__(self, venue: VenueConfig, db_path: Path, devices: Callable[[], Mapping[str, Any]],
                 announce: Callable[[Mapping[str, Any] | None], None], *, zones: Mapping[str, str] | None = None,
                 backoff: tuple[float, float] | None = None, clock: Callable[[], float] = time.time) -> None:
        self.venue = venue
        self.db_path = db_path
        self._devices = devices
        self._zones = dict(zones or {})
        """Reader name -> the zone it serves: the health names a reader by its zone (seat:2, board)."""
        self._announce = announce
        self._backoff = backoff or BACKOFF_S
        self._clock = clock
        self._born = time.monotonic()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self.mailbox = Mailbox(self._wake)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="venue-publisher", daemon=True)
        self._snapshot: Mapping[str, Any] | None = None
        self._sent: dict[str, bytes] = {}
        self._inflight: dict[int, int] = {}
        self._game: tuple[Any, float | None] = (None, None)
        self._actions: tuple[Any, int, float | None] = (None, -1, None)
        self._terminals_seen: set[str] = set()
        self._health_at = self._outbox_at = 0.0
        self._health_key: Any = None
        self._health_refreshed = 0.0
        self._outbox: Outbox | None = None
        self._connected = False
        self.published = 0
        """Messages handed to the broker so far (the simulator's messages per second)."""
        self.problem: str | None = None
        """The code of the last refusal (None while connected): the host's health shows it."""
        self.version = version()

    # --- the table's threads ----------------------------------------------------------------------------------

    def offer(self, snapshot: Mapping[str, Any]) -> None:
        """A new public snapshot (from the loop thread: never blocks, never raises into the table)."""
        self.mailbox.put(snapshot)

    def start(self) -> "VenuePublisher":
        """Start the worker."""
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Say `offline` (retained) if connected, disconnect, and stop the worker."""
        self._stop.set()
        self._wake()
        self._thread.join(timeout)
        self._wake_r.close()
        self._wake_w.close()

    def state(self) -> dict[str, Any]:
        """Whether the table is connected to its venue, the last refusal's code, and its table id."""
        return {"table": self.venue.table, "connected": self._connected, "problem": self.problem}

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"!")
        except OSError:  # full (the worker has not drained yet: it is awake) or closed (stopping)
            pass

    # --- the worker ---------------------------------------------------------------------------------------------

    def _run(self) -> None:
        outbox = Outbox(self.db_path)
        failures = 0
        try:
            while not self._stop.is_set():
                try:
                    client = self._open()
                except (CompanionError, OSError) as exc:
                    failures += 1
                    self._refused(exc, failures)
                    self._stop.wait(self._delay(failures))
                    continue
                failures = 0
                try:
                    self._serve(client, outbox)
                except Exception as exc:  # a bug here must not end the worker: it reconnects
                    log.exception("venue publisher: %s", exc)
                finally:
                    self._connected = False
                    self._close(client)
        finally:
            outbox.close()

    def _delay(self, failures: int) -> float:
        first, most = self._backoff
        return min(most, first * 2 ** min(failures - 1, 16)) * random.uniform(0.8, 1.2)

    def _refused(self, exc: Exception, failures: int) -> None:
        code = getattr(exc, "code", "broker_unreachable")
        if code != self.problem or failures % 20 == 1:  # said when it changes, then now and then
            log.warning("venue: %s (attempt %d; the table plays on)", exc, failures)
        self.problem = code

    def _open(self) -> Any:
        password = read_password(self.venue.password_file)
        broker = Broker.of(self.venue.broker, self.venue.account, password, self.venue.ca_file)
        will = payloads.encode(payloads.status("offline", self.version, None, self.venue.keepalive))
        client = new_client(broker, f"companion-{self.venue.table}", will=(self._topic("status"), will))
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        connect(client, broker, self.venue.keepalive)
        self._connected, self.problem = True, None
        log.info("venue: connected to %s as table %s", broker.describe(), self.venue.table)
        return client

    def _close(self, client: Any) -> None:
        try:
            client.disconnect()
            client.loop_write()
        except Exception:  # already gone
            pass
        sock = client.socket()
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass

    def _topic(self, kind: str) -> str:
        return table_topic(self.venue.table, kind)

    def _serve(self, client: Any, outbox: Outbox) -> None:
        """One connection: everything retained again, then changes as they come, until it drops or we stop."""
        self._sent.clear()
        self._inflight.clear()
        self._outbox = outbox
        self._publish(client, "status", payloads.status("online", self.version, self._clock(), self.venue.keepalive))
        client.subscribe(ANNOUNCEMENT, qos=1)
        if self._snapshot is not None:
            self._publish(client, "summary", self._summary(self._snapshot, outbox))
        self._health_at = self._outbox_at = 0.0
        while not self._stop.is_set():
            if not self._pump(client):
                log.warning("venue: the connection to the broker was lost; reconnecting (the table plays on)")
                self.problem = "broker_unreachable"
                return
            snapshot = self.mailbox.take()
            now = time.monotonic()
            if snapshot is not None:
                self._snapshot = snapshot
                self._publish(client, "summary", self._summary(snapshot, outbox))
                if (snapshot.get("game") or {}).get("outcome"):
                    self._outbox_at = 0.0  # a game just ended: its result goes out now
            if now - self._health_at >= HEALTH_EVERY_S:
                self._health_at = now
                self._health(client, outbox)
            if now - self._outbox_at >= OUTBOX_EVERY_S:
                self._outbox_at = now
                self._results(client, outbox)
        self._goodbye(client)

    def _pump(self, client: Any) -> bool:
        """Wait up to a second for the broker, a wake-up or the keep-alive's next ping, and move the bytes; False
        once the connection is gone."""
        sock = client.socket()
        if sock is None:
            return False
        pending = isinstance(sock, ssl.SSLSocket) and sock.pending() > 0
        try:
            readable, writable, _ = select.select([sock, self._wake_r], [sock] if client.want_write() else [], [],
                                                  0 if pending else 1.0)
        except (OSError, ValueError):
            return False
        if self._wake_r in readable:
            try:
                while self._wake_r.recv(4096):
                    pass
            except (BlockingIOError, OSError):
                pass
        if (sock in readable or pending) and client.loop_read() != 0:
            return False
        if sock in writable and client.loop_write() != 0:
            return False
        return client.loop_misc() == 0

    def _publish(self, client: Any, kind: str, payload: Mapping[str, Any]) -> None:
        """A retained message, sent only when it differs from the last one sent on this connection."""
        data = payloads.encode(payload)
        if self._sent.get(kind) == data:
            return
        self._sent[kind] = data
        client.publish(self._topic(kind), data, qos=1, retain=True)
        self.published += 1

    def _summary(self, snapshot: Mapping[str, Any], outbox: Outbox) -> dict[str, Any]:
        game = snapshot.get("game") or {}
        game_id, actions = game.get("id"), int(game.get("actions") or 0)
        if game_id is not None and self._game[0] != game_id:
            self._game = (game_id, outbox.started(game_id))
            self._actions = (game_id, actions, outbox.last_action(game_id))
        elif self._actions[:2] != (game_id, actions):
            self._actions = (game_id, actions, self._clock())
        return payloads.summary(snapshot, self._game[1] if game_id is not None else None,
                                self._actions[2] if game_id is not None else None)

    def _health(self, client: Any, outbox: Outbox) -> None:
        devices = self._devices()
        connected = set((devices.get("terminals") or {}).get("connected") or ())
        self._terminals_seen |= connected
        gone = sorted(self._terminals_seen - connected)
        payload = payloads.health(devices, gone, time.monotonic() - self._born, self._journal_bytes(), self._zones)
        key = (payload["readers"], payload["terminals"])
        if key != self._health_key or time.monotonic() - self._health_refreshed >= HEALTH_REFRESH_S:
            self._health_key, self._health_refreshed = key, time.monotonic()
            self._publish(client, "health", payload)

    def _journal_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.stat(f"{self.db_path}{suffix}").st_size
            except OSError:
                pass
        return total

    def _results(self, client: Any, outbox: Outbox) -> None:
        """Every pending result not already waiting for its PUBACK on this connection, with QoS 1."""
        waiting = set(self._inflight.values())
        for game_id in outbox.pending():
            if game_id in waiting:
                continue
            row = outbox.game(game_id)
            if row is None:
                continue
            names = [str(s.get("name") or "") for s in (self._snapshot or {}).get("seats") or ()]
            payload = payloads.result(self.venue.table, row, names, row["sides"])
            info = client.publish(result_topic(self.venue.table, game_id), payloads.encode(payload), qos=1)
            self.published += 1
            self._inflight[info.mid] = game_id

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        game_id = self._inflight.pop(mid, None)
        if game_id is None:
            return
        if reason is not None and getattr(reason, "is_failure", False):
            log.warning("venue: result_refused: the broker refused game %s's result (%s); kept to send again",
                        game_id, reason)
            self.problem = "result_refused"
            return
        if self._outbox is not None:
            try:
                self._outbox.delete(game_id)
            except Exception as exc:  # locked: the row stays, and the venue counts the resend once
                log.warning("venue: game %s's result delivered but not yet marked sent: %s", game_id, exc)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        if message.topic != ANNOUNCEMENT:
            return
        if not message.payload:  # the venue took its announcement down
            self._announce(None)
            return
        try:
            announcement = payloads.read_announcement(payloads.decode(message.payload, "announcement"))
        except VenueError as exc:
            log.warning("venue: announcement refused: %s", exc)
            return
        self._announce(announcement)

    def _goodbye(self, client: Any) -> None:
        """Stopping: the retained status says offline since now (no last will: this is a clean goodbye)."""
        data = payloads.encode(payloads.status("offline", self.version, self._clock(), self.venue.keepalive))
        info = client.publish(self._topic("status"), data, qos=1, retain=True)
        deadline = time.monotonic() + GOODBYE_S
        while not info.is_published() and time.monotonic() < deadline:
            if not self._pump(client):
                break

