"""Build and run a whole table from its config: database, hardware, loop, LED renderer, web server."""

from __future__ import annotations

import gc
import logging
import random
import secrets
import socket
import threading
from pathlib import Path
from typing import Any

import platformdirs

from companion.config import TableConfig
from companion.hal import load_backend
from companion.table.cards import CardRegistry
from companion.table.dbfile import DataLock, JournalFiles
from companion.table.handle import TableHandle
from companion.table.journal import Journal, open_db
from companion.table.leds import LedRenderer
from companion.table.loop import TableLoop

log = logging.getLogger("companion.table")

DB_NAME = "table.db"


def data_dir(config: TableConfig) -> Path:
    """Where the database lives: the config's data_dir, else the user's data directory."""
    return Path(config.data_dir) if config.data_dir else Path(platformdirs.user_data_dir("table-companion"))


class Runtime:
    """A started table: call `stop()` to shut it down cleanly (a kill -9 loses nothing committed)."""

    def __init__(self, config: TableConfig, rng: random.Random | None = None, lock: DataLock | None = None) -> None:
        self.config = config
        self.db_path = data_dir(config) / DB_NAME
        self.lock = lock or DataLock(self.db_path.parent).acquire()  # one writer per data directory
        try:
            self.conn = open_db(self.db_path)
        except BaseException:
            self.lock.release()
            raise
        self.journal = Journal(self.conn, JournalFiles(self.db_path, self.lock), outbox=config.venue is not None)
        self.cards = CardRegistry(self.conn)
        self.hardware = load_backend(config.backend).open_hardware(config)
        self.renderer = LedRenderer(self.hardware.strip, config.leds)
        self.loop = TableLoop(config, self.hardware, self.journal, self.cards, self.renderer, rng)
        self.host_pin = config.web.host_pin or f"{secrets.randbelow(10**6):06d}"
        self.venue: Any = None
        if config.venue is not None:  # Paho is imported only for a table that reports to a venue
            from companion.venue.publisher import VenuePublisher
            self.venue = VenuePublisher(config.venue, self.db_path, self.hardware.health, self._announce,
                                        zones=config.reader_zones())
            self.loop.watch(self.venue.offer)
        self.handle = TableHandle(self.loop, self.host_pin, self.db_path.parent, self.venue)
        self._server: Any = None
        self._stop_requested = threading.Event()

    def start(self) -> "Runtime":
        """Start renderer, hardware and loop (boot replays an unfinished game and scans the zones)."""
        self.renderer.start()
        self.hardware.start(self.loop.sink)
        self.loop.start()
        if self.venue is not None:
            self.venue.offer(self.loop.snapshot)
            self.venue.start()
        return self

    def _announce(self, announcement: Any) -> None:
        """The venue's announcement (or None: taken down), from the publisher's thread to the loop's queue."""
        from companion.table.core.commands import Announce
        self.loop.post(Announce(announcement))

    def app(self, **web_config: Any) -> Any:
        """The Flask app for this table (seat QR codes use the config's `[web] public_url` unless overridden)."""
        from companion.web import create_app
        web_config.setdefault("PUBLIC_URL", self.config.web.public_url)
        web_config.setdefault("ALLOWED_HOSTS", self.config.web.allowed_hosts)
        return create_app(web_config, self.handle)

    def make_server(self, host: str, port: int, sock: socket.socket | None = None, *, plan: Any = None,
                    **web_config: Any) -> Any:
        """A waitress server for the app on `sock` (else a socket bound to host:port; port 0 picks a free one):
        the config's threads for ordinary requests plus one per allowed live-update stream, guarded against
        clients that hold connections (companion.web.connections; `plan`: a ServerPlan of the test's own)."""
        from companion.web.listener import ServerPlan, listen
        plan = plan or ServerPlan(self.config.web.threads, self.config.web.streams)
        web_config.setdefault("SSE_MAX_STREAMS", plan.streams)
        web_config.setdefault("BIND_HOST", host)  # the host page warns when phones cannot reach this address
        self._server = plan.server(self.app(**web_config), sock or listen(host, port))
        return self._server

    def serve(self, host: str, port: int, sock: socket.socket | None = None, *, freeze_heap: bool = False,
              **web_config: Any) -> None:
        """Serve the web app with waitress (blocks until `close_server`; returns at once if it came first),
        with `freeze_heap` once the server is built."""
        server = self.make_server(host, port, sock, **web_config)
        if freeze_heap:
            self.freeze_heap()
        if self._stop_requested.is_set():  # a stop (SIGTERM) arrived before the server existed
            self._server = None
            server.close()
            return
        server.run()

    def freeze_heap(self) -> None:
        """Collect what booting left behind, then keep every object alive now (the code, the app, the server)
        out of the cycle collector's later scans: a full collection then scans only what play made since
        (0.4 ms instead of 34 ms here after 700 actions; the loop thread pays it mid-tap). For a process that
        runs one table: one that starts many (the tests) would keep each one's cycles for good."""
        gc.collect()
        gc.freeze()

    def close_server(self) -> None:
        """Stop serving: end the SSE streams, stop listening, close open connections, stop the workers."""
        self._stop_requested.set()
        server, self._server = self._server, None
        if server is None:
            return
        from companion.web.listener import close_server

        self.loop.bus.close_all()
        close_server(server)

    def stop(self) -> None:
        """Stop everything and close the database."""
        self.close_server()
        if self.venue is not None:  # says offline (retained) while the table can still answer
            self.venue.stop()
        self.loop.stop()
        self.hardware.close()
        self.renderer.stop()
        self.conn.close()
        self.lock.release()
