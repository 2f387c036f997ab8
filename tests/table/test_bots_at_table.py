"""Bots at the table: seated before the start or handed a seat mid-game and back, playing through the same path
as a phone after a pause, journaled with their seed and reason so a replay re-decides them; refusals with a
code that change nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.bots import Seated, get_bot
from companion.config import BotsConfig
from companion.games import get_rules
from companion.table.core.bots import parse_source
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import host_call, live_rows, settle, zone_pixels

SH = "secret_hitler"
QUICK = BotsConfig(0, 0)


@pytest.fixture()
def table(bot_table: Any) -> Any:
    return bot_table


def to_act(rt: Runtime) -> list[int]:
    return list(rt.handle.public_state()["game"]["to_act"])


def play_humans(rt: Runtime, humans: set[int], rng: random.Random, until: Callable[[], bool]) -> None:
    """Humans answer their prompts at random (through the seat API) until `until` holds or the game ends."""
    session = rt.loop.session
    assert session is not None
    for _ in range(2000):
        settle(rt, lambda: rt.loop.status == "over" or any(s in humans for s in to_act(rt)) or until())
        if rt.loop.status == "over" or until():
            return
        seat = min(s for s in to_act(rt) if s in humans)
        legal = session.rules.legal_actions(rt.loop.session.state, seat)  # type: ignore[union-attr]
        answer = rt.handle.submit(seat, rng.choice(legal), f"seat_page:{seat}")
        assert isinstance(answer, dict), answer
    raise AssertionError("the game did not end")


def bot_rows(rt: Runtime) -> list[dict[str, Any]]:
    return [r for r in live_rows(rt) if r["source"].startswith("bot:")]


def test_four_people_and_a_bot(table: Any) -> None:
    """A 5-seat game with a bot in seat 4: it plays its turns by itself, its actions are journaled with their
    seed and reason, and the page is told which seat is a bot."""
    rt = table(seats=5)
    started = host_call(rt.loop, "new_game", game=SH, seats=5, replace=True, bots=[4])
    assert isinstance(started, dict)
    assert rt.handle.public_state()["game"]["bots"] == [4]
    assert rt.handle.seat_state(4)["bot"] is True and rt.handle.seat_state(4)["prompt"] is None
    assert rt.handle.seat_state(3)["bot"] is False
    sub = rt.handle.subscribe(None)
    play_humans(rt, {0, 1, 2, 3}, random.Random(3), lambda: False)
    published = []
    while (event := sub.get(0.2)) is not None:
        published.append(json.dumps(event.data))
    sub.close()
    rows = bot_rows(rt)
    # a bot's reasons tell its role: they stay in the journal (the replay shows them), never in a public event
    reasons = {parse_source(r["source"])["reason"] for r in rows}  # type: ignore[index]
    assert published and not any(f'"{reason}"' in text or "bot:" in text for text in published for reason in reasons)
    assert rows and all(r["action"]["seat"] == 4 for r in rows)
    bot = get_bot(SH)
    for row in rows:
        source = parse_source(row["source"])
        assert source is not None and isinstance(source["seed"], int)
        assert source["reason"] in bot.reasons and set(source["params"]) == set(bot.reasons[source["reason"]])
    outcome = rt.handle.public_state()["game"]["outcome"]
    assert outcome is not None


def test_a_replay_decides_every_bot_action_again_from_the_journal(table: Any) -> None:
    rt = table(seats=5)
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True, bots=[0, 1, 2, 3, 4])
    settle(rt, lambda: rt.loop.status == "over", timeout=30)
    session = rt.loop.session
    assert session is not None
    rows = live_rows(rt)
    actions = [r["action"] for r in rows]
    rules, bot = get_rules(SH), get_bot(SH)
    state = rules.initial_state(5)
    redecided = 0
    for index, row in enumerate(rows):
        source = parse_source(row["source"])
        if source is not None:
            seat = row["action"]["seat"]
            seated = Seated.sit(bot, seat).rebuild(rules, 5, {}, actions[:index])
            decision, _ = seated.decide(rules, state, source["seed"])
            assert dict(decision.action) == row["action"]
            assert (decision.reason, dict(decision.params)) == (source["reason"], source["params"])
            redecided += 1
        state = rules.apply(state, row["action"])
    assert redecided > 20 and rules.outcome(state) is not None
    record = rt.handle.host_command("export_record", {"game": session.game_id})
    assert isinstance(record, dict) and len(record["bot_moves"]) == redecided
    assert record["bot_moves"][0]["reason"] in bot.reasons


def test_a_seat_handed_to_a_bot_mid_game_and_back(table: Any) -> None:
    rt = table(seats=5)
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True)
    rng = random.Random(5)
    # play until seat 2 has voted once as a person, then it leaves
    play_humans(rt, set(range(5)), rng, lambda: any(r["action"].get("seat") == 2 for r in live_rows(rt)[1:]))
    assert isinstance(host_call(rt.loop, "seat_player", seat=2, player="bot"), dict)
    assert rt.handle.public_state()["game"]["bots"] == [2]
    # its phone is refused while the bot plays, and nothing changes
    before = len(live_rows(rt))
    refused = rt.handle.submit(2, {"type": "vote", "seat": 2, "vote": "ja"}, "seat_page:2")
    assert isinstance(refused, Refusal) and refused.code == "seat_is_bot"
    assert len(live_rows(rt)) == before
    play_humans(rt, {0, 1, 3, 4}, rng, lambda: len(bot_rows(rt)) >= 3)
    assert {r["action"]["seat"] for r in bot_rows(rt)} == {2}
    back = host_call(rt.loop, "seat_player", seat=2, player="human")
    assert back == {"bots": []} and rt.handle.public_state()["game"]["bots"] == []
    before_bot = len(bot_rows(rt))
    play_humans(rt, set(range(5)), rng, lambda: False)
    assert len(bot_rows(rt)) == before_bot  # the person plays it again
    assert rt.journal.seat_players(rt.loop.session.game_id) == {2: "human"}  # type: ignore[union-attr]


def test_a_seat_is_not_handed_back_while_its_bot_decides(table: Any) -> None:
    rt = table(seats=5, bots=BotsConfig(1500, 1500))
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True, bots=[0, 1, 2, 3, 4])
    rt.loop.wait_idle()
    acting = to_act(rt)[0]
    rows = len(live_rows(rt))
    refused = host_call(rt.loop, "seat_player", seat=acting, player="human")
    assert isinstance(refused, Refusal) and refused.code == "bot_deciding"
    assert rt.handle.public_state()["game"]["bots"] == [0, 1, 2, 3, 4] and len(live_rows(rt)) == rows
    settle(rt, lambda: len(live_rows(rt)) > rows)
    assert acting not in to_act(rt) or len(live_rows(rt)) > rows


@pytest.mark.parametrize(("command", "args", "code"), [
    ("new_game", {"game": SH, "seats": 5, "replace": True, "components": "physical", "bots": [1]},
     "bot_physical_game"),
    ("new_game", {"game": SH, "seats": 5, "replace": True, "bots": [5]}, "bad_seat"),
    ("new_game", {"game": SH, "seats": 5, "replace": True, "bots": "all"}, "bad_seat"),
    ("seat_player", {"seat": 1, "player": "genius"}, "unknown_bot"),
    ("seat_player", {"seat": 9, "player": "bot"}, "bad_seat"),
    ("seat_player", {"seat": 1, "player": "human"}, "not_a_bot"),
])
def test_bad_requests_are_refused_with_a_code_and_change_nothing(table: Any, command: str, args: dict[str, Any],
                                                                  code: str) -> None:
    rt = table(seats=7)
    game = rt.loop.session
    rows = len(live_rows(rt))
    refused = host_call(rt.loop, command, **args)
    assert isinstance(refused, Refusal) and refused.code == code, refused
    assert rt.loop.session is game and len(live_rows(rt)) == rows
    assert rt.handle.public_state()["game"]["bots"] == []


def test_a_physical_game_refuses_a_bot_naming_the_components(table: Any) -> None:
    rt = table(seats=5, mode="physical")
    refused = host_call(rt.loop, "seat_player", seat=1, player="bot")
    assert isinstance(refused, Refusal) and refused.code == "bot_physical_game"
    named = refused.params["missing"]
    assert "ballot" in named["en"].lower() and "policy" in named["en"].lower()
    assert named["ko"] and named["ko"] != named["en"]
    assert rt.handle.public_state()["game"]["bots"] == []


def test_a_restarted_table_keeps_its_bots_and_their_memory(table: Any, tmp_path: Path) -> None:
    data = tmp_path / "kept"
    rt = table(seats=7, data=data, bots=BotsConfig(0, 0))
    host_call(rt.loop, "new_game", game=SH, seats=7, replace=True, bots=[1, 3])
    play_humans(rt, {0, 2, 4, 5, 6}, random.Random(9), lambda: len(bot_rows(rt)) >= 6)
    settle(rt, lambda: not rt.loop.state.bots.deciding)  # the bots have played: people are to act
    memories = {s: b.memory for s, b in rt.loop.state.bots.seats.items()}
    rt.stop()
    again = table(seats=7, data=data, bots=BotsConfig(0, 0))
    assert again.loop.status == "resume_check"
    assert again.handle.public_state()["game"]["bots"] == [1, 3]
    assert {s: b.memory for s, b in again.loop.state.bots.seats.items()} == memories
    assert isinstance(host_call(again.loop, "resume"), dict)
    play_humans(again, {0, 2, 4, 5, 6}, random.Random(10), lambda: False)
    assert again.loop.status == "over"


def test_a_bot_vote_lights_its_seat_as_anyone_s(table: Any) -> None:
    """The LEDs and the public view treat a bot's hidden vote like a person's: voted, value hidden."""
    rt = table(seats=5, bots=BotsConfig(0, 0))
    host_call(rt.loop, "new_game", game=SH, seats=5, replace=True, bots=[3])

    def voting(seat: int) -> bool:
        view = rt.handle.public_state()["game"]["view"]
        return view["phase"] == "vote" and view["voted"][seat]
    play_humans(rt, {0, 1, 2, 4}, random.Random(2), lambda: voting(3))
    if not voting(0):
        assert isinstance(rt.handle.submit(0, {"type": "vote", "seat": 0, "vote": "nein"}, "seat_page:0"), dict)
    settle(rt, lambda: voting(0) and voting(3))
    view = rt.handle.public_state()["game"]["view"]
    assert view["votes"] == [None] * 5  # nobody's vote shows before the last one
    assert zone_pixels(rt, "seat:3") == zone_pixels(rt, "seat:0")  # the bot's seat lights as a person's


@pytest.mark.parametrize(("toml", "where"), [
    ("[bots]\npause_min_ms = 5000\npause_max_ms = 1000\n", "bots"),
    ("[bots]\npause_min_ms = -1\n", "bots"),
    ("[bots]\npause_max_ms = 600000\n", "bots"),
    ("[bots]\npause_ms = 100\n", "bots.pause_ms"),
    ("[bots]\npause_min_ms = \"fast\"\n", "bots.pause_min_ms"),
])
def test_a_bad_bot_pause_is_a_config_error(toml: str, where: str) -> None:
    from companion.config import ConfigError, loads_config
    with pytest.raises(ConfigError) as caught:
        loads_config(toml)
    assert caught.value.where == where and caught.value.code.startswith("config_")
    assert loads_config("[bots]\npause_min_ms = 0\npause_max_ms = 0\n").bots == BotsConfig(0, 0)
