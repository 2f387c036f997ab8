"""The CPU-per-tap and publish-cycle figures: their shape, and that they measure real work."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from companion.bench.publish import digital_options, publish_us, sample_states
from companion.games import game_names, get_rules

ROOT = Path(__file__).resolve().parents[2]


def test_cpu_per_tap_json(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "companion.cli", "bench", "--json", "--only", "cpu_per_tap",
                          "--cpu-taps", "8", "--cpu-rounds", "1", "--data", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    figures = report["cpu_per_tap_ms"]
    assert set(figures) == {"clients_0", "clients_12"}
    # A tap journals, applies, publishes and (with clients) streams: never free, and far under a second.
    assert all(0 < ms < 1000 for ms in figures.values()), figures
    runs = report["cpu_per_tap_setup"]["runs"]
    assert all(run["raw_mean"] >= run["mean"] and run["idle_ms_per_s"] >= 0 and run["ping_ms"] >= 0
               for r in runs.values() for run in r)
    # the table's own loop thread does the tap's work: it is in the breakdown, with a share above nothing
    assert all(run["threads_ms"].get("table-loop", 0) > 0 for r in runs.values() for run in r), runs
    floors = report["cpu_per_tap_setup"]["floors"]
    assert set(floors) == {"wake_us", "durable_write_us"} and all(0 < us < 1e6 for us in floors.values()), floors
    # the same tap with no game logic: the hand-offs, the durable commit and the sends alone, never free
    skeleton = report["cpu_per_tap_setup"]["tap_skeleton_ms"]
    assert set(skeleton) == {"clients_0", "clients_12"} and all(0 < ms < 1000 for ms in skeleton.values()), skeleton
    # every voter's ballot at once: a CPU figure per tap, and the commits the burst took (at least one, at most
    # one per ballot; tests/table/test_grouped_commits.py checks that queued ballots share one)
    setup = report["cpu_per_tap_setup"]
    assert set(setup["burst_ms"]) == {"clients_0", "clients_12"} and all(
        0 < ms < 1000 for ms in setup["burst_ms"].values()), setup["burst_ms"]
    for clients, runs in setup["burst_runs"].items():
        for run in runs:
            assert 1 <= run["commits_per_burst"] <= run["ballots_per_burst"] and run["bursts"] >= 1, run
            assert (run["to_last_client_ms"] is None) == (clients == "clients_0"), run
            assert run["to_last_client_ms"] is None or run["to_last_client_ms"] > 0, run
    assert list(tmp_path.iterdir()) == []  # the temporary databases are gone


def test_publish_us_for_every_game() -> None:
    figures = {game: publish_us(game, repeats=1) for game in game_names()}
    assert all(0 < us < 100_000 for us in figures.values()), figures


def test_publish_us_for_every_digital_mode_that_sets_options() -> None:
    """A game whose digital components set engine options (every hand known) has its own figure, measured
    with those options: the digital states differ from the default ones."""
    modes = {game: digital_options(game) for game in game_names() if digital_options(game)}
    assert modes, "no game's digital mode sets options: the figure has nothing to measure"
    for game, options in modes.items():
        digital = sample_states(game, get_rules(game).max_seats, random.Random(1), 40, options)
        default = sample_states(game, get_rules(game).max_seats, random.Random(1), 40)
        assert digital != default, f"{game}: the digital options changed no state"
        assert 0 < publish_us(game, repeats=1, options=options) < 100_000
