"""Boss's Wallet end to end on mock hardware: a whole 3-round game driven only by taps, buttons and terminal
choices; journal rows, LED frames, wrong inputs, and hands that never reach a public output before the verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.games.binding import BLUE, GOLD, GREEN, RED, WHITE
from companion.table.runtime import Runtime
from companion.table.refusal import Refusal
from tests.table.bindhelp import PublicFeed, choose, deck, example_table, refused, shows, tables, view
from tests.table.helpers import host_call, hw, live_rows, played, tap

__all__ = ["tables"]

DECK = deck("boss-wallet-sample.json")
UID = {c["label"].removeprefix("SAMPLE "): c["uid"] for c in DECK["cards"]}

POLICE_HAND = ["ID police", "police badge", "red 100", "red 50", "blue 100"]
POOR_MILLIONAIRE = ["ID millionaire", "green 20", "green 50", "yellow 20", "jewel 50"]
MODEL_AFTER_BUY = ["extra ID model", "jewel 80", "red 20"]


def start(tables: list[Runtime], tmp_path: Path) -> Runtime:
    """The example Boss's Wallet table, 2 seats, physical; the deck imported, then a new game."""
    rt = example_table(tmp_path, "mock-boss-wallet.toml", "boss_wallet", 2, "physical", seed=3)
    tables.append(rt)
    assert rt.loop.session is None  # no cards enrolled yet: the physical game could not start
    refusal = host_call(rt.loop, "new_game")
    assert isinstance(refusal, Refusal) and refusal.code == "bad_setup" and "enroll" in refusal.message
    assert host_call(rt.loop, "import_cards", deck=DECK) == {"imported": len(DECK["cards"])}
    host_call(rt.loop, "enroll", uid="04C0FFEE", game="secret_hitler", kind="policy", value="L")
    result = host_call(rt.loop, "new_game")
    assert isinstance(result, dict) and result["accepted"] == 0  # waiting for the coins
    for t in ("T0", "T1"):
        hw(rt).mock_terminals.connect(t)
    rt.loop.wait_idle()
    return rt


COINS = {1: (1, 5), 2: (20, 2), 3: (7, 10)}
"""Round -> the coin each seat takes (the lowest starts)."""


def deal(rt: Runtime, round_no: int) -> None:
    """Each seat taps the coin it took; the last tap deals the round."""
    assert view(rt)["phase"] == "setup"
    for seat, cents in enumerate(COINS[round_no]):
        tap(rt, f"r{seat}", UID[f"coin {cents}"])
    assert live_rows(rt)[-1]["action"] == {"type": "setup", "seat": -1, "coins": list(COINS[round_no])}
    assert live_rows(rt)[-1]["source"] == "reader:r1"


def flip_round(rt: Runtime) -> None:
    """The seat to act flips (by button) until the 6th flip ends the round; round-end specials passed."""
    while view(rt)["phase"] == "turns":
        seat = view(rt)["turn"]
        left = 6 - view(rt)["hourglasses"]
        assert shows(rt, f"seat:{seat}", (GOLD,) * 6)
        assert shows(rt, "hourglass", (GOLD,) * left + ((20, 13, 0),) * (6 - left))
        hw(rt).press(seat, "flip")
        rt.loop.wait_idle()
    while view(rt)["phase"] == "round_end_specials":
        choose(rt, view(rt)["asked"][0], type="pass")


def scan(rt: Runtime, seat: int, labels: list[str], confirm: str) -> None:
    """Tap a hand card by card at the seat's reader, then confirm by button or terminal."""
    for label in labels:
        tap(rt, f"r{seat}", UID[label])
    if confirm == "button":
        hw(rt).press(seat, "ok")
        rt.loop.wait_idle()
    else:
        choose(rt, seat, type="confirm_scan")


