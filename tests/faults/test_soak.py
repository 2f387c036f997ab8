"""Soak: many random games (2,000 by default; SOAK_GAMES overrides) of every registered game through the full
mock table with its outputs on (LED renderer, an SSE subscriber draining, seat terminals connected): no crash,
no error counted, every game journaled to its end, resident memory flat over the second half."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

from companion.games.registry import game_names, get_rules
from companion.table.runtime import Runtime
from tests.table.conftest import table_config
from tests.table.helpers import hw


def rss_mb() -> float:
    """This process's resident memory (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def soak(tmp_path: Path, games: int, seed: int = 1) -> dict[str, float]:
    names = game_names()
    cfg = table_config(tmp_path / "data", game=names[0], seats=5)
    rt = Runtime(cfg, rng=random.Random(seed)).start()
    stop = threading.Event()
    received = [0]
    sub = rt.handle.subscribe(None)

    def drain() -> None:  # one SSE client that keeps up
        while not stop.is_set():
            if sub.get(0.2) is not None:
                received[0] += 1

    drainer = threading.Thread(target=drain, daemon=True)
    drainer.start()
    hub = hw(rt).mock_terminals
    for s in range(len(cfg.seats)):
        hub.connect(f"T{s}")
    rng = random.Random(seed)
    warm = None
    finished = 0
    try:
        for n in range(games):
            name = names[n % len(names)]
            rules = get_rules(name)
            seats = rng.randint(rules.min_seats, min(rules.max_seats, len(cfg.seats)))
            result = rt.loop.call("new_game", game=name, seats=seats, components="digital")
            assert isinstance(result, dict), result
            while True:
                session = rt.loop.session
                assert session is not None
                acting = sorted(session.rules.to_act(session.state))
                if not acting:
                    break
                seat = rng.choice(acting)
                action = rng.choice(session.rules.legal_actions(session.state, seat))
                answer = rt.loop.call("submit", seat=seat, action=action, source="soak")
                assert isinstance(answer, dict), (name, action, answer)
            assert rt.journal.history(1)[0]["end_reason"] == "finished"
            finished += 1
            # the mock strip and hub keep a history for tests (20,000 frames, every message); real ones do not
            strip = hw(rt).mock_strip
            with strip._cond:
                strip.frames.clear()
            for sent in hub.sent.values():
                del sent[:-10]
            if n == games // 2:
                warm = rss_mb()
        assert rt.loop.counters.errors == 0
        assert rt.loop._thread.is_alive() and not sub.closed, "the SSE client kept up and the loop lives"
        assert received[0] > games
    finally:
        stop.set()
        rt.stop()
    end = rss_mb()
    return {"games": finished, "warm_mb": warm or end, "end_mb": end}


@pytest.mark.soak
@pytest.mark.timeout(7200)
def test_soak_random_games_through_the_full_mock_table(tmp_path: Path) -> None:
    games = int(os.environ.get("SOAK_GAMES", "2000"))
    figures = soak(tmp_path, games)
    print(f"soak: {figures}")
    assert figures["games"] == games
    growth = figures["end_mb"] - figures["warm_mb"]
    assert growth < max(16.0, 0.1 * figures["warm_mb"]), f"memory grew {growth:.1f} MB: {figures}"
