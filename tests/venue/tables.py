"""Tables for the venue tests: the demo table on mock hardware reporting to the test broker, driven by random
legal actions through the loop (as seat pages would)."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from companion.config import VenueConfig
from companion.table.core.commands import Submit
from companion.table.runtime import Runtime
from tests.table.conftest import table_config
from tests.venue.broker import VenueBroker


def venue_table(data: Path, broker: VenueBroker | None, table: str, game: str = "secret_hitler", seats: int = 5,
                url: str | None = None, tls: bool = False, password_file: Path | None = None, seed: int = 1) -> Runtime:
    """A started table reporting as `table` (to `url`, else the broker's plain or TLS address)."""
    address = url or (broker.tls_url if tls else broker.url)  # type: ignore[union-attr]
    venue = VenueConfig(address, table, str(password_file or broker.password_file(table)),  # type: ignore[union-attr]
                        ca_file=str(broker.ca) if tls and broker else None, keepalive=5)
    cfg = replace(table_config(data, game=game, seats=seats), venue=venue)
    return Runtime(cfg, rng=random.Random(seed)).start()


def act(rt: Runtime, rng: random.Random) -> bool:
    """One random legal action of a seat to act (chance is drawn by the table); False once the game is over."""
    session = rt.loop.session
    assert session is not None
    acting = sorted(s for s in session.rules.to_act(session.state) if s >= 0)
    if not acting:
        return False
    seat = rng.choice(acting)
    result = rt.loop.call(Submit(seat, rng.choice(session.rules.legal_actions(session.state, seat)), "test"))
    assert isinstance(result, dict), result
    return True


def play_to_end(rt: Runtime, rng: random.Random, most: int = 5000) -> int:
    """Random legal actions until the game is over; the game's id."""
    session = rt.loop.session
    assert session is not None
    for _ in range(most):
        if not act(rt, rng):
            return session.game_id
    raise AssertionError("the game did not end")


def wait_until(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll `check` until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.02)
