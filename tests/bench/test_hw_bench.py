"""`companion bench --json` carries the hardware figures: SPI transfers per poll and the terminal round trip."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.bench.hardware import terminal_round_trip


def test_bench_json_reports_spi_transfer_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--only", "spi_transfers"]) == 0
    figures = json.loads(capsys.readouterr().out)["spi_transfers"]
    assert set(figures) == {"empty_poll", "read_4byte", "read_7byte"}
    assert 0 < figures["empty_poll"] <= 25
    assert figures["empty_poll"] < figures["read_4byte"] < figures["read_7byte"] <= 110


def test_terminal_round_trip_runs_the_real_firmware_loop() -> None:
    figure = terminal_round_trip(pings=20)
    assert figure["pings"] == 20 and 0 < figure["median_ms"] <= figure["p95_ms"]
