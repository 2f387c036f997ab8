"""The Boss's Wallet table binding, pure: enrollment values, options from enrolled cards, taps -> actions,
refusals, choices, LED scene and table info."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import CHANCE, Refusal
from companion.games.binding import BLUE, DIM, GOLD, GREEN, RED, WHITE, Card, Chosen, Placed, Pressed, Removed, get_binding
from companion.games.boss_wallet import RULES
from companion.games.boss_wallet.binding import BINDING, CARD_KINDS, Taps, entry_of

DECK = Path(__file__).resolve().parents[3] / "hardware" / "decks" / "boss-wallet-sample.json"


def deck() -> list[Card]:
    """The sample deck file as enrolled cards."""
    raw = json.loads(DECK.read_text())["cards"]
    return [Card(c["uid"], c["game"], c["kind"], c["value"], c["label"]) for c in raw]


def by_label(label: str) -> Card:
    """A deck card by its label (without the SAMPLE prefix)."""
    return next(c for c in deck() if c.label == f"SAMPLE {label}")


def started(seats: int = 2) -> Any:
    """A physical game from the deck, coins dealt: seat 0 holds the lowest coin and starts."""
    options = BINDING.table_options({}, deck(), "physical")
    state = RULES.initial_state(seats, options)
    return RULES.apply(state, {"type": "setup", "seat": CHANCE, "coins": [1, 5, 10, 20, 50, 2, 7][:seats]})


def feed(state: Any, pending: Any, *events: Any) -> tuple[list[dict[str, Any]], Any]:
    """Feed events; apply the actions each produces; return all actions and the last pending."""
    out: list[dict[str, Any]] = []
    for event in events:
        actions, pending = BINDING.on_input(state, pending, event, "physical")
        for action in actions:
            state = RULES.apply(state, action)
        out += actions
    return out, pending


def tap(seat: int, label: str) -> Placed:
    return Placed(f"seat:{seat}", by_label(label))


def test_get_binding_finds_it_and_card_kinds_check_values() -> None:
    assert get_binding("boss_wallet") is BINDING
    assert "100:red" in CARD_KINDS["bill"] and "100:red:3" in CARD_KINDS["bill"]
    assert "100" not in CARD_KINDS["bill"] and "100:red:9" not in CARD_KINDS["bill"]
    assert "police:extra" in CARD_KINDS["id"] and "pope" not in CARD_KINDS["id"]
    assert "round_end:replaces" in CARD_KINDS["special"] and "2" in CARD_KINDS["badge"]
    assert "VALUE:CURRENCY[:MARK]" in ", ".join(CARD_KINDS["bill"])


def test_enrolled_values_become_catalogue_entries() -> None:
    assert entry_of(Card("B1", "boss_wallet", "bill", "250:red:3", "")) == {
        "type": "bill", "value": 250, "currency": "red", "min_seats": 3}
    assert entry_of(Card("B2", "boss_wallet", "id", "police:extra", "")) == {
        "type": "id", "person": "police", "extra": True}
    assert entry_of(Card("B3", "boss_wallet", "credit", "4", "")) == {"type": "credit", "min_seats": 4}


def test_physical_options_come_from_the_enrolled_cards_digital_ones_do_not() -> None:
    options = BINDING.table_options({"rank_guilty": True}, deck(), "physical")
    assert options["rank_guilty"] is True
    assert options["cards"][by_label("red 100").uid] == {"type": "bill", "value": 100, "currency": "red"}
    special = by_label("Special: pickpocket")
    assert options["specials"] == {special.uid: {"name": special.label, "timing": "round_end",
                                                 "replaces_action": False}}
    assert BINDING.table_options({}, deck(), "digital") == {"known_hands": True}  # the table knows the hands it deals
    with pytest.raises(ValueError, match="enroll"):
        BINDING.table_options({}, [], "physical")
    state = RULES.initial_state(2, options)
    assert RULES.view(state)["sample_deck"] is False


def test_buttons_are_turn_actions_and_a_payment_is_tapped_then_the_extra_id() -> None:
    state = started()
    actions, pending = feed(state, None, Pressed(0, "draw"))
    assert actions == [{"type": "draw", "seat": 0}]
    state = RULES.apply(state, actions[0])
    actions, pending = feed(state, pending, tap(1, "red 200"), tap(1, "blue 150"))
    assert actions == [] and pending.of(1) == [by_label("red 200").uid, by_label("blue 150").uid]
    actions, pending = feed(state, pending, tap(1, "extra ID model"))
    assert actions == [{"type": "buy_id", "seat": 1, "paid": [by_label("red 200").uid, by_label("blue 150").uid],
                        "id_card": by_label("extra ID model").uid}]
    state = RULES.apply(state, actions[0])
    assert RULES.view(state)["players"][1]["hand_size"] == 4
    # a new turn forgets the taps of the last one
    _, pending = BINDING.on_input(state, pending, Removed("seat:1", by_label("red 200")), "physical")
    assert len(pending) == 0


@pytest.mark.parametrize(("event", "code"), [
    (tap(1, "red 200"), "not_your_turn"),                         # a card tapped at another seat's reader
    (tap(0, "ID police"), "not_payable"),
    (tap(0, "extra ID police"), "nothing_tapped"),
    (tap(0, "red 250 (3+)"), "card_not_in_use"),
    (Placed("center", by_label("red 200")), "wrong_reader"),
    (Placed("seat:0", Card("04AABBCC", "secret_hitler", "policy", "L", "L")), "wrong_game"),
    (Placed("seat:0", Card("04AABBCD", "boss_wallet", "bill", "100:red", "not in this game")), "not_enrolled"),
    (Pressed(0, "ja"), "unknown_key"),
])
def test_wrong_inputs_are_refused_with_a_code(event: Any, code: str) -> None:
    with pytest.raises(Refusal) as err:
        BINDING.on_input(started(), None, event, "physical")
    assert err.value.code == code


def test_an_underpaid_extra_id_is_refused_by_the_engine_and_the_taps_stay() -> None:
    state = started()
    actions, pending = BINDING.on_input(state, None, tap(0, "red 50"), "physical")
    actions, pending = BINDING.on_input(state, pending, tap(0, "extra ID model"), "physical")
    with pytest.raises(Refusal) as err:
        RULES.apply(state, actions[0])
    assert err.value.code == "underpaid"
    assert pending.of(0) == [by_label("red 50").uid]
    with pytest.raises(Refusal) as again:
        BINDING.on_input(state, pending, tap(0, "red 50"), "physical")
    assert again.value.code == "already_tapped"


def to_scan(state: Any) -> Any:
    while RULES.phase(state) == "turns":
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, {"type": "flip", "seat": seat})
    while RULES.phase(state) == "round_end_specials":
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, {"type": "pass", "seat": seat})
    assert RULES.phase(state) == "scan"
    return state


HAND0 = ["ID police", "police badge", "red 100", "red 50", "blue 100"]
HAND1 = ["ID millionaire", "green 20", "green 50", "yellow 20", "jewel 50"]


def test_hands_are_tapped_per_seat_interleaved_and_confirmed_into_reveal_hand() -> None:
    state = to_scan(started())
    assert BINDING.chance_is_physical(state, "physical") and not BINDING.chance_is_physical(state, "digital")
    assert BINDING.choices(state, 0, "physical") == [{"type": "confirm_scan", "seat": 0},
                                                     {"type": "clear_scan", "seat": 0}]
    pending: Any = None
    for a, b in zip(HAND0, HAND1):
        _, pending = BINDING.on_input(state, pending, tap(0, a), "physical")
        _, pending = BINDING.on_input(state, pending, tap(1, b), "physical")
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state, pending, tap(1, "red 100"), "physical")
    assert err.value.code == "card_in_two_hands"
    actions, pending = BINDING.on_input(state, pending, Pressed(0, "ok"), "physical")
    assert actions == [{"type": "reveal_hand", "seat": CHANCE, "target": 0, "cards": [by_label(c).uid for c in HAND0]}]
    state = RULES.apply(state, actions[0])
    assert BINDING.choices(state, 0, "physical") == []
    with pytest.raises(Refusal) as err:
        BINDING.on_input(state, pending, Chosen(0, {"type": "confirm_scan"}), "physical")
    assert err.value.code == "already_scanned"
    actions, pending = BINDING.on_input(state, pending, Chosen(1, {"type": "confirm_scan"}), "physical")
    assert actions[0]["target"] == 1 and len(actions[0]["cards"]) == 5


def test_a_short_scan_is_refused_and_completed_a_cleared_scan_starts_over() -> None:
    state = to_scan(started())
    pending: Any = None
    for label in HAND0[:4]:
        _, pending = BINDING.on_input(state, pending, tap(0, label), "physical")
    actions, pending = BINDING.on_input(state, pending, Pressed(0, "ok"), "physical")
    with pytest.raises(Refusal) as err:
        RULES.apply(state, actions[0])
    assert err.value.code == "hand_size"
    _, pending = BINDING.on_input(state, pending, tap(0, HAND0[4]), "physical")
    actions, _ = BINDING.on_input(state, pending, Pressed(0, "ok"), "physical")
    assert len(actions[0]["cards"]) == 5
    _, cleared = BINDING.on_input(state, pending, Chosen(0, {"type": "clear_scan"}), "physical")
    assert cleared.of(0) == []


def test_the_scene_shows_turn_scans_verdicts_and_hourglasses_never_a_hand() -> None:
    state = started()
    scene = BINDING.scene(RULES.view(state), 2)
    assert scene["seat:0"].colour == GOLD and scene["seat:1"].colour == DIM
    assert scene["hourglass"].level == (6, 6) and scene["round"].level == (0, 3)
    state = RULES.apply(state, {"type": "flip", "seat": 0})
    assert BINDING.scene(RULES.view(state), 2)["hourglass"].level == (5, 6)
    state = to_scan(state)
    state = RULES.apply(state, {"type": "reveal_hand", "seat": CHANCE, "target": 0,
                                "cards": [by_label(c).uid for c in HAND0]})
    scene = BINDING.scene(RULES.view(state), 2)
    assert scene["seat:0"].colour == WHITE and scene["seat:1"].colour == BLUE
    assert BINDING.public_info(RULES.view(state), 2) == {}
    public = json.dumps(RULES.view(state)) + repr(scene)
    assert all(by_label(c).uid not in public for c in HAND0)
    state = RULES.apply(state, {"type": "reveal_hand", "seat": CHANCE, "target": 1,
                                "cards": [by_label(c).uid for c in HAND1]})
    assert RULES.phase(state) == "investigate"
    state = RULES.apply(state, {"type": "investigate", "seat": 0, "target": 1})
    view = RULES.view(state)
    scene = BINDING.scene(view, 2)
    assert scene["seat:0"].colour == GREEN and scene["seat:1"].colour == RED
    info = BINDING.info(view, 2)
    assert info["round"] == 1
    assert [v["verdict"] for v in info["verdicts"]] == ["innocent", "guilty"]
    assert info["verdicts"][1]["reasons"] == ["under_500"]
    assert info["investigations"] == [{"seat": 0, "target": 1, "guilty": True}]
    assert info["award_order"] == [0] and info["awards"] == []  # the guilty seat is not ranked
    state = RULES.apply(state, {"type": "return_chip", "seat": 1, "chip": 1})
    state = RULES.apply(state, {"type": "award", "seat": CHANCE, "target": 0, "chips": [2]})
    # the next round is being dealt: the round's results stay in the table info (and on no LED)
    assert RULES.phase(state) == "setup"
    view = RULES.view(state)
    after = BINDING.info(view, 2)
    assert after["verdicts"] == info["verdicts"] and after["awards"] == [{"seat": 0, "chips": 1}]
    state = RULES.apply(state, {"type": "setup", "seat": CHANCE, "coins": [5, 2]})
    view = RULES.view(state)
    assert BINDING.info(view, 2) == after
    scene = BINDING.scene(view, 2)
    assert scene["seat:1"].colour == GOLD and scene["seat:0"].colour == DIM


def test_expected_is_empty_seat_readers() -> None:
    assert BINDING.expected(started(3)) == {"seat:0": (), "seat:1": (), "seat:2": ()}
    assert set(BINDING.zones(3)) == {"seat:0", "seat:1", "seat:2", "center", "hourglass", "round"}


def test_pending_counts_taps() -> None:
    taps = Taps((1, "scan")).add(0, "A").add(1, "B")
    assert len(taps) == 2 and bool(taps) and taps.clear(0).of(1) == ["B"]


def test_coins_tapped_by_every_seat_deal_the_round() -> None:
    state = RULES.initial_state(2, BINDING.table_options({}, deck(), "physical"))
    assert BINDING.chance_is_physical(state, "physical") and not BINDING.chance_is_physical(state, "digital")
    actions, pending = BINDING.on_input(state, None, tap(1, "coin 2"), "physical")
    assert actions == []
    for event, code in ((tap(1, "coin 5"), "already_tapped"), (tap(0, "coin 2"), "bad_coins")):
        with pytest.raises(Refusal) as err:
            BINDING.on_input(state, pending, event, "physical")
        assert err.value.code == code
    actions, _ = BINDING.on_input(state, pending, tap(0, "coin 50"), "physical")
    assert actions == [{"type": "setup", "seat": CHANCE, "coins": [50, 2]}]
    with pytest.raises(Refusal) as err:
        BINDING.on_input(started(), None, tap(0, "coin 7"), "physical")
    assert err.value.code == "unexpected_card"
