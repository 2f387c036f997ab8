"""Seat names and colours come from the table config: terminal prompt labels, the published snapshot, the
config's own parsing (a seat without a name is "Seat N")."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from companion.config import GameConfig, PollingConfig, SeatConfig, demo_config, describe, loads_config
from companion.games.registry import get_game
from companion.games.schema import FieldKind
from companion.table.prompts import label, prompt
from companion.table.runtime import Runtime
from tests.table.helpers import hw

NAMES = ("Mina", "Joon", "", "Seo-yeon", "Ari")
SH_SEATS = get_game("secret_hitler").fields.of_kind(FieldKind.SEAT)
COLOURS = ("#102030", "#405060", "#708090", "#a0b0c0", "#d0e0f0")


def test_labels_name_targets_as_configured_else_seat_n() -> None:
    assert label({"type": "nominate", "seat": 0, "target": 3}, NAMES, SH_SEATS) == "nominate Seo-yeon"
    assert label({"type": "execute", "seat": 0, "target": 2}, NAMES, SH_SEATS) == "execute Seat 3"
    assert label({"type": "nominate", "seat": 0, "target": 7}, NAMES, SH_SEATS) == "nominate Seat 8"  # beyond the config
    message = prompt("b1", [{"type": "nominate", "seat": 4, "target": 0}], NAMES, SH_SEATS, {})
    assert [o["label"] for o in message["options"]] == ["nominate Mina"]


def test_a_seat_needs_no_name_and_its_colour_is_rgb_for_the_leds() -> None:
    cfg = loads_config("[[seats]]\ncolour = '#e6194B'\n[[seats]]\nname = '민아'\n")
    assert [s.name for s in cfg.seats] == ["", "민아"]
    assert cfg.seats[0].rgb == (230, 25, 75) and cfg.seats[1].rgb == (255, 255, 255)
    assert "seat 0: (no name) #e6194B" in describe(cfg) and "seat 1: 민아 #ffffff" in describe(cfg)
    assert all(s.name == "" for s in demo_config().seats)  # the demo table: "Seat N" in the page's language


def test_terminals_and_the_snapshot_carry_the_configured_names(tmp_path: Path) -> None:
    base = demo_config()
    seats = tuple(SeatConfig(n, c, f"T{i}") for i, (n, c) in enumerate(zip(NAMES, COLOURS)))
    cfg = replace(base, data_dir=str(tmp_path), game=GameConfig("secret_hitler", 5, "digital"),
                  polling=PollingConfig(interval_ms=5, removal_ms=25), seats=seats,
                  buttons=tuple(b for b in base.buttons if b.seat < 5))
    rt = Runtime(cfg, rng=random.Random(3)).start()
    try:
        snapshot = rt.handle.public_state()
        assert snapshot["seats"] == [{"name": n, "colour": c} for n, c in zip(NAMES, COLOURS)]
        president = snapshot["game"]["view"]["president"]
        hub = hw(rt).mock_terminals
        hub.connect(f"T{president}")
        rt.loop.wait_idle()
        message = hub.last_prompt(f"T{president}")
        assert message is not None and message["type"] == "prompt"
        labels = {o["action"]["target"]: o["label"] for o in message["options"]}
        assert labels and all(text == f"nominate {NAMES[t] or f'Seat {t + 1}'}" for t, text in labels.items())
    finally:
        rt.stop()
