"""Soak: many random games (2,000 by default; SOAK_GAMES overrides) of every registered game through the full
mock table with its outputs on (LED renderer, an SSE subscriber draining, seat terminals connected): no crash,
no error counted, every action committed to the journal through the loop, every game journaled to its end,
resident memory flat over the second half.

The journal lives on tmpfs (/dev/shm when present): the soak proves the loop, the engines and the outputs over
long runs, not the disk; fsync durability is proven by the kill -9 tests (test_kill9.py) on a real filesystem.
SOAK_LOG names a file that gets one line per game (game, seats, actions, seconds, RSS) as the soak runs."""

from __future__ import annotations

import os
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.games.registry import game_names, get_rules
from companion.table.runtime import Runtime
from tests.table.conftest import table_config
from tests.table.helpers import host_call, hw

TMPFS = Path("/dev/shm")


def rss_mb() -> float:
    """This process's resident memory (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@pytest.fixture()
def soak_dir(tmp_path: Path) -> Iterator[Path]:
    """A data directory on tmpfs when the machine has one (else pytest's tmp_path), removed afterwards."""
    if not (TMPFS.is_dir() and os.access(TMPFS, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(prefix="companion-soak-", dir=TMPFS) as d:
        yield Path(d)


def soak(data: Path, games: int, seed: int = 1, log: Path | None = None) -> dict[str, Any]:
    """Play `games` random games through a full mock table; returns counts, RSS and per-game times by game."""
    names = game_names()
    cfg = table_config(data / "data", game=names[0], seats=5)
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
    strip = hw(rt).mock_strip
    for s in range(len(cfg.seats)):
        hub.connect(f"T{s}")
    rng = random.Random(seed)
    warm = None
    finished = 0
    actions = 0
    per_game: dict[str, list[float]] = {name: [] for name in names}
    out = log.open("a", encoding="utf-8") if log else None
    started = time.perf_counter()
    try:
        for n in range(games):
            t0 = time.perf_counter()
            name = names[n % len(names)]
            rules = get_rules(name)
            seats = rng.randint(rules.min_seats, min(rules.max_seats, len(cfg.seats)))
            result = host_call(rt.loop, "new_game", game=name, seats=seats, components="digital")
            assert isinstance(result, dict), result
            played = 0
            while True:
                # as a seat would: who acts is on the public state, the choices are the prompt on its terminal
                acting = rt.loop.snapshot["game"]["to_act"]
                if not acting:
                    break
                seat = rng.choice(acting)
                offered = hub.last_prompt(f"T{seat}")
                assert offered is not None and offered["type"] == "prompt", (name, seat, offered)
                action = rng.choice(offered["options"])["action"]
                answer = host_call(rt.loop, "submit", seat=seat, action=action, source="soak")
                assert isinstance(answer, dict), (name, action, answer)
                played += 1
            assert rt.journal.history(1)[0]["end_reason"] == "finished"
            finished += 1
            actions += played
            # the mock strip and hub keep a history for tests (20,000 frames, every message); real ones do not
            with strip._cond:
                strip.frames.clear()
            for sent in hub.sent.values():
                del sent[:-10]
            if n == games // 2:
                warm = rss_mb()
            spent = time.perf_counter() - t0
            per_game[name].append(spent)
            if out:
                out.write(f"game {n + 1}/{games} {name} seats={seats} actions={played} s={spent:.2f} "
                          f"total_s={time.perf_counter() - started:.0f} rss_mb={rss_mb():.1f}\n")
                out.flush()
        assert rt.loop.counters.errors == 0
        assert rt.loop.alive and not sub.closed, "the SSE client kept up and the loop lives"
        assert received[0] > games
    finally:
        stop.set()
        rt.stop()
        if out:
            out.close()
    end = rss_mb()
    return {"games": finished, "actions": actions, "wall_s": round(time.perf_counter() - started, 1),
            "warm_mb": warm or end, "end_mb": end,
            "mean_s": {k: round(sum(v) / len(v), 3) for k, v in per_game.items() if v}}


@pytest.mark.soak
@pytest.mark.timeout(7200)
def test_soak_random_games_through_the_full_mock_table(soak_dir: Path) -> None:
    games = int(os.environ.get("SOAK_GAMES", "2000"))
    log = os.environ.get("SOAK_LOG")
    figures = soak(soak_dir, games, log=Path(log) if log else None)
    print(f"soak: {figures}")
    assert figures["games"] == games
    growth = figures["end_mb"] - figures["warm_mb"]
    assert growth < max(16.0, 0.1 * figures["warm_mb"]), f"memory grew {growth:.1f} MB: {figures}"