def this_round(feed_text: str, snapshot: dict[str, Any]) -> str:
    """Public outputs less the last round's results and the card facts they show (those cards are public now
    and may be dealt again), as text: what could betray this round's hands."""
    out = []
    for line in [*feed_text.splitlines(), "state " + json.dumps(snapshot)]:
        kind, _, data = line.partition(" ")
        event = json.loads(data)
        game = event.get("game") if kind == "state" else None
        if game:
            shown = {c for p in (game["view"].pop("last_round") or {}).get("players", ())
                     for c in (*p["hand"], *p["credit_drawn"])}
            game["view"]["card_info"] = {k: v for k, v in game["view"]["card_info"].items() if k not in shown}
            game.pop("table_info")
        out.append(f"{kind} {json.dumps(event)}")
    return "\n".join(out)


def hands_index(hands: dict[int, list[str]], hand: list[str]) -> int:
    """The seat holding a hand."""
    return next(s for s, h in hands.items() if h is hand)


def settle(rt: Runtime) -> None:
    """Officers investigate the other seat, guilty seats return their first chip (all on terminals)."""
    while view(rt)["phase"] in ("investigate", "return_chips", "credit"):
        v = view(rt)
        if v["phase"] == "investigate":
            officer = v["asked"][0]
            choose(rt, officer, type="investigate", target=1 - officer)
        elif v["phase"] == "credit":
            choose(rt, v["asked"][0], type="pass")
        else:
            seat = next(s for s, p in enumerate(v["players"]) if p["verdict"] == "guilty" and p["chips"])
            choose(rt, seat, type="return_chip")


