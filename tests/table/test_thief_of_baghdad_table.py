"""Thief of Baghdad end to end on mock hardware: a whole digital game driven by terminal choices and end-turn
buttons; a physical game's deal, payments and draws tapped at seat readers; journal rows, LED frames, wrong
inputs, and no hand in any public output or on another seat's terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.games.binding import GOLD
from companion.games.thief_of_baghdad.binding import CHEST_RGB, NEUTRAL_RGB, SEAT_RGB
from companion.table.runtime import Runtime
from tests.table.bindhelp import PublicFeed, choose, deck, example_table, refused, shows, tables, view
from tests.table.helpers import host_call, hw, live_rows, tap

__all__ = ["tables"]

COLOURS = ["red", "blue", "green", "yellow", "purple", "white"]
DECK = deck("thief-of-baghdad-sample.json")


def connect(rt: Runtime, seats: int) -> None:
    for seat in range(seats):
        hw(rt).mock_terminals.connect(f"T{seat}")
    rt.loop.wait_idle()


def prompt_actions(rt: Runtime, seat: int) -> list[dict[str, Any]]:
    prompt = hw(rt).mock_terminals.last_prompt(f"T{seat}")
    assert prompt is not None
    return [o["action"] for o in prompt.get("options") or ()]


def next_move(rt: Runtime, seat: int) -> dict[str, Any]:
    """Place the first guard offered; infiltrate a palace with chests left (most own thieves first); else end."""
    legal = prompt_actions(rt, seat)
    if legal[0]["type"] == "place_guard":
        return legal[0]
    v = view(rt)
    infiltrate = [a for a in legal if a["type"] == "infiltrate" and v["palaces"][COLOURS.index(a["palace"])]["chests"]]
    if infiltrate:
        infiltrate.sort(key=lambda a: (-v["palaces"][COLOURS.index(a["palace"])]["thieves"][seat], len(a["cards"])))
        return infiltrate[0]
    return {"type": "end_turn"}


def test_a_whole_digital_game_by_terminals_and_buttons(tables: list[Runtime], tmp_path: Path) -> None:
    rt = example_table(tmp_path, "mock-thief-of-baghdad.toml", "thief_of_baghdad", 4, "digital", seed=0)
    tables.append(rt)
    connect(rt, 4)
    feed = PublicFeed(rt)
    hub = hw(rt).mock_terminals
    checked_leds = False
    for _ in range(600):
        if rt.loop.status == "over":
            break
        seat = view(rt)["turn"]
        move = next_move(rt, seat)
        if move["type"] == "end_turn":
            hw(rt).press(seat, "end")
            rt.loop.wait_idle()
        else:
            choose(rt, seat, **{k: v for k, v in move.items() if k != "seat"})
        if not checked_leds and view(rt)["phase"] == "turn":
            v = view(rt)
            assert shows(rt, f"seat:{v['turn']}", (GOLD,) * 6)
            checked_leds = True
    assert rt.loop.status == "over"
    outcome = rt.handle.public_state()["game"]["outcome"]
    assert outcome["reason"] == "chests" and len(outcome["winners"]) == 1
    v = view(rt)
    for palace in v["palaces"]:  # the final board on the palace segments
        guards = [NEUTRAL_RGB if g == "neutral" else SEAT_RGB[g] for g in palace["guards"]]
        thieves = [SEAT_RGB[s] for s, n in enumerate(palace["thieves"]) for _ in range(n)][:4]
        chests = [CHEST_RGB] * min(4, len(palace["chests"]))
        off = (0, 0, 0)
        expected = tuple(guards + [off] * (4 - len(guards)) + thieves + [off] * (4 - len(thieves))
                         + chests + [off] * (4 - len(chests)))
        assert shows(rt, f"palace:{palace['color']}", expected)
    rows = live_rows(rt)
    kinds = {(r["action"]["type"], r["source"].split(":")[0]) for r in rows}
    assert kinds == {("deal", "chance"), ("draw", "chance"), ("place_guard", "terminal"),
                     ("infiltrate", "terminal"), ("end_turn", "button")}
    assert sum(r["action"]["type"] == "place_guard" for r in rows) == 8
    public = feed.drain()
    assert '"hand":' not in public  # hands are never public, only their sizes
    for seat in range(4):  # each terminal only ever shows its own seat's hand
        infos = [m.get("info") or {} for m in hub.sent[f"T{seat}"]]
        assert all(i.get("seat", seat) == seat for i in infos)
        assert any("hand" in i for i in infos)


def hands_tapped(rt: Runtime) -> dict[int, list[str]]:
    """Tap the deal: seat 0 six cards, seat 1 seven (each seat at its own reader)."""
    hands = {0: ["red", "red", "red", "blue", "green", "yellow"],
             1: ["blue", "blue", "white", "purple", "red", "green", "yellow"]}
    used: dict[str, int] = {}
    for seat, hand in hands.items():
        for colour in hand:
            n = used.get(colour, 0)
            used[colour] = n + 1
            tap(rt, f"r{seat}", f"7A{COLOURS.index(colour):02X}{n:04X}")
    return hands


def card_uid(colour: str, n: int) -> str:
    return f"7A{COLOURS.index(colour):02X}{n:04X}"


def test_a_physical_game_reads_deal_payments_and_draws(tables: list[Runtime], tmp_path: Path) -> None:
    rt = example_table(tmp_path, "mock-thief-of-baghdad.toml", "thief_of_baghdad", 2, "physical", seed=1)
    tables.append(rt)
    assert host_call(rt.loop, "import_cards", deck=DECK) == {"imported": len(DECK["cards"])}
    host_call(rt.loop, "enroll", uid="04C0FFEE", game="secret_hitler", kind="policy", value="L")
    connect(rt, 2)
    feed = PublicFeed(rt)
    assert view(rt)["phase"] == "deal" and live_rows(rt) == []
    hands = hands_tapped(rt)
    row = live_rows(rt)[0]
    assert row["action"] == {"type": "deal", "seat": -1, "hands": [hands[0], hands[1]]}
    assert row["source"] == "reader:r1"
    for palace in ["red", "red", "green", "blue", "yellow", "blue", "white", "white"]:
        choose(rt, view(rt)["turn"], type="place_guard", palace=palace)
    assert view(rt)["phase"] == "turn" and view(rt)["turn"] == 0
    assert '"hand":' not in feed.drain()
    rows, shown = len(live_rows(rt)), hw(rt).mock_strip.shown
    tap(rt, "r0", "04C0FFEE")
    refused(rt, feed, "seat:0", "wrong_game", rows, shown)
    tap(rt, "r1", card_uid("blue", 10))                                   # not seat 1's turn
    refused(rt, feed, "seat:1", "not_your_turn", rows, shown)
    tap(rt, "r0", card_uid("white", 10))                                  # seat 0 holds no white
    refused(rt, feed, "seat:0", "not_in_hand", rows, shown)
    tap(rt, "center", card_uid("red", 10))
    refused(rt, feed, "center", "wrong_reader", rows, shown)
    red = next(a for a in prompt_actions(rt, 0) if a["type"] == "infiltrate" and a["palace"] == "red")
    cost = len(red["cards"])
    tap(rt, "r0", card_uid("blue", 11))                                   # the wrong colour pays nothing
    choose(rt, 0, type="infiltrate", palace="red", cards=red["cards"])
    refused(rt, feed, "seat:0", "too_few_cards", rows, shown)  # the engine judges the payment
    hw(rt).mock_terminals.choose("T0", hw(rt).mock_terminals.last_prompt("T0")["ballot"],  # type: ignore[index]
                                 [a["type"] for a in prompt_actions(rt, 0)].index("clear_taps"))
    rt.loop.wait_idle()
    for i in range(cost):
        tap(rt, "r0", card_uid("red", 12 + i))
    choose(rt, 0, type="infiltrate", palace="red", cards=red["cards"])
    row = live_rows(rt)[-1]
    assert row["action"] == {**red, "cards": ["red"] * cost} and row["source"] == "terminal:T0"
    assert shows(rt, "moves", ((200, 200, 200),) * 2 + ((16, 16, 16),))
    hw(rt).press(0, "end")
    rt.loop.wait_idle()
    assert live_rows(rt)[-1]["action"] == {"type": "end_turn", "seat": 0, "take_dancer": False}
    rows, shown = len(live_rows(rt)), hw(rt).mock_strip.shown
    tap(rt, "r1", card_uid("purple", 10))                                 # seat 0 drew, not seat 1
    refused(rt, feed, "seat:1", "wrong_reader", rows, shown)
    for i, colour in enumerate(("purple", "purple", "green")):
        tap(rt, "r0", card_uid(colour, 14 + i))
    row = live_rows(rt)[-1]
    assert row["action"] == {"type": "draw", "seat": -1, "cards": ["purple", "purple", "green"], "target": 0}
    assert view(rt)["turn"] == 1 and shows(rt, "seat:1", (GOLD,) * 6)
    own = hw(rt).mock_terminals.sent["T0"][-1]["info"]
    assert sorted(own["hand"]) == sorted(hands[0][cost:] + ["purple", "purple", "green"])
    assert '"hand":' not in feed.drain() + json.dumps(rt.handle.public_state())
