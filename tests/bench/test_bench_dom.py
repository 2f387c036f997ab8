"""`companion bench --only tap_to_dom` runs end to end (its figures are measured, not judged, here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.browser
def test_tap_to_dom_bench_reports_its_figures(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "companion.cli", "bench", "--json", "--only", "tap_to_dom",
                          "--dom-taps", "3", "--pages", "2", "--data", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    figure = report["tap_to_dom_ms"]
    assert figure["pages"] == 2 and figure["taps"] >= 3
    assert 0 < figure["p50"] <= figure["p99"] <= figure["max"]
    assert 0 < report["table_page_kb"] < 200
    assert list(tmp_path.iterdir()) == []
