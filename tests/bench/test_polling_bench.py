"""The `polling` figure: real poller and driver on fake chips, cycles per second and CPU per empty poll."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_polling_figure_has_the_issue_keys_for_8_16_and_24_readers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--only", "polling", "--polling-s", "0.3"]) == 0
    figures = json.loads(capsys.readouterr().out)["polling"]
    assert [f["readers"] for f in figures] == [8, 16, 24]
    for figure in figures:
        assert set(figure) == {"readers", "interval_ms", "hz", "cpu_us_per_empty_poll"}
        assert figure["hz"] > 0 and figure["cpu_us_per_empty_poll"] > 0

