"""A real Mosquitto for the venue tests: the configuration `companion venue init` writes, on free ports (plain and
TLS with a CA made here), started as `mosquitto -c <conf>` in a temporary directory (never the system service);
and a subscriber that records what the broker delivers."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.venue.broker import Layout
from companion.venue.server import init_venue
from companion.venue.mqtt import Broker, connect, new_client

TABLES = ["t01", "t02", "t03", "t04", "t05", "t06"]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mosquitto_binary() -> str:
    """Debian's mosquitto, or a loud failure naming the package (scripts/install-test-deps.sh installs it)."""
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None)
    if found is None or shutil.which("mosquitto_passwd") is None:
        pytest.fail("the venue tests need Mosquitto 2 (Debian package `mosquitto`): run "
                    "`sudo bash scripts/install-test-deps.sh` or `sudo apt install mosquitto`")
    return found


def make_ca(directory: Path) -> tuple[Path, Path, Path]:
    """A CA and a server certificate it signed for 127.0.0.1 and localhost: (ca.crt, server.crt, server.key)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "venue test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    directory.mkdir(parents=True, exist_ok=True)
    paths = directory / "ca.crt", directory / "server.crt", directory / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


@dataclass
class VenueBroker:
    """A Mosquitto on two free ports with every account of `venue init`; restartable with its persistence."""

    root: Path
    port: int
    tls_port: int
    ca: Path
    accounts: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.root / "mosquitto.log"

    @property
    def url(self) -> str:
        """mqtt://127.0.0.1:<port>"""
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        """mqtts://localhost:<tls port>"""
        return f"mqtts://localhost:{self.tls_port}"

    def password_file(self, account: str) -> Path:
        """Where `venue init` put an account's password."""
        return Layout(self.root).account(account)

    def start(self) -> None:
        """Start mosquitto and wait until both ports take connections."""
        conf = Layout(self.root).conf
        if os.geteuid() == 0:  # as root, mosquitto would drop to the `mosquitto` user, who cannot read our 0600 files
            text = conf.read_text()
            if "\nuser root\n" not in text:
                conf.write_text(text + "\nuser root\n")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=out, stderr=out)
        deadline = time.monotonic() + 10
        for port in (self.port, self.tls_port):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(f"mosquitto did not start: {self.log.read_text()[-2000:]}")
                    time.sleep(0.05)

    def stop(self, kill: bool = False) -> None:
        """Stop mosquitto (SIGTERM: it saves its persistence first)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        """Stop and start again (retained messages and queued sessions survive in its persistence file)."""
        self.stop()
        self.start()

    def broker(self, account: str, tls: bool = False, password: str | None = None) -> Broker:
        """Connection settings for an account."""
        url = self.tls_url if tls else self.url
        return Broker.of(url, account, password if password is not None else self.accounts[account],
                         str(self.ca) if tls else None)


def start_broker(root: Path) -> VenueBroker:
    """`venue init`'s files for TABLES under `root`, with a CA made here, and the broker started."""
    mosquitto_binary()
    ca, cert, key = make_ca(root / "tls")
    port, tls_port = free_port(), free_port()
    accounts = init_venue(root, TABLES, port=port, bind="127.0.0.1", tls=(cert, key), tls_port=tls_port)
    broker = VenueBroker(root, port, tls_port, ca, accounts)
    broker.start()
    return broker


class Listener:
    """A subscriber (the venue's account by default) recording every message the broker delivers to it."""

    def __init__(self, broker: VenueBroker, topic: str = "#", account: str = "venue", client_id: str = "listener") -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Condition()
        settings = broker.broker(account)
        self.client = new_client(settings, f"{client_id}-{time.monotonic_ns()}")
        self.client.on_message = self._on_message
        connect(self.client, settings, 30)
        self.client.subscribe(topic, qos=1)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self._lock:
            self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))
            self._lock.notify_all()

    def wait_for(self, check: Callable[[str, Any], bool], timeout: float = 10.0) -> tuple[str, Any]:
        """The first message (topic, decoded JSON or None for an empty payload) for which `check` holds."""
        deadline = time.monotonic() + timeout
        seen = 0
        with self._lock:
            while True:
                for topic, raw, _ in self.messages[seen:]:
                    data = json.loads(raw) if raw else None
                    if check(topic, data):
                        return topic, data
                seen = len(self.messages)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such message in {timeout} s; last: {self.messages[-5:]}")
                self._lock.wait(left)

    def count(self, check: Callable[[str, Any], bool]) -> int:
        """How many messages so far satisfy `check`."""
        with self._lock:
            return sum(1 for topic, raw, _ in self.messages if check(topic, json.loads(raw) if raw else None))

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()