def test_a_whole_game_through_mock_hardware(tables: list[Runtime], tmp_path: Path) -> None:
    rt = start(tables, tmp_path)
    feed = PublicFeed(rt)
    hub = hw(rt).mock_terminals
    verdicts: list[list[str]] = []
    for round_no in (1, 2, 3):
        if round_no == 1:
            rows, shown = len(live_rows(rt)), hw(rt).mock_strip.shown
            tap(rt, "r0", UID["coin 1"])
            tap(rt, "r1", UID["coin 1"])                                       # one coin, two seats
            refused(rt, feed, "seat:1", "bad_coins", rows, shown)
        deal(rt, round_no)
        feed.drain()  # the last round's hands were public at its end; from here on this round's are secret
        if round_no > 1:  # the round before stays on show (hands, verdicts) while this one is played
            assert rt.handle.public_state()["game"]["table_info"]["verdicts"] == verdicts[-1]
            assert view(rt)["last_round"]["round"] == round_no - 1
        v = view(rt)
        assert v["round"] == round_no and v["phase"] == "turns" and v["sample_deck"] is False
        first = v["turn"]
        second = 1 - first
        hands = {first: POLICE_HAND, second: POOR_MILLIONAIRE}
        if round_no == 1:
            hands = {first: MODEL_AFTER_BUY, second: POLICE_HAND}
        sent_before = len(hub.sent[f"T{second}"])
        if round_no == 1:
            rows = len(live_rows(rt))
            shown = hw(rt).mock_strip.shown
            tap(rt, f"r{first}", "04C0FFEE")                                 # a Secret Hitler tile
            refused(rt, feed, f"seat:{first}", "wrong_game", rows, shown)
            tap(rt, f"r{second}", UID["red 200"])                            # not this seat's turn
            refused(rt, feed, f"seat:{second}", "not_your_turn", rows, shown)
            tap(rt, "center", UID["red 200"])                                # not a seat reader
            refused(rt, feed, "center", "wrong_reader", rows, shown)
            tap(rt, f"r{first}", UID["red 50"])
            tap(rt, f"r{first}", UID["extra ID model"])                      # 50 CU does not buy an ID
            refused(rt, feed, f"seat:{first}", "underpaid", rows, shown)
            tap(rt, f"r{first}", UID["red 200"])
            tap(rt, f"r{first}", UID["blue 150"])
            tap(rt, f"r{first}", UID["extra ID model"])                      # 400 CU: bought
            row = live_rows(rt)[-1]
            assert row["source"] == f"reader:r{first}"
            assert row["action"] == {"type": "buy_id", "seat": first, "id_card": played(rt, UID["extra ID model"]),
                                     "paid": [played(rt, UID[c]) for c in ("red 50", "red 200", "blue 150")]}
        flip_round(rt)
        assert view(rt)["phase"] == "scan"
        assert shows(rt, "seat:0", (BLUE,) * 6) and shows(rt, "hourglass", ((20, 13, 0),) * 6)
        if round_no == 1:  # a missed card is refused by the hand-size check, then tapped and confirmed again
            rows, shown = len(live_rows(rt)), hw(rt).mock_strip.shown
            scan(rt, first, hands[first][:-1], "button")
            refused(rt, feed, f"seat:{first}", "hand_size", rows, shown)
            scan(rt, first, hands[first][-1:], "button")
        else:
            scan(rt, first, hands[first], "button")
        row = live_rows(rt)[-1]
        assert row["source"] == f"button:{first}:ok"
        assert row["action"] == {"type": "reveal_hand", "seat": -1, "target": first,
                                 "cards": [played(rt, UID[c]) for c in hands[first]]}
        assert shows(rt, f"seat:{first}", (WHITE,) * 6)
        public_so_far = this_round(feed.drain(), rt.handle.public_state())
        other_terminal = json.dumps(hub.sent[f"T{second}"][sent_before:])
        for label in hands[first]:  # the scanned hand is in no public output, nor on the other terminal
            assert played(rt, UID[label]) not in public_so_far and played(rt, UID[label]) not in other_terminal
            assert UID[label] not in public_so_far + other_terminal + json.dumps(hub.sent[f"T{first}"])
        assert played(rt, UID[hands[first][0]]) in json.dumps(hub.sent[f"T{first}"])  # but its own terminal shows it
        scan(rt, second, hands[second], "terminal")
        assert live_rows(rt)[-1]["source"] == f"terminal:T{second}"
        settle(rt)
        info = rt.handle.public_state()["game"]["table_info"]  # shown until the next round's verdicts
        assert info["round"] == round_no
        verdicts.append(info["verdicts"])
        for seat, verdict in enumerate(info["verdicts"]):
            assert shows(rt, f"seat:{seat}", ((GREEN if verdict["verdict"] == "innocent" else RED),) * 6)
        assert info["investigations"] == [{"seat": 1 - hands_index(hands, POLICE_HAND), "target": 0}] or \
            info["investigations"][0]["target"] == 1 - info["investigations"][0]["seat"]
        innocent = [s for s, v in enumerate(info["verdicts"]) if v["verdict"] == "innocent"]
        assert info["award_order"] == sorted(innocent, key=lambda s: -info["verdicts"][s]["wealth_cents"])
    v = view(rt)
    assert v["phase"] == "game_over" and rt.loop.status == "over"
    rows = live_rows(rt)
    types = [r["action"]["type"] for r in rows]
    assert types.count("setup") == 3 and types.count("reveal_hand") == 6 and types.count("flip") >= 12
    assert types.count("investigate") == 3 and "award" in types
    assert all(r["source"] == "chance" for r in rows if r["action"]["type"] == "award")
    assert [r["source"] for r in rows if r["action"]["type"] == "setup"] == ["reader:r1"] * 3
    assert all(r["source"].startswith(("button:", "terminal:")) for r in rows if r["action"]["type"] == "reveal_hand")
    assert rt.journal.game(rt.loop.session.game_id).actions == tuple(r["action"] for r in rows)  # type: ignore[union-attr]
    # round 1: both innocent; rounds 2 and 3: the poor millionaire (the start seat) is guilty
    assert [[v["verdict"] for v in r] for r in verdicts[:1]] == [["innocent", "innocent"]]
    for r in verdicts[1:]:
        assert sorted((v["verdict"], tuple(v["reasons"])) for v in r) == [("guilty", ("under_500",)),
                                                                          ("innocent", ())]
    outcome = rt.handle.public_state()["game"]["outcome"]
    assert outcome["reason"] == "chips"


