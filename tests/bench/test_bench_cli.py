"""`companion bench --json` prints one JSON object; `--only` picks figures (values are not judged here).

The browser and terminal figures have their own tests; running every figure here would take minutes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_bench_json_shape(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "companion.cli", "bench", "--json", "--only", "tap_to_led",
                          "--only", "spi_transfers", "--taps", "40", "--data",
                          str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    figure = report["tap_to_led_ms"]
    assert figure["taps"] >= 40 and 0 < figure["p50"] <= figure["p99"] <= figure["max"]
    assert set(report) == {"tap_to_led_ms", "spi_transfers"}, "--only limits the run to the named figures"
    assert all(isinstance(report["spi_transfers"][k], int) for k in ("empty_poll", "read_4byte", "read_7byte"))
    assert list(tmp_path.iterdir()) == []  # the temporary database is gone


def test_bench_makes_a_missing_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "not" / "yet"
    out = subprocess.run([sys.executable, "-m", "companion.cli", "bench", "--json", "--only", "tap_to_led",
                          "--taps", "5", "--data", str(data)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["tap_to_led_ms"]["taps"] >= 5
    assert data.is_dir() and list(data.iterdir()) == []


def test_bench_refuses_a_data_path_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("")
    assert main(["bench", "--json", "--only", "spi_transfers", "--data", str(a_file)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and f"--data {a_file}: not a directory it can use" in out.err
