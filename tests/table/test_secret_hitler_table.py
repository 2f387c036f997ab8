"""Secret Hitler at the table: the binding (pure), whole games driven only through mock hardware (journal,
LED frames, SSE), and secrecy of every public output over random playouts."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from companion.games import CHANCE, Refusal, get_rules
from companion.games.binding import BLUE, GREEN, OFF, RED, WHITE, Card, Chosen, Light, Placed, Pressed, get_binding
from companion.games.playout import choose_action
from companion.table.runtime import Runtime
from companion.table.session import from_record
from tests.table.helpers import host_call, hw, live_rows, tap
from tests.table.sh_driver import Driver, enroll_sh_cards, secret_keys, tile_uid

Make = Callable[..., Runtime]
SH = "secret_hitler"


def card(kind: str, value: str, uid: str = "04A1B2C3", game: str = SH) -> Card:
    return Card(uid, game, kind, value, f"{kind} {value}")


def dealt(seats: int, seed: int = 0) -> Any:
    rules = get_rules(SH)
    state = rules.initial_state(seats)
    return rules.apply(state, rules.sample_chance(state, random.Random(seed)))


def test_binding_zones_and_votes() -> None:
    binding = get_binding(SH)
    assert binding.zones(5) == ("seat:0", "seat:1", "seat:2", "seat:3", "seat:4", "board", "track:liberal",
                                "track:fascist", "track:election")
    state = dealt(5)
    assert binding.on_input(state, None, Pressed(2, "nein"), "digital") == (
        [{"type": "vote", "seat": 2, "vote": "nein"}], ())
    assert binding.on_input(state, None, Placed("seat:3", card("ballot", "ja")), "digital")[0] == [
        {"type": "vote", "seat": 3, "vote": "ja"}]
    assert binding.on_input(state, None, Chosen(1, {"type": "nominate", "seat": 4, "target": 2}), "digital")[0] == [
        {"type": "nominate", "seat": 1, "target": 2}]
    for event, code in [(Pressed(0, "maybe"), "unknown_key"),
                        (Placed("board", card("ballot", "ja")), "unexpected_card"),
                        (Placed("seat:0", card("policy", "L")), "unexpected_card"),
                        (Placed("seat:0", card("ballot", "ja", game="tiny")), "wrong_game")]:
        with pytest.raises(Refusal) as err:
            binding.on_input(state, None, event, "digital")
        assert err.value.code == code


def test_binding_collects_physical_draws_and_reads_the_enacted_tile() -> None:
    rules, binding = get_rules(SH), get_binding(SH)
    state = dealt(5)
    president = rules.view(state)["president"]
    chancellor = (president + 1) % 5
    state = rules.apply(state, {"type": "nominate", "seat": president, "target": chancellor})
    for seat in range(5):
        state = rules.apply(state, {"type": "vote", "seat": seat, "vote": "ja"})
    assert rules.to_act(state) == frozenset({CHANCE})
    assert binding.chance_is_physical(state, "physical") and not binding.chance_is_physical(state, "digital")
    zone = f"seat:{president}"
    actions, pending = binding.on_input(state, None, Placed(zone, card("policy", "F", "71000001")), "physical")
    assert actions == [] and len(pending) == 1
    with pytest.raises(Refusal) as err:
        binding.on_input(state, pending, Placed(zone, card("policy", "F", "71000001")), "physical")
    assert err.value.code == "already_tapped"
    actions, pending = binding.on_input(state, pending, Placed(zone, card("policy", "L", "71000002")), "physical")
    actions, pending = binding.on_input(state, pending, Placed(zone, card("policy", "F", "71000003")), "physical")
    assert actions == [{"type": "draw", "seat": -1, "policies": ["F", "L", "F"]}] and pending == ()
    state = rules.apply(state, actions[0])
    discard = rules.legal_actions(state, president)[0]
    state = rules.apply(state, discard)
    actions, _ = binding.on_input(state, (), Placed("board", card("policy", "F", "71000009")), "physical")
    assert actions == [{"type": "enact", "seat": chancellor, "policy": "F"}]


def test_scene_shows_public_facts_only() -> None:
    binding = get_binding(SH)
    view = {"president": 0, "chancellor": 1, "alive": [True, True, True, False, True],
            "voted": [True, False, True, False, False], "votes": [None] * 5, "liberal_policies": 2,
            "fascist_policies": 4, "election_tracker": 1, "veto_unlocked": False}
    scene = binding.scene(view, 5)
    assert scene["seat:0"] == scene["seat:2"] == Light(WHITE)  # voted: not how
    assert scene["seat:1"] == Light(BLUE) and scene["seat:3"] == Light(OFF, "off")
    assert scene["track:liberal"].level == (2, 5) and scene["track:fascist"].level == (4, 6)
    revealed = binding.scene({**view, "votes": ["ja", "nein", "ja", None, "nein"]}, 5)
    assert [revealed[f"seat:{i}"].colour for i in (0, 1, 2, 4)] == [GREEN, RED, GREEN, RED]


@pytest.mark.parametrize("seats", [5, 7, 10])
def test_led_scene_never_shows_a_secret_over_random_playouts(seats: int) -> None:
    """Over random games: the scene never separates ja from nein before the reveal, and no public payload
    carries a role, a hand, a peek or an investigation result while the game runs."""
    rules, binding = get_rules(SH), get_binding(SH)
    separated_checks = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = rules.initial_state(seats)
        cast: dict[int, str] = {}
        while rules.to_act(state):
            action = choose_action(rules, state, rng)
            state = rules.apply(state, action)
            if action["type"] == "nominate":
                cast = {}
            if action["type"] == "vote":
                cast[action["seat"]] = action["vote"]
            view = rules.view(state, None)
            scene = binding.scene(view, seats)
            if rules.outcome(state) is None:
                assert not secret_keys(view), secret_keys(view)
                assert "roles" not in json.dumps(view)
            if view["phase"] == "vote" and all(v is None for v in view["votes"]) and len(set(cast.values())) == 2:
                lights = {vote: {scene[f"seat:{s}"] for s, v in cast.items() if v == vote} for vote in ("ja", "nein")}
                assert lights["ja"] == lights["nein"] and len(lights["ja"]) == 1
                separated_checks += 1
    assert separated_checks > 20  # the property was really exercised


@pytest.mark.parametrize("mode, seats, seed", [("digital", 5, 1), ("physical", 7, 2)])
def test_a_whole_game_through_mock_hardware(make_table: Make, mode: str, seats: int, seed: int) -> None:
    rt = make_table(game=SH, seats=seats, mode=mode)
    enroll_sh_cards(rt, seats)
    for seat in range(seats):
        hw(rt).mock_terminals.connect(f"T{seat}")
    rt.loop.wait_idle()
    sub = rt.handle.subscribe(None)
    driver = Driver(rt, random.Random(seed))
    steps = 0
    while rt.loop.session.rules.outcome(rt.loop.session.state) is None:  # type: ignore[union-attr]
        driver.step()
        steps += 1
        assert steps < 600, "the game did not end"
    session = rt.loop.session
    assert session is not None and rt.loop.status == "over"

    # journal: every action came from hardware or chance, and the journal replays to the same state
    rows = live_rows(rt)
    assert [r["action"] for r in rows] == list(session.actions)
    sources = {r["source"].split(":")[0] for r in rows}
    assert sources <= {"chance", "reader", "button", "terminal"} and {"button", "terminal"} <= sources
    record = rt.journal.game(session.game_id)
    assert record is not None and record.ended is not None
    assert from_record(record).state == session.state
    outcome = session.rules.outcome(session.state)
    history = host_call(rt.loop, "host_state")["history"][0]
    assert history["end_reason"] == "finished"
    assert history["outcome"] == {"winners": sorted(outcome.winners), "reason": outcome.reason}
    if mode == "physical":
        assert driver.inputs.get("draw_tile", 0) >= 3
        draws = [r for r in rows if r["action"]["type"] == "draw"]
        assert draws and all(r["source"].startswith("reader:") for r in draws)  # tiles, not sampled
        assert [r["source"] for r in rows if r["action"]["type"] == "deal"] == ["chance"]  # roles stay digital
    assert driver.hidden_vote_checks > 0

    # LEDs: the final frame shows the public tracks
    assert rt.renderer.wait_rendered()
    frame = hw(rt).mock_strip.last()
    assert frame is not None
    view = session.rules.view(session.state, None)
    zones = {z.zone: z for z in rt.config.leds.zones}

    def lit(zone: str, colour: tuple[int, int, int]) -> int:
        z = zones[zone]
        return sum(1 for p in frame[z.start:z.start + z.count] if p == colour)

    assert lit("track:liberal", BLUE) == view["liberal_policies"]
    assert lit("track:fascist", RED) == view["fascist_policies"]

    # SSE: numbered state events that follow the journal, no secret in any payload before the end
    events = []
    while (event := sub.get(0.01)) is not None:
        events.append(event)
    states = [e for e in events if e.type == "state"]
    numbers = [int(e.id.split("-")[1]) for e in events]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert states[-1].data["game"]["actions"] == len(rows)
    assert states[-1].data["game"]["outcome"]["reason"] == outcome.reason
    for e in events:
        if e.type != "state" or e.data["game"]["outcome"] is None:
            assert not secret_keys(e.data), (e.type, secret_keys(e.data))


@pytest.mark.parametrize("seats", [5, 8, 10])
def test_sse_payloads_never_carry_a_secret_over_random_table_games(make_table: Make, seats: int) -> None:
    """Random games played through the table: every SSE payload before the end is free of roles, hands,
    peeks and investigation results, and shows no vote while the vote is open."""
    rt = make_table(game=SH, seats=seats)
    rng = random.Random(seats)
    sub = rt.handle.subscribe(None)
    for _ in range(2):
        host_call(rt.loop, "new_game", game=SH, seats=seats, replace=True)
        while True:
            session = rt.loop.session
            assert session is not None
            if session.rules.outcome(session.state) is not None:
                break
            action = choose_action(session.rules, session.state, rng)
            assert isinstance(host_call(rt.loop, "submit", seat=action["seat"], action=action, source="test"), dict)
    checked = 0
    while (event := sub.get(0.01)) is not None:
        game = event.data.get("game") if event.type == "state" else None
        if game and game["outcome"] is not None:
            continue
        assert not secret_keys(event.data), (event.type, secret_keys(event.data))
        if game and game["view"]["phase"] == "vote":
            assert all(v is None for v in game["view"]["votes"])
            checked += 1
    assert checked > 10


def test_center_stands_in_for_a_missing_board_reader(make_table: Make) -> None:
    full = make_table(game=SH, seats=5)
    assert full.loop.zone_of("board") == "board" and full.loop.zone_of("center") == "center"
    full.stop()
    rt = make_table(game=SH, seats=5, mode="physical", without_readers=("board",))
    assert rt.loop.zone_of("center") == "board" and rt.loop.zone_of("r2") == "seat:2"
    enroll_sh_cards(rt, 5)
    view = rt.loop.session.rules.view(rt.loop.session.state)  # type: ignore[union-attr]
    president, chancellor = view["president"], (view["president"] + 1) % 5
    host_call(rt.loop, "submit", seat=president, action={"type": "nominate", "target": chancellor}, source="test")
    for seat in range(5):
        hw(rt).press(seat, "ja")
    rt.loop.wait_idle()
    for i, value in enumerate(("F", "F", "L")):  # the president taps the three drawn tiles
        tap(rt, f"r{president}", tile_uid(value, i))
    legal = rt.loop.session.rules.legal_actions(rt.loop.session.state, president)  # type: ignore[union-attr]
    host_call(rt.loop, "submit", seat=president, action=next(a for a in legal if a["policy"] == "F"), source="test")
    tap(rt, "center", tile_uid("L", 0))  # the enacted tile, laid on the centre reader
    assert live_rows(rt)[-1]["action"] == {"type": "enact", "seat": chancellor, "policy": "L"}
    assert live_rows(rt)[-1]["source"] == "reader:center"
