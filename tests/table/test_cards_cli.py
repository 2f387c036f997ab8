"""`companion cards export|import` as a subprocess on a real data directory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def test_cards_cli_export_and_import(tmp_path: Path) -> None:
    """`companion cards` on the real registry (Secret Hitler cards when that engine is registered)."""
    from companion.games.registry import game_names
    if "secret_hitler" not in game_names():
        pytest.fail("the Secret Hitler engine must be registered")
    deck = {"format": "companion-deck", "version": 1, "cards": [
        {"uid": "04A1B2C3", "game": "secret_hitler", "kind": "policy", "value": "L", "label": "L1"},
        {"uid": "04A1B2C3D4E5F6", "game": "secret_hitler", "kind": "ballot", "value": "nein", "label": "Nein 3"}]}
    src = tmp_path / "deck.json"
    src.write_text(json.dumps(deck))
    data = tmp_path / "data"
    cli = [sys.executable, "-m", "companion.cli", "cards"]
    imported = subprocess.run(cli + ["import", str(src), "--data", str(data)], capture_output=True, text=True,
                              timeout=60)
    assert imported.returncode == 0, imported.stderr
    assert "imported 2 cards" in imported.stdout
    out = tmp_path / "out.json"
    exported = subprocess.run(cli + ["export", "--data", str(data), "-o", str(out)], capture_output=True, text=True,
                              timeout=60)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(out.read_text()) == {**deck, "cards": sorted(deck["cards"], key=lambda c: (c["kind"], c["value"]))}
    src.write_text("{not json")
    broken = subprocess.run(cli + ["import", str(src), "--data", str(data)], capture_output=True, text=True, timeout=60)
    assert broken.returncode == 2 and broken.stderr.startswith("error: bad_json") and "Traceback" not in broken.stderr
