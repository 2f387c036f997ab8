"""`companion venue` put together: the store, the board of registered tables, the broker client and the dashboard
served by waitress."""

from __future__ import annotations

import logging
import socket
import threading
from pathlib import Path
from typing import Any

from companion.venue.board import Board, Limits
from companion.venue.broker import STAFF_LOGIN, VENUE_ACCOUNT, Layout
from companion.venue.collector import Collector
from companion.venue.dashboard import Venue, create_app
from companion.venue.mqtt import Broker, read_password
from companion.venue.store import VenueStore

log = logging.getLogger("companion.venue")

TICK_S = 15.0
"""How often the time-based alerts (a long game, an idle table) are looked at when nobody watches a stream."""


class VenueServer:
    """A running venue: `serve()` blocks until `close()`."""

    def __init__(self, data: Path, broker_url: str, *, password_file: Path | None = None, ca_file: str | None = None,
                 account: str = VENUE_ACCOUNT, limits: Limits = Limits(), client_id: str | None = None) -> None:
        self.store = VenueStore(data)
        password = read_password(password_file or Layout(data).account(account))
        self.broker = Broker.of(broker_url, account, password, ca_file)
        self.board = Board(self.store.tables(), limits)
        self.board.set_announcement(self.store.current_announcement())
        self.collector = Collector(self.broker, self.board, self.store, **({"client_id": client_id} if client_id else {}))
        self._server: Any = None
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="venue-alerts", daemon=True)

    def start(self) -> "VenueServer":
        """Connect to the broker (BrokerRefused at once for a wrong address or account)."""
        self.collector.start()
        self._ticker.start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            self.board.tick()

    def app(self, **config: Any) -> Any:
        """The dashboard's Flask app."""
        return create_app(config, Venue(self.board, self.store, self.collector))

    def serve(self, sock: socket.socket, threads: int = 16, **config: Any) -> None:
        """Serve the dashboard on a bound socket until `close`."""
        from waitress import create_server
        self._server = create_server(self.app(**config), sockets=[sock], threads=threads,
                                     channel_timeout=60, connection_limit=200)
        self._server.run()

    def close(self) -> None:
        """Stop serving, disconnect, close the store."""
        self._stop.set()
        server, self._server = self._server, None
        self.board.close()  # the live streams end before their workers are waited for
        if server is not None:
            from companion.web.listener import close_server
            close_server(server)
        self.collector.stop()
        self.store.close()


def init_venue(data: Path, tables: list[str], **broker: Any) -> dict[str, str]:
    """`venue init`: the broker's files (companion.venue.broker.write_broker), the tables registered in the
    store, and the staff login; returns account -> password (staff included)."""
    from companion.venue.broker import write_broker
    accounts = write_broker(data, tables, **broker)
    store = VenueStore(data)
    try:
        store.add_tables(tables)
        staff = Layout(data).account(STAFF_LOGIN)
        import secrets
        password = secrets.token_urlsafe(12)
        store.set_staff(STAFF_LOGIN, password)
        from companion.venue.broker import _private
        _private(staff, password + "\n")
    finally:
        store.close()
    return {**accounts, STAFF_LOGIN: password}
