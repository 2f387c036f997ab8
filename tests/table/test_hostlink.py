"""One-time host links (`companion host-link`): once, in time, only from a private file of the table's user."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from companion.table import hostlink
from companion.table.dbfile import DataLock, served_address
from companion.table.hostlink import LINK_FILE, HostLinkError, issue, redeem


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def refusal(directory: Path, token: str, clock: Clock | None = None) -> str | None:
    try:
        redeem(directory, token, clock or Clock())
    except HostLinkError as exc:
        return exc.code
    return None


def test_a_link_works_once(tmp_path: Path) -> None:
    clock = Clock()
    token = issue(tmp_path, clock=clock)
    assert oct((tmp_path / LINK_FILE).stat().st_mode & 0o777) == "0o600"
    assert refusal(tmp_path, "x" * 43, clock) == "bad_link"  # a wrong token uses nothing up
    assert refusal(tmp_path, token, clock) is None
    assert refusal(tmp_path, token, clock) == "bad_link"
    assert os.listdir(tmp_path) == []


def test_a_link_expires_after_ten_minutes_on_the_monotonic_clock(tmp_path: Path) -> None:
    clock = Clock()
    token = issue(tmp_path, clock=clock)
    clock.now += hostlink.LIFETIME_S + 1
    assert refusal(tmp_path, token, clock) == "link_expired"
    assert refusal(tmp_path, token, clock) == "bad_link"


def test_a_link_from_another_boot_is_expired(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    token = issue(tmp_path, clock=clock)
    monkeypatch.setattr(hostlink, "boot_id", lambda: "another-boot")
    assert refusal(tmp_path, token, clock) == "link_expired"


def test_a_new_link_replaces_the_old_one(tmp_path: Path) -> None:
    old = issue(tmp_path, clock=Clock())
    new = issue(tmp_path, clock=Clock())
    assert refusal(tmp_path, old) == "bad_link"
    assert refusal(tmp_path, new) is None


@pytest.mark.parametrize("spoil", ["mode", "symlink", "junk", "missing"])
def test_a_file_the_table_cannot_trust_logs_nobody_in(tmp_path: Path, spoil: str) -> None:
    token = issue(tmp_path, clock=Clock())
    path = tmp_path / LINK_FILE
    if spoil == "mode":
        path.chmod(0o644)
    elif spoil == "symlink":
        path.rename(tmp_path / "elsewhere")
        path.symlink_to(tmp_path / "elsewhere")
    elif spoil == "junk":
        path.write_text("{not json")
    else:
        path.unlink()
    assert refusal(tmp_path, token) == "bad_link"


def test_two_browsers_racing_with_one_link_get_in_once(tmp_path: Path) -> None:
    for _ in range(20):
        token = issue(tmp_path, clock=Clock())
        results: list[str | None] = []
        start = threading.Barrier(4)

        def go() -> None:
            start.wait()
            results.append(refusal(tmp_path, token))

        threads = [threading.Thread(target=go) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results.count(None) == 1 and set(results) == {None, "bad_link"}, results


@pytest.mark.parametrize("token", ["", "short", "x" * 44, "a/b" + "c" * 40, "\udc80" * 43])
def test_what_is_no_token_is_refused_before_any_file_is_read(tmp_path: Path, token: str) -> None:
    assert refusal(tmp_path, token) == "bad_link"


def test_a_running_table_announces_where_it_serves_and_only_while_it_runs(tmp_path: Path) -> None:
    lock = DataLock(tmp_path).acquire()
    assert served_address(tmp_path) is None  # locked, nothing announced yet
    lock.announce("0.0.0.0", 8011)
    assert served_address(tmp_path) == ("0.0.0.0", 8011)
    lock.release()
    assert served_address(tmp_path) is None  # what a stopped table wrote is not believed
    assert served_address(tmp_path / "missing") is None
