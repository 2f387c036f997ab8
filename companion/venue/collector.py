"""The venue's one MQTT client: reads every table's status, summary, health and results (results on a persistent
session with QoS 1, so the broker keeps them while the dashboard is down), checks each message, and publishes
the announcement. A refused message is logged with its code, counted for the staff, and changes nothing."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from companion.games.registry import game_names
from companion.venue import payloads
from companion.venue.board import Board
from companion.venue.errors import BrokerRefused, VenueError
from companion.venue.mqtt import AUTH_REASONS, Broker, new_client, paho
from companion.venue.store import VenueStore
from companion.venue.topics import ANNOUNCEMENT, MAX_ANNOUNCEMENT_CHARS, TABLES, parse_topic

log = logging.getLogger("companion.venue")

CLIENT_ID = "companion-venue"
SESSION_EXPIRY_S = 7 * 24 * 3600
"""How long the broker keeps the venue's session (and the results queued for it) while the dashboard is down."""
KEEPALIVE_S = 15
SUBSCRIPTIONS = [(f"{TABLES}/+/status", 0), (f"{TABLES}/+/summary", 0), (f"{TABLES}/+/health", 0),
                 (f"{TABLES}/+/results/+", 1)]
"""Retained kinds at QoS 0 (their newest copy arrives on each subscribe), results at QoS 1 (queued while away)."""


class Collector:
    """Feeds the board and the store from the broker; `announce` and `clear` speak to every table."""

    def __init__(self, broker: Broker, board: Board, store: VenueStore, client_id: str = CLIENT_ID) -> None:
        self.broker = broker
        self.board = board
        self.store = store
        self.client_id = client_id
        self.games = frozenset(game_names())
        self.client: Any = None

    def start(self) -> "Collector":
        """Connect (raises BrokerRefused at once for wrong credentials or address) and run Paho's own thread,
        which reconnects by itself."""
        mqtt = paho()
        client = new_client(self.broker, self.client_id)
        client.on_message = self._on_message
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.reconnect_delay_set(1, 30)
        props = mqtt.Properties(mqtt.PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY_S
        client.connect_timeout = 5.0
        self.client = client
        self._connect(client, props)
        client.loop_start()
        return self

    def _connect(self, client: Any, props: Any) -> None:
        answer: dict[str, Any] = {}
        done = threading.Event()

        def first(c: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
            answer["reason"] = reason
            done.set()
            self._on_connect(c, userdata, flags, reason, properties)

        client.on_connect = first
        try:
            client.connect(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S, clean_start=False,
                          properties=props)
        except OSError as exc:
            raise BrokerRefused("broker_unreachable", f"{self.broker.describe()}: {exc}"[:300]) from None
        deadline = time.monotonic() + 5
        while not done.is_set() and time.monotonic() < deadline:
            client.loop(0.05)
        client.on_connect = self._on_connect
        reason = answer.get("reason")
        if reason is None:
            raise BrokerRefused("broker_unreachable", f"{self.broker.describe()}: no answer")
        if reason.is_failure:
            code = "broker_auth_refused" if int(reason.value) in AUTH_REASONS else "broker_refused"
            raise BrokerRefused(code, f"{self.broker.describe()}: the broker refused the connection: {reason}")

    def stop(self) -> None:
        """Disconnect (the session stays on the broker: results keep queueing for the venue)."""
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()

    # --- Paho's thread --------------------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.board.set_link(False, "broker_auth_refused" if int(reason.value) in AUTH_REASONS else "broker_refused")
            return
        client.subscribe(SUBSCRIPTIONS)
        self.board.set_link(True, None)
        log.info("venue: connected to %s", self.broker.describe())

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.board.set_link(False, "broker_unreachable")
        log.warning("venue: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self.handle(message.topic, bytes(message.payload))
        except VenueError as exc:
            table = message.topic.split("/")[3] if message.topic.count("/") >= 4 else None
            self.board.refuse(exc.code, table, exc.message)
            log.warning("venue: refused a message on %s: %s", message.topic[:120], exc)
        except Exception:  # a bug must not stop the venue's reading
            log.exception("venue: a message on %s failed", message.topic[:120])

    def handle(self, topic: str, raw: bytes) -> None:
        """Check one message and apply it; raises VenueError (unknown_topic, bad_table_id, unknown_table,
        payload_too_large, malformed_payload, bad_version, unknown_game) having changed nothing."""
        address = parse_topic(topic)
        if not self.board.known(address.table):
            raise VenueError("unknown_table", f"no table {address.table!r} is registered at this venue")
        if not raw and address.kind != "results":  # a retained message cleared by hand: the table says nothing
            return
        data = payloads.decode(raw, address.kind)
        if address.kind == "status":
            self.board.update(address.table, "status", payloads.read_status(data))
        elif address.kind == "summary":
            self.board.update(address.table, "summary", payloads.read_summary(data, self.games.__contains__))
        elif address.kind == "health":
            self.board.update(address.table, "health", payloads.read_health(data))
        else:
            result = payloads.read_result(data, address.table, int(address.game_id or 0), self.games.__contains__)
            if self.store.add_result(result):
                self.board.result_added()

    # --- what the staff does ----------------------------------------------------------------------------------

    def announce(self, text: str) -> dict[str, Any]:
        """Show `text` on every table's TV (retained, so a table that connects later shows it too); raises
        VenueError `bad_announcement`."""
        clean = " ".join(str(text).split())
        if not clean or len(clean) > MAX_ANNOUNCEMENT_CHARS or not clean.isprintable():
            raise VenueError("bad_announcement", f"an announcement is 1 to {MAX_ANNOUNCEMENT_CHARS} printable "
                                                 "characters")
        announcement = payloads.announcement(secrets.token_hex(8), clean, time.time())
        self._send(payloads.encode(announcement))
        self.store.announce(announcement["id"], clean, announcement["at"])
        self.board.set_announcement({k: announcement[k] for k in ("id", "text", "at")})
        return announcement

    def clear(self) -> None:
        """Take the announcement down everywhere (an empty retained message)."""
        self._send(b"")
        self.store.clear_announcement()
        self.board.set_announcement(None)

    def _send(self, data: bytes) -> None:
        if self.client is None or not self.client.is_connected():
            raise VenueError("broker_unreachable", "the venue is not connected to its broker")
        info = self.client.publish(ANNOUNCEMENT, data, qos=1, retain=True)
        info.wait_for_publish(5)
