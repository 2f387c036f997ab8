"""The PIN guard's logic on an injected monotonic clock (no sleeping): per device, per IPv6 /64, bounded memory
that forgets no locked device, and a table-wide rate that makes the 6-digit space take years from any number of
addresses. `-s` prints the figures docs/SECURITY.md quotes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.web.errors import ApiError
from companion.web.pin_guard import (FIRST_LOCK_S, FREE_TRIES, MAX_LOCK_S, SHARED, TABLE_BURST, TABLE_PER_HOUR,
                                     PinGuard)

PIN = "731904"
WRONG = "000001"
HOUR = 3600.0
YEAR_H = 365.25 * 24


@dataclass
class Table:
    """The table's side of a PIN check."""

    pin: str = PIN
    asked: int = 0

    def check_pin(self, pin: str) -> bool:
        self.asked += 1
        return pin == self.pin


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def code(guard: PinGuard, table: Table, pin: str, address: str) -> str:
    try:
        guard.attempt(table, pin, address)
    except ApiError as exc:
        return exc.code
    return "ok"


def addresses(n: int) -> list[str]:
    return [f"10.{i // 65536}.{i // 256 % 256}.{i % 256}" for i in range(n)]


def test_two_thousand_addresses_for_an_hour_get_the_burst_and_the_hourly_rate() -> None:
    """Every address guesses as fast as it is let, round after round, for two simulated hours."""
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock)
    checked_by_hour = [0, 0]
    for hour in range(2):
        end = clock.now + HOUR
        while clock.now < end:
            for address in addresses(2000):
                if code(guard, table, WRONG, address) == "bad_pin":
                    checked_by_hour[hour] += 1
            clock.now += 300.0  # a round of 2,000 requests every 5 minutes: 24,000 guesses an hour offered
    print(f"\nwrong PINs checked from 2,000 addresses: first hour {checked_by_hour[0]}, second {checked_by_hour[1]}")
    assert checked_by_hour[0] <= TABLE_BURST + TABLE_PER_HOUR
    assert checked_by_hour[1] <= TABLE_PER_HOUR + 1
    assert table.asked == sum(checked_by_hour)  # nothing else reached the PIN


def test_the_six_digit_space_takes_more_than_a_year() -> None:
    hours = (10 ** 6 - TABLE_BURST) / TABLE_PER_HOUR
    print(f"\n10^6 PINs at {TABLE_PER_HOUR:.0f}/h after a burst of {TABLE_BURST}: {hours:,.0f} h = "
          f"{hours / YEAR_H:.2f} years (half of them, the expected search: {hours / 2 / YEAR_H:.2f} years)")
    assert hours / 2 > YEAR_H  # even the expected time to hit the PIN is over a year


def test_when_the_table_wide_budget_is_spent_even_the_right_pin_is_refused_unchecked() -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock)
    for address in addresses(TABLE_BURST):
        assert code(guard, table, WRONG, address) == "bad_pin"
    asked = table.asked
    assert code(guard, table, PIN, "10.9.9.9") == "pin_table_locked"
    assert table.asked == asked  # a guesser learns nothing from the answer
    clock.now += HOUR / TABLE_PER_HOUR + 1  # one more check comes back
    assert code(guard, table, PIN, "10.9.9.9") == "ok"
    assert code(guard, table, PIN, "10.9.9.9") == "ok"  # the right PIN spends nothing


def test_a_device_backs_off_and_another_device_is_never_refused_for_it() -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock)
    assert [code(guard, table, WRONG, "10.0.0.66") for _ in range(FREE_TRIES)] == ["bad_pin"] * FREE_TRIES
    assert code(guard, table, PIN, "10.0.0.66") == "pin_locked"
    assert code(guard, table, PIN, "10.0.0.2") == "ok"
    clock.now += FIRST_LOCK_S
    assert code(guard, table, WRONG, "10.0.0.66") == "bad_pin"  # the lock ended; the next wrong PIN doubles it
    clock.now += FIRST_LOCK_S
    assert code(guard, table, WRONG, "10.0.0.66") == "pin_locked"
    clock.now += FIRST_LOCK_S + 0.1
    assert code(guard, table, PIN, "10.0.0.66") == "ok"


def test_a_locked_device_is_never_forgotten_before_its_lock_ends() -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock, burst=10 ** 9, max_clients=100)  # only the per-device rules here
    for _ in range(FREE_TRIES + 5):
        code(guard, table, WRONG, "10.0.0.66")
        clock.now += 1
    assert code(guard, table, WRONG, "10.0.0.66") == "pin_locked"
    for address in addresses(5000):  # memory fills up many times over
        code(guard, table, WRONG, address)
    assert len(guard.clients) <= 101
    assert code(guard, table, PIN, "10.0.0.66") == "pin_locked"
    clock.now += MAX_LOCK_S
    assert code(guard, table, PIN, "10.0.0.66") == "ok"


def test_when_memory_is_full_new_devices_share_one_backoff() -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock, burst=10 ** 9, max_clients=10)
    for address in addresses(10):
        assert code(guard, table, WRONG, address) == "bad_pin"
    newcomers = [f"172.16.0.{i}" for i in range(1, 30)]
    codes = [code(guard, table, WRONG, a) for a in newcomers]
    assert codes[:FREE_TRIES] == ["bad_pin"] * FREE_TRIES and set(codes[FREE_TRIES:]) == {"pin_locked"}
    assert SHARED in guard.clients and len(guard.clients) == 11
    assert code(guard, table, WRONG, addresses(10)[3]) == "bad_pin"  # the remembered ones keep their own
    clock.now += 3601  # after an hour without a wrong PIN, remembered devices may make room again
    assert code(guard, table, WRONG, "172.16.1.1") == "bad_pin" and "172.16.1.1" in guard.clients


@pytest.mark.parametrize("first, second, same", [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
    ("::ffff:10.0.0.7", "10.0.0.7", True),
    ("10.0.0.7", "10.0.0.8", False),
])
def test_ipv6_addresses_count_per_64(first: str, second: str, same: bool) -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock)
    for _ in range(FREE_TRIES):
        code(guard, table, WRONG, first)
    assert (code(guard, table, PIN, second) == "pin_locked") is same


def test_what_is_no_pin_is_refused_without_being_checked_or_counted() -> None:
    clock, table = Clock(), Table()
    guard = PinGuard(clock=clock)
    for pin in ("\u0661\u0662\u0663\u0664\u0665\u0666", "", "1" * 65, "12a456", "\u00b2\u00b3"):
        assert code(guard, table, pin, "10.0.0.5") == "bad_pin"
    assert table.asked == 0 and guard.checkable_now() == TABLE_BURST and not guard.clients
