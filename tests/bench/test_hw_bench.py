"""`companion bench --json` carries the hardware figures: SPI transfers per poll and the terminal round trip."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.bench.hardware import terminal_round_trip


def test_bench_json_reports_spi_transfer_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--only", "spi_transfers"]) == 0
    figures = json.loads(capsys.readouterr().out)["spi_transfers"]
    assert set(figures) == {"empty_poll", "read_4byte", "read_7byte", "read_10byte", "two_tags_7byte"}
    assert 0 < figures["empty_poll"] <= 25
    assert figures["empty_poll"] < figures["read_4byte"] < figures["read_7byte"] < figures["read_10byte"] <= 110
    assert figures["read_7byte"] < figures["two_tags_7byte"]


def test_the_hardware_figures_are_quoted_once_and_as_bench_makes_them() -> None:
    from pathlib import Path

    from companion.bench.hardware import FIGURES_BEGIN, figures_markdown

    root = Path(__file__).resolve().parents[2]
    readme = (root / "hardware" / "README.md").read_text(encoding="utf-8")
    assert figures_markdown() in readme, "hardware/README.md's figures are stale: run `make docs`"
    assert readme.count(FIGURES_BEGIN) == 1
    for doc in ("tags.md", "terminal.md", "bom.md"):
        text = (root / "hardware" / doc).read_text(encoding="utf-8")
        assert "SPI transfers for an empty poll" not in text, f"hardware/{doc} quotes its own transfer counts"


def test_terminal_round_trip_runs_the_real_firmware_loop() -> None:
    figure = terminal_round_trip(pings=20)
    assert figure["pings"] == 20 and 0 < figure["median_ms"] <= figure["p95_ms"]
