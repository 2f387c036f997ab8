"""Boss's Wallet at a digital table, on mock hardware: the table deals, so every seat's own view has its hand from
the deal; a draw is followed in the same step by the card the table drew; a put names its card (chosen on the
terminal or phone), a bare `put` button is refused privately; no dealt or drawn card reaches a public output."""

from __future__ import annotations

import json
from pathlib import Path

from companion.table.runtime import Runtime
from tests.table.bindhelp import PublicFeed, choose, example_table, refused, tables, view
from tests.table.helpers import hw, live_rows

__all__ = ["tables"]


def start(tables: list[Runtime], tmp_path: Path, seats: int = 3) -> Runtime:
    """The example Boss's Wallet table, digital: the table deals round 1 as it starts."""
    rt = example_table(tmp_path, "mock-boss-wallet.toml", "boss_wallet", seats, "digital", seed=8)
    tables.append(rt)
    for s in range(seats):
        hw(rt).mock_terminals.connect(f"T{s}")
    rt.loop.wait_idle()
    return rt


def test_every_seat_sees_its_hand_from_the_deal(tables: list[Runtime], tmp_path: Path) -> None:
    rt = start(tables, tmp_path)
    session = rt.loop.session
    assert session is not None and session.options.get("known_hands") is True
    (setup,) = [r for r in live_rows(rt) if r["action"]["type"] == "setup"]
    assert setup["source"] == "chance" and len(setup["action"]["hands"]) == 3
    public = json.dumps(rt.handle.public_state())
    for seat in range(3):
        mine = rt.handle.seat_state(seat)["view"]
        assert mine["hand"] == setup["action"]["hands"][seat] and mine["hand_complete"] is True
        assert all(mine["card_info"][c] for c in mine["hand"])
        assert not any(f'"{c}"' in public for c in mine["hand"]), "a dealt card in the public snapshot"


def test_a_draw_brings_its_card_and_a_put_names_one(tables: list[Runtime], tmp_path: Path) -> None:
    rt = start(tables, tmp_path)
    feed = PublicFeed(rt)
    seat = view(rt)["turn"]
    before = view(rt, seat)["hand"]
    rows = len(live_rows(rt))
    hw(rt).press(seat, "draw")
    rt.loop.wait_idle()
    new = live_rows(rt)[rows:]
    assert [(r["action"]["type"], r["source"]) for r in new] == [("draw", f"button:{seat}:draw"), ("draw_card", "chance")]
    card = new[1]["action"]["card"]
    assert view(rt, seat)["hand"] == [*before, card]
    assert view(rt)["turn"] == (seat + 1) % 3
    assert f'"{card}"' not in feed.drain(), "the card drawn on the public stream"
    # the next seat's put button names no card: refused, the code only for the seat and the host
    nxt = view(rt)["turn"]
    rows = len(live_rows(rt))
    shown = hw(rt).mock_strip.shown
    hw(rt).press(nxt, "put")
    refused(rt, feed, f"seat:{nxt}", "card_required", rows, shown)
    assert rt.handle.seat_state(nxt)["refused"]["code"] == "card_required"
    # on its terminal it chooses which card goes back
    mine = view(rt, nxt)["hand"]
    choose(rt, nxt, type="put", card=mine[-1])
    assert live_rows(rt)[-1]["action"] == {"type": "put", "seat": nxt, "card": mine[-1]}
    assert view(rt, nxt)["hand"] == mine[:-1]
    assert f'"{mine[-1]}"' not in feed.drain()
