"""The Eclipse Paho client as the venue uses it (imported here only, lazily): one connection per attempt, MQTT 5,
TLS from a CA file for `mqtts://`, the broker's refusals turned into our codes."""

from __future__ import annotations

import logging
import ssl
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import broker_address
from companion.errors import ConfigFault
from companion.venue.errors import BrokerRefused, VenueError

log = logging.getLogger("companion.venue")

CONNECT_TIMEOUT_S = 5.0
AUTH_REASONS = {134, 135}
"""CONNACK reason codes of MQTT 5 that mean the account: bad user name or password, not authorised."""
MAX_PASSWORD_BYTES = 256


@dataclass(frozen=True)
class Broker:
    """Where to connect and as whom: host, port, TLS (with the CA that signed the broker's certificate; None: the
    system's CAs), the account and its password."""

    host: str
    port: int
    tls: bool
    username: str
    password: str
    ca_file: str | None = None

    @classmethod
    def of(cls, url: str, username: str, password: str, ca_file: str | None = None) -> "Broker":
        """From a broker URL; raises VenueError `bad_broker_url` for one that is not mqtt:// or mqtts://."""
        try:
            scheme, host, port = broker_address(url, "broker")
        except ConfigFault as exc:
            raise VenueError("bad_broker_url", exc.message) from None
        return cls(host, port, scheme == "mqtts", username, password, ca_file)

    def describe(self) -> str:
        """The address as a log line names it (never the password)."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.username}@{self.host}:{self.port}"


def read_password(path: str | Path) -> str:
    """An account's password from its file (the first line); raises VenueError `password_unreadable`."""
    try:
        raw = Path(path).read_bytes()[: MAX_PASSWORD_BYTES + 1]
    except OSError as exc:
        raise VenueError("password_unreadable", f"{path}: {exc.strerror or exc}") from None
    text = raw.decode("utf-8", "replace").splitlines()[0].strip() if raw.strip() else ""
    if not text or len(raw) > MAX_PASSWORD_BYTES:
        raise VenueError("password_unreadable", f"{path}: expected one line holding the password")
    return text


def paho() -> Any:
    """The paho.mqtt.client module (a dependency of the package: a missing one is said in words)."""
    try:
        import paho.mqtt.client as client
    except ImportError:  # pragma: no cover - installed with the package
        raise VenueError("paho_missing", "the venue needs the paho-mqtt package: pip install 'paho-mqtt>=2.1'") from None
    return client


def new_client(broker: Broker, client_id: str, *, will: tuple[str, bytes] | None = None) -> Any:
    """A Paho client (MQTT 5, callback API 2) set up for `broker`, not yet connected; `will`: (topic, payload) of
    a retained QoS 1 last will."""
    mqtt = paho()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.username_pw_set(broker.username, broker.password)
    client.connect_timeout = CONNECT_TIMEOUT_S
    if broker.tls:
        context = ssl.create_default_context(cafile=broker.ca_file) if broker.ca_file else ssl.create_default_context()
        client.tls_set_context(context)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    return client


def connect(client: Any, broker: Broker, keepalive: int, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Connect and wait for the broker's CONNACK, driving the client's loop in this thread; raises BrokerRefused
    with `broker_unreachable`, `broker_tls_failed`, `broker_auth_refused` or `broker_refused`."""
    answer: dict[str, Any] = {}
    previous = client.on_connect

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        answer["reason"] = reason
        if previous is not None:
            previous(c, userdata, flags, reason, properties)

    client.on_connect = on_connect
    try:
        try:
            client.connect(broker.host, broker.port, keepalive=keepalive)
        except ssl.SSLError as exc:
            raise BrokerRefused("broker_tls_failed", f"{broker.describe()}: TLS failed: {exc.reason or exc}") from None
        except (OSError, ValueError) as exc:
            raise BrokerRefused("broker_unreachable", f"{broker.describe()}: {exc}"[:300]) from None
        deadline = time.monotonic() + timeout
        while "reason" not in answer:
            if time.monotonic() > deadline:
                client.disconnect()
                raise BrokerRefused("broker_unreachable", f"{broker.describe()}: no answer in {timeout:.0f} s")
            try:
                code = client.loop(0.05)
            except ssl.SSLError as exc:
                raise BrokerRefused("broker_tls_failed", f"{broker.describe()}: TLS failed: {exc.reason or exc}") from None
            if code != 0 and "reason" not in answer:
                raise BrokerRefused("broker_unreachable", f"{broker.describe()}: the connection closed ({code})")
    finally:
        client.on_connect = previous
    reason = answer["reason"]
    if reason.is_failure:
        value = int(reason.value)
        code = "broker_auth_refused" if value in AUTH_REASONS else "broker_refused"
        raise BrokerRefused(code, f"{broker.describe()}: the broker refused the connection: {reason}")
