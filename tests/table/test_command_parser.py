"""The one generic parser of host commands: each command is read from the web's JSON through its dataclass (its
fields' checks and type hints), bad input of every kind gets its stable code, and a refused command changes
nothing at the table."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from companion.config import GameConfig, PollingConfig, demo_config
from companion.table.card_values import DECK_FORMAT, DECK_VERSION
from companion.table.core import commands as c
from companion.table.core.command_fields import read
from companion.table.core.guide import GuideMode
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime

UID = "04:a1:b2:c3"

BAD = [
    ("dance", {}, "unknown_command"),
    ("undo", ["not", "an", "object"], "bad_field"),
    ("submit", {"seat": 0, "action": "vote"}, "malformed"),
    ("submit", {"seat": "0", "action": {}}, "malformed"),
    ("submit", {"seat": 0, "action": {}, "version": 3}, "malformed"),
    ("new_game", {"game": 3}, "bad_setup"),
    ("new_game", {"seats": "3"}, "bad_setup"),
    ("new_game", {"options": "fast"}, "bad_setup"),
    ("new_game", {"components": "cardboard"}, "bad_setup"),
    ("new_game", {"replace": "yes"}, "bad_field"),
    ("new_game", {"bots": [1, 1]}, "bad_seat"),
    ("new_game", {"bots": "all"}, "bad_seat"),
    ("enroll_mode", {}, "bad_field"),
    ("enroll_mode", {"on": 1}, "bad_field"),
    ("enroll", {"uid": "zz", "kind": "ballot", "value": "ja"}, "bad_uid"),
    ("enroll", {"uid": UID, "kind": "ballot", "value": "ja", "game": 3}, "bad_card"),
    ("forget_card", {"uid": 5}, "bad_uid"),
    ("export_cards", {"game": 3}, "bad_field"),
    ("import_cards", {"deck": {"format": "nope"}}, "bad_deck"),
    ("import_cards", {}, "bad_deck"),
    ("export_record", {"game": 0}, "bad_game_id"),
    ("export_record", {"game": "1"}, "bad_game_id"),
    ("share_game", {}, "bad_game_id"),
    ("share_game", {"game": 1, "revoke": "y"}, "bad_field"),
    ("shared_game", {"token": ""}, "bad_share"),
    ("shared_game", {"token": "x" * 65}, "bad_share"),
    ("guide_start", {"game": "secret_hitler", "seats": 5, "mode": "scan"}, "bad_field"),
    ("guide_mode", {}, "bad_field"),
    ("seat_player", {"seat": "1", "player": "bot"}, "bad_seat"),
    ("seat_player", {"seat": 1, "player": "robot"}, "unknown_bot"),
    ("set_timer", {"phase": "", "seconds": 30}, "unknown_phase"),
    ("set_timer", {"phase": "vote"}, "bad_timer"),
    ("set_timer", {"phase": "vote", "seconds": 0}, "bad_timer"),
    ("set_timer", {"phase": "vote", "seconds": True}, "bad_timer"),
    ("set_timer", {"phase": "vote", "seconds": 30, "game": 3}, "bad_setup"),
    ("pause_timers", {"on": "x"}, "bad_field"),
    ("timer_choice", {"choice": "nap"}, "bad_choice"),
    ("timer_choice", {"choice": "extend", "seconds": 0}, "bad_timer"),
    ("bind_terminal", {"terminal": "", "seat": 0}, "bad_terminal"),
    ("bind_terminal", {"terminal": "PX", "seat": "0"}, "bad_seat"),
]


@pytest.mark.parametrize("name, args, code", BAD)
def test_bad_input_of_each_kind_gets_its_stable_code(name: str, args: Any, code: str) -> None:
    refusal = c.parse_command(name, args)
    assert isinstance(refusal, Refusal) and refusal.code == code and refusal.message, refusal


GOOD = [
    ("_ping", {}, c.Ping()),
    ("submit", {"seat": 2, "action": {"type": "vote"}}, c.Submit(2, {"type": "vote"})),
    ("submit", {"seat": None, "action": {}, "source": "host", "version": "3.4"}, c.Submit(None, {}, "host", "3.4")),
    ("new_game", {}, c.NewGame()),
    ("new_game", {"options": None, "bots": [3, 1], "replace": True}, c.NewGame(bots=(1, 3), replace=True)),
    ("undo", {}, c.Undo()),
    ("redo", {}, c.Redo()),
    ("end_game", {}, c.EndGame()),
    ("resume", {}, c.Resume()),
    ("enroll_mode", {"on": False}, c.EnrollMode(False)),
    ("enroll", {"uid": UID, "kind": "ballot", "value": "ja"}, c.Enroll("04A1B2C3", "ballot", "ja")),
    ("forget_card", {"uid": UID}, c.ForgetCard("04A1B2C3")),
    ("export_cards", {}, c.ExportCards()),
    ("import_cards", {"deck": {"format": DECK_FORMAT, "version": DECK_VERSION, "cards": []}}, c.ImportCards(())),
    ("export_record", {}, c.ExportRecord()),
    ("export_record", {"game": None}, c.ExportRecord()),
    ("list_games", {}, c.ListGames()),
    ("share_game", {"game": 4}, c.ShareGame(4)),
    ("shared_game", {"token": "abc"}, c.SharedGame("abc")),
    ("host_state", {}, c.HostState()),
    ("guide_start", {"game": "secret_hitler", "seats": 5}, c.GuideStart("secret_hitler", 5, GuideMode.ENROLL)),
    ("guide_mode", {"mode": "verify"}, c.GuideSetMode(GuideMode.VERIFY)),
    ("guide_skip", {}, c.GuideSkip()),
    ("guide_undo", {}, c.GuideUndo()),
    ("guide_stop", {}, c.GuideStop()),
    ("dismiss_announcement", {}, c.DismissAnnouncement()),
    ("seat_player", {"seat": 1, "player": "bot"}, c.SeatPlayer(1, "bot")),
    ("set_timer", {"phase": "vote", "seconds": None}, c.SetTimer("vote", None)),
    ("pause_timers", {"on": True}, c.PauseTimers(True)),
    ("timer_choice", {"choice": "wait", "seconds": 0}, c.TimerChoice("wait")),
    ("timer_choice", {"choice": "extend", "seconds": 60}, c.TimerChoice("extend", 60)),
    ("bind_terminal", {"terminal": "PX", "seat": None}, c.BindTerminal("PX", None)),
]


@pytest.mark.parametrize("name, args, command", GOOD)
def test_good_input_builds_the_typed_command(name: str, args: dict[str, Any], command: c.Command) -> None:
    assert c.parse_command(name, args) == command


def test_every_named_command_is_parsed_and_only_announce_is_not_a_host_command() -> None:
    assert set(c.SPECS) == {name for name, _, _ in GOOD}
    assert {spec.type for spec in c.SPECS.values()} | {c.Announce} == set(c.get_args(c.Command))


def test_a_new_command_is_one_dataclass_read_from_its_fields_and_hints() -> None:
    @dataclass(frozen=True)
    class Nudge:
        command: ClassVar[str] = "nudge"
        loud: bool
        note: str | None = None
        seat: int = read(lambda value, args: int(value) if isinstance(value, int) else 0, default=0)

    spec = c.spec_of(Nudge)
    assert [(name, key, has_default) for name, key, _, has_default in spec.reads] == [
        ("loud", "loud", False), ("note", "note", True), ("seat", "seat", True)]

    @dataclass(frozen=True)
    class Unreadable:
        command: ClassVar[str] = "unreadable"
        seats: list[int]

    with pytest.raises(TypeError, match="Unreadable.seats"):
        c.spec_of(Unreadable)


def test_a_refused_command_changes_nothing_at_the_table(tmp_path: Path) -> None:
    cfg = replace(demo_config(), data_dir=str(tmp_path), game=GameConfig("secret_hitler", 5, "digital"),
                  polling=PollingConfig(interval_ms=5, removal_ms=25))
    rt = Runtime(cfg, rng=random.Random(3)).start()
    try:
        rt.loop.wait_idle()
        before, state = _without_health(rt.handle.public_state()), rt.loop.state
        for name, args, code in BAD:
            refusal = rt.handle.host_command(name, args)
            assert isinstance(refusal, Refusal) and refusal.code == code, (name, args, refusal)
        rt.loop.wait_idle()
        assert _without_health(rt.handle.public_state()) == before and rt.loop.state is state
    finally:
        rt.stop()


def _without_health(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The public snapshot but the hardware's health (its readers' poll counts move on their own)."""
    return {k: v for k, v in snapshot.items() if k != "health"}


def test_the_host_page_posts_the_commands_their_dataclasses_mark_and_a_seats_submit_is_read_by_its_class() -> None:
    assert c.posted_commands() == (
        "new_game", "undo", "redo", "end_game", "resume", "enroll_mode", "enroll", "forget_card", "import_cards", "guide_start",
        "guide_mode", "guide_skip", "guide_undo", "guide_stop", "dismiss_announcement", "seat_player", "set_timer",
        "pause_timers", "timer_choice")
    assert c.parse_as(c.Submit, {"seat": 1, "action": {"type": "vote"}}) == c.Submit(1, {"type": "vote"})
    assert c.parse_as(c.Submit, {"seat": 1, "action": None}) == Refusal("malformed", "an action is a JSON object")