def test_a_digital_round_shows_its_results_after_the_table_deals_the_next(tables: list[Runtime],
                                                                          tmp_path: Path) -> None:
    """Digital: the table samples the awards and the next round's setup in the step that ends the round; the
    round's verdicts, hands and awards still reach the public snapshot and the SSE feed (as `last_round`)."""
    rt = example_table(tmp_path, "mock-boss-wallet.toml", "boss_wallet", 3, "digital", seed=5)
    tables.append(rt)
    for t in ("T0", "T1", "T2"):
        hw(rt).mock_terminals.connect(t)
    rt.loop.wait_idle()
    feed = PublicFeed(rt)
    assert view(rt)["phase"] == "turns" and view(rt)["last_round"] is None  # round 1 dealt by the table
    for _ in range(200):
        v = view(rt)
        if v["round"] == 2:
            break
        if v["phase"] == "turns":
            hw(rt).press(v["turn"], "flip")
            rt.loop.wait_idle()
        else:
            seat = rt.handle.public_state()["game"]["to_act"][0]
            legal = rt.loop.session.rules.legal_actions(rt.loop.session.state, seat)  # type: ignore[union-attr]
            choose(rt, seat, **{k: v for k, v in legal[0].items() if k != "seat"})
    snapshot = rt.handle.public_state()["game"]
    public = snapshot["view"]
    assert public["round"] == 2 and public["phase"] == "turns"
    assert all("verdict" not in p and "hand" not in p for p in public["players"])  # round 2's are not shown yet
    last = public["last_round"]
    assert last["round"] == 1 and last["finished"]
    rows = live_rows(rt)
    # the results are the round the table sampled and judged: its scanned hands and its awards
    scans = {r["action"]["target"]: r["action"]["cards"] for r in rows if r["action"]["type"] == "reveal_hand"}
    assert [p["hand"] for p in last["players"]] == [scans[s] for s in range(3)]
    awards = [(r["action"]["target"], len(r["action"]["chips"])) for r in rows if r["action"]["type"] == "award"]
    assert [(a["seat"], a["chips"]) for a in last["awards"]] == awards
    assert [p["verdict"] for p in last["players"]] and all(p["verdict"] in ("innocent", "guilty")
                                                           for p in last["players"])
    assert snapshot["table_info"]["round"] == 1
    assert snapshot["table_info"]["verdicts"] == [
        {"seat": p["seat"], "verdict": p["verdict"], "reasons": p["reasons"], "identity": p["identity"],
         "wealth_cents": p["wealth_cents"]} for p in last["players"]]
    assert [r["source"] for r in rows if r["action"]["type"] == "setup"] == ["chance", "chance"]
    # the case the players could miss: after the round's last player action only chance acted (awards and the
    # next setup sampled in that same step), so no published state showed round 1 in `players` afterwards
    last_player = max(i for i, r in enumerate(rows) if r["source"] != "chance")
    assert [r["action"]["type"] for r in rows[last_player + 1:]][-1] == "setup"
    assert all(r["source"] == "chance" for r in rows[last_player + 1:])
    # and the page's feed carried them: a published state with round 2 dealt and round 1's results
    states = [json.loads(line.split(" ", 1)[1]) for line in feed.drain().splitlines() if line.startswith("state ")]
    shown = [s["game"]["view"]["last_round"] for s in states if s["game"] and s["game"]["view"]["round"] == 2]
    assert shown and shown[-1] == last
    chips_drawn = [c for r in rows if r["action"]["type"] == "award" for c in r["action"]["chips"]]
    assert chips_drawn and "chip_values" not in json.dumps(last)
