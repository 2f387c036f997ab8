"""The Host and Origin checks (companion.web.hosts) through the app: the table's own names and addresses only."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.web.hosts import HostCheck, split_host


@pytest.mark.parametrize("value, expected", [
    ("Table.Local.:8000", ("table.local", "8000")), ("[::1]:8000", ("::1", "8000")), ("[::1]", ("::1", None)),
    ("10.0.0.5", ("10.0.0.5", None)), ("evil.example:80", ("evil.example", "80")), ("", ("", None)),
])
def test_split_host(value: str, expected: tuple[str, str | None]) -> None:
    assert split_host(value) == expected


def test_names_addresses_and_this_machine() -> None:
    check = HostCheck(["table.example", "10.77.0.1", "http://x.example:8000"[7:]], machine_name="pi-table")
    for host in ("localhost", "pi-table", "pi-table.local", "table.example", "x.example", "10.77.0.1", "127.0.0.1",
                 "127.9.9.9", "::1", "app.localhost"):
        assert check.allows(host), host
    assert check.allows("192.0.2.55", local_address="192.0.2.55")  # the address the connection came in on
    for host in ("evil.example", "table.example.evil.example", "192.0.2.55", "pi", "", "0.0.0.0", "224.0.0.1"):
        assert not check.allows(host), host


def test_the_app_refuses_a_foreign_host_and_origin(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/api/state").status_code == 200  # the test client's Host is localhost
    refused = client.get("/api/state", headers={"Host": "evil.example"})
    assert (refused.status_code, refused.json["code"]) == (421, "foreign_host")
    page = client.get("/", headers={"Host": "evil.example"})
    assert page.status_code == 421
    posted = client.post("/api/host/login", json={"pin": "1"}, headers={"Origin": "http://evil.example"})
    assert (posted.status_code, posted.json["code"]) == (403, "foreign_origin")
    own = client.post("/api/host/login", json={"pin": "000000"}, headers={"Origin": "http://localhost"})
    assert own.json["code"] == "bad_pin"
