"""Tap -> LED latency: ballot cards tapped on mock readers during Secret Hitler votes, journal commit included."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace
from typing import Any, Callable

from companion.config import PollingConfig, VenueConfig, demo_config
from companion.hal.interfaces import RGB
from companion.hal.mock import MockHardware
from companion.table.core.commands import Enroll, NewGame, Submit
from companion.table.runtime import Runtime
from companion.table.session import Components

SECRET_HITLER_7 = NewGame("secret_hitler", 7, {}, Components.DIGITAL)
"""The benches' game: seven seats, digital chance."""


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _changed(span: slice, was: tuple[RGB, ...] | None) -> Callable[[tuple[RGB, ...]], bool]:
    """A frame predicate: the zone's pixels differ from what they were before the tap."""
    return lambda frame: frame[span] != was


def enroll_ballots(loop: Any, prefix: str, seats: int = 7) -> dict[tuple[int, str], str]:
    """Enroll a ja and a nein ballot card per seat (UIDs starting with `prefix`); (seat, vote) -> UID."""
    ballots = {}
    for seat in range(seats):
        for i, vote in enumerate(("ja", "nein")):
            uid = f"{prefix}{seat:02d}{i}0000"
            loop.call(Enroll(uid, "ballot", vote, f"{vote} {seat}", "secret_hitler"))
            ballots[(seat, vote)] = uid
    return ballots


def voters_or_advance(loop: Any, rng: random.Random) -> list[int]:
    """The seats that may vote now in the demo Secret Hitler game; else one step taken (new game or a random
    legal action) and []."""
    session = loop.session
    if session is None or session.rules.outcome(session.state) is not None:
        loop.call(SECRET_HITLER_7)
        return []
    rules, state = session.rules, session.state
    acting = sorted(rules.to_act(state))
    voters = [s for s in acting if any(a["type"] == "vote" for a in rules.legal_actions(state, s))]
    if not voters:
        loop.call(Submit(None, rng.choice(rules.legal_actions(state, acting[0])), "bench"))
    return voters


def lift_ballots(hw: MockHardware, loop: Any, seats: list[int]) -> None:
    """Take the seats' ballots off their readers (every reader emptied first, then each removal waited for)."""
    for seat in seats:
        hw.reader(f"r{seat}").uid = None
    for seat in seats:
        hw.remove(f"r{seat}")
    loop.wait_idle()


def tap_to_led(taps: int, data_dir: str, seed: int = 1, venue: VenueConfig | None = None) -> dict[str, Any]:
    """p50/p99/max (ms) from a mock tag placement to the LED frame that answers it, over `taps` taps (`venue`: the
    table also reports to that venue, e.g. a broker that is down)."""
    cfg = replace(demo_config(), data_dir=data_dir, polling=PollingConfig(interval_ms=10, removal_ms=20), venue=venue)
    runtime = Runtime(cfg, rng=random.Random(seed)).start()
    rng = random.Random(seed)
    hw = runtime.hardware
    assert isinstance(hw, MockHardware)
    loop = runtime.loop
    ballots = enroll_ballots(loop, "B")
    zones = {z.zone: z for z in cfg.leds.zones}
    samples: list[float] = []
    try:
        while len(samples) < taps:
            voters = voters_or_advance(loop, rng)
            if not voters:
                continue
            for seat in voters:
                zone = zones[f"seat:{seat}"]
                before = hw.mock_strip.last()
                shown = hw.mock_strip.shown
                vote = "nein" if rng.random() < 0.6 else "ja"
                t0 = time.perf_counter()
                hw.place(f"r{seat}", ballots[(seat, vote)], wait=False)
                span = slice(zone.start, zone.start + zone.count)
                was = before[span] if before is not None else None
                got = hw.mock_strip.wait_for(_changed(span, was), after=shown, timeout=5)
                if got is None:
                    raise RuntimeError(f"no LED answer to a tap on seat {seat}")
                samples.append((got[0] - t0) * 1000)
            lift_ballots(hw, loop, voters)
    finally:
        runtime.stop()
    return {"p50": round(statistics.median(samples), 3), "p99": round(percentile(samples, 0.99), 3),
            "max": round(max(samples), 3), "taps": len(samples), "journal": "sqlite WAL synchronous=FULL"}
