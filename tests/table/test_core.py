"""The table core without threads: `step(state, input, context)` returns the new state, the journal rows and the
effects; nothing is written or shown by the core itself."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from companion.config import GameConfig, demo_config
from companion.games.binding import Card
from companion.hal.events import (ButtonPressed, ReaderFault, TagPlaced, TerminalChoice, TerminalGone,
                                  TerminalHello)
from companion.table.core.commands import (BindTerminal, EndGame, Enroll, EnrollMode, NewGame, Resume, Submit,
                                           Undo, parse_command)
from companion.table.core.effects import (AppendActions, BindTerminals, EndGameRow, Flash, Publish, PublishHost,
                                          PublishState, SendTerminal, SetScene, StartGame, UndoActions, WriteCards)
from companion.table.core.inputs import Boot, BootFailed
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.step import Step, journal_fault, step
from companion.table.journal import GameRecord
from companion.table.refusal import Refusal
from companion.table.session import Components
from companion.table.terminals import TerminalBook

pytestmark = pytest.mark.usefixtures("tiny_game")

BALLOT = Card("04A1B2C3", "tiny", "ballot", "ja", "ja 1")


@dataclass
class Cards:
    """The registry as the core reads it."""

    cards: dict[str, Card] = field(default_factory=lambda: {BALLOT.uid: BALLOT})

    def get(self, uid: str) -> Card | None:
        return self.cards.get(uid)

    def all(self) -> list[Card]:
        return list(self.cards.values())


@dataclass
class Journal:
    """The journal as the core reads it."""

    games: dict[int, GameRecord] = field(default_factory=dict)
    next_id: int = 1

    def game(self, game_id: int) -> GameRecord | None:
        return self.games.get(game_id)

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        return [{"id": g, "outcome": None} for g in sorted(self.games, reverse=True)][:limit]

    def next_game_id(self) -> int:
        return self.next_id

    def seat_players(self, game_id: int) -> dict[int, str]:
        return {}


def context(present: dict[str, str | None] | None = None, seed: int = 1) -> Context:
    cfg = replace(demo_config(), game=GameConfig("tiny", 3, "digital"))
    return Context(cfg, Cards(), Journal(), lambda: dict(present or {}), random.Random(seed), now=100.0,
                   boot="b00t", reader_zones=cfg.reader_zones())


def fresh() -> TableState:
    cfg = demo_config()
    return TableState(TerminalBook.start(cfg.terminal_seats(), {}, len(cfg.seats)))


def running(ctx: Context | None = None) -> tuple[TableState, Context]:
    ctx = ctx or context()
    done = step(fresh(), Boot(None), ctx)
    assert done.state.status == TableStatus.RUNNING
    return done.state, ctx


def test_boot_without_a_game_starts_the_configured_one_with_the_id_the_core_chose() -> None:
    ctx = context()
    done = step(fresh(), Boot(None), ctx)
    (row,) = done.rows
    assert isinstance(row, StartGame) and row.game_id == 1 and row.game == "tiny" and row.seats == 3
    assert [a["type"] for a, _ in row.actions] == ["deal"] and row.components == "digital"
    assert done.state.session is not None and done.state.session.game_id == 1
    assert done.reply == {"accepted": 1, "pending": False, "game_id": 1}
    kinds = [type(e) for e in done.effects]
    assert kinds[:2] == [SetScene, PublishState], "the scene and the snapshot, then the prompts"
    snapshot = next(e.snapshot for e in done.effects if isinstance(e, PublishState))
    assert snapshot["game"]["components"] == "digital" and "mode" not in snapshot["game"]
    assert snapshot["table"] == {"status": "running", "enrolling": False, "boot": "b00t", "mismatched_zones": []}
    prompted = {e.terminal for e in done.effects if isinstance(e, SendTerminal)}
    assert prompted == {f"T{i}" for i in range(10)}, "every bound terminal hears its seat's prompt (or idle)"


def test_the_core_is_deterministic_given_its_context() -> None:
    first, second = step(fresh(), Boot(None), context(seed=4)), step(fresh(), Boot(None), context(seed=4))
    assert first.rows[0].actions == second.rows[0].actions  # type: ignore[union-attr]
    assert first.state.session.state == second.state.session.state  # type: ignore[union-attr]


def test_a_tag_in_becomes_one_row_then_its_effects() -> None:
    state, ctx = running()
    done = step(state, TagPlaced("r0", BALLOT.uid), ctx)
    assert done.rows == (AppendActions(1, (({"type": "vote", "seat": 0, "vote": "ja"}, "reader:r0"),), None),)
    assert done.reply == {"accepted": 1, "pending": False}
    assert done.state.session.actions[-1] == {"type": "vote", "seat": 0, "vote": "ja"}  # type: ignore[union-attr]
    assert state.session.actions != done.state.session.actions, "the old state is untouched"  # type: ignore[union-attr]
    assert done.state.counters.inputs == 1 and done.state.counters.accepted == state.counters.accepted + 1
    assert any(isinstance(e, SetScene) for e in done.effects) and done.fault_zone == "seat:0"


def test_two_cards_on_one_reader_are_refused_in_words_on_its_zone_and_change_nothing() -> None:
    import json
    from pathlib import Path

    from companion.hal.events import TagsCrowded

    state, ctx = running()
    done = step(state, TagsCrowded("r1"), ctx)
    assert done.rows == () and done.state.session is state.session
    # two cards on a reader are seen on the table: everyone may read the code; the host hears the seat too
    assert done.effects == (Flash("seat:1"), Publish(
        "rejected", {"zone": "seat:1", "code": "two_tags_on_reader"},
        {"zone": "seat:1", "code": "two_tags_on_reader", "seat": 1,
         "message": "two cards on one reader: take one away"}))
    assert isinstance(done.reply, Refusal) and done.reply.code == "two_tags_on_reader"
    web = Path(__file__).resolve().parents[2] / "web" / "i18n"
    for lang in ("en", "ko"):
        words = json.loads((web / f"{lang}.json").read_text(encoding="utf-8"))["codes"]["two_tags_on_reader"]
        assert words and "{" not in words and "_" not in words


def test_an_unknown_tag_flashes_its_zone_and_writes_nothing() -> None:
    state, ctx = running()
    done = step(state, TagPlaced("r1", "DEADBEEF"), ctx)
    assert done.rows == () and done.state.session is state.session
    # everyone hears which zone; the UID goes to the host's stream alone
    assert done.effects == (Flash("seat:1"), Publish("unknown_tag", {"zone": "seat:1"},
                                                     {"zone": "seat:1", "uid": "DEADBEEF"}))
    assert done.state.counters.unknown_tags == 1


def test_a_refused_command_writes_nothing_and_leaves_the_state() -> None:
    state, ctx = running()
    done = step(state, Submit(0, {"type": "pick", "tile": "L"}), ctx)
    assert isinstance(done.reply, Refusal) and done.reply.code == "wrong_phase"
    assert done.rows == () and done.state.session.state is state.session.state  # type: ignore[union-attr]
    assert done.state.session.actions == state.session.actions  # type: ignore[union-attr]
    assert Flash("seat:0") in done.effects
    resume = step(state, Resume(), ctx)
    assert resume.reply == Refusal("not_paused", "The table is not waiting to resume.")
    assert resume.state is state and resume.rows == () and resume.effects == ()


def test_a_failed_commit_keeps_the_old_state_and_shows_only_the_refusal() -> None:
    state, ctx = running()
    done = step(state, TagPlaced("r0", BALLOT.uid), ctx)
    failed = journal_fault(state, done, "journal_locked", "The journal could not be written: locked")
    assert failed.state.session is state.session and failed.rows == ()
    assert failed.reply == Refusal("journal_locked", "The journal could not be written: locked")
    assert failed.effects == (Flash("seat:0"), Publish("rejected", {"zone": "seat:0"}, {
        "zone": "seat:0", "code": "journal_locked", "seat": 0, "message": "The journal could not be written: locked"}))
    assert failed.state.counters.errors == state.counters.errors + 1
    host = step(state, EndGame(), ctx)
    quiet = journal_fault(state, host, "journal_full", "full")
    assert quiet.effects == () and quiet.state.session is state.session, "a host command flashes nothing"


def test_boot_with_an_unfinished_game_waits_in_resume_check_until_the_host_resumes() -> None:
    record = GameRecord(7, "tiny", 3, {}, "digital", ("a", "b", "c"), 0.0, None, None,
                        ({"type": "deal", "seat": -1, "secrets": ["L", "F", "L"]},))
    ctx = context(present={"r0": BALLOT.uid})
    done = step(fresh(), Boot(record), ctx)
    assert done.rows == () and done.state.status == TableStatus.RESUME_CHECK
    assert [d["zone"] for d in done.state.scan] == ["seat:0"], "a ballot left on seat 0: expected nothing there"
    vote = step(done.state, ButtonPressed(1, "ja"), ctx)
    assert vote.rows == () and vote.reply.code == "table_paused"  # type: ignore[union-attr]
    cleared = step(done.state, TagPlaced("r0", BALLOT.uid), replace(ctx, present=lambda: {}))
    assert cleared.state.scan == () and Publish("expected_vs_seen", {"zones": []}) in cleared.effects
    resumed = step(cleared.state, Resume(), ctx)
    assert resumed.reply == {"status": "running"} and resumed.state.status == TableStatus.RUNNING


def test_an_unreplayable_game_is_ended_and_the_configured_game_starts() -> None:
    record = GameRecord(3, "tiny", 3, {}, "digital", (), 0.0, None, None, ({"type": "pick", "seat": 0},))
    done = step(fresh(), Boot(record), context())
    assert isinstance(done.rows[0], EndGameRow) and done.rows[0].reason == "unreplayable"
    assert isinstance(done.rows[1], StartGame) and done.state.status == TableStatus.RUNNING


def test_boot_failed_leaves_an_idle_table() -> None:
    done = step(fresh(), BootFailed(), context())
    assert done.state.status == TableStatus.IDLE and done.rows == ()


def test_enrolling_shows_tags_instead_of_playing_them() -> None:
    state, ctx = running()
    on = step(state, EnrollMode(True), ctx)
    assert on.rows == () and on.state.enrolling and on.reply == {"enrolling": True}
    seen = step(on.state, TagPlaced("r2", "0A0B0C0D"), ctx)
    assert seen.rows == () and seen.effects == (
        PublishHost("enroll_seen", {"reader": "r2", "zone": "seat:2", "uid": "0A0B0C0D", "known": False}),)
    enrolled = step(seen.state, Enroll("0A0B0C0D", "ballot", "nein", ""), ctx)
    assert enrolled.rows == (WriteCards((Card("0A0B0C0D", "tiny", "ballot", "nein", "ballot nein"),)),)
    assert step(on.state, ButtonPressed(0, "ja"), ctx).reply.code == "table_paused"  # type: ignore[union-attr]


def _prompt_of(state: TableState, seat: int) -> dict[str, Any]:
    message = state.prompts[seat]
    assert message["type"] == "prompt"
    return dict(message)


def test_terminal_sequence_numbers_drop_duplicates_until_a_new_link_and_resend_the_verdict() -> None:
    state, ctx = running()
    state = step(state, TerminalHello("T0", "0.1.0", link="p0#a"), ctx).state
    ballot = _prompt_of(state, 0)["ballot"]
    first = step(state, TerminalChoice("T0", ballot, 5, 0, "p0#a"), ctx)
    ack = SendTerminal("T0", {"v": 1, "type": "ack", "ballot": ballot, "seq": 5})
    assert len(first.rows) == 1 and first.state.links["T0"].last == 5 and first.effects[-1] == ack
    again = step(first.state, TerminalChoice("T0", ballot, 5, 0, "p0#a"), ctx)
    assert again.rows == () and again.effects == (ack,), "a resent choice hears its verdict again, counted once"
    late = step(again.state, TerminalChoice("T0", ballot, 3, 0, "p0#a"), ctx)
    assert late.rows == () and late.effects[0].message["code"] == "out_of_order"  # type: ignore[union-attr]
    assert late.state.counters.duplicates == 2
    same_boot = step(late.state, TerminalHello("T0", "0.1.0", link="p0#a"), ctx)  # the port reopened: same boot
    assert same_boot.state.links["T0"].last == 5
    assert step(same_boot.state, TerminalChoice("T0", ballot, 5, 0, "p0#a"), ctx).effects == (ack,)
    rebooted = step(late.state, TerminalHello("T0", "0.1.0", link="p0#b"), ctx)
    assert rebooted.state.links["T0"].last == 0, "a rebooted terminal counts from 1 again"
    stale = step(rebooted.state, TerminalChoice("T0", ballot, 1, 0, "p0#b"), ctx)
    assert stale.rows == () and stale.effects[0].message["code"] == "stale_ballot"  # type: ignore[union-attr]
    old_boot = step(rebooted.state, TerminalChoice("T0", ballot, 9, 1, "p0#a"), ctx)
    assert old_boot.rows == () and old_boot.effects == () and old_boot.state.links == rebooted.state.links


def test_a_huge_seq_from_another_link_never_silences_the_terminal() -> None:
    """The attack of issue #30: a device on another port sent seq 2147483647 as T0; the real T0 went on being
    acked but was never counted. Sequence numbers are the link's: the other port's changes nothing."""
    state, ctx = running()
    state = step(state, TerminalHello("T0", "0.3.0", link="real#1"), ctx).state
    ballot = _prompt_of(state, 0)["ballot"]
    forged = step(state, TerminalChoice("T0", ballot, 0x7FFFFFFF, 1, "intruder#9"), ctx)
    assert forged.rows == () and forged.effects == () and forged.state.links == state.links
    real = step(forged.state, TerminalChoice("T0", ballot, 1, 0, "real#1"), ctx)
    assert len(real.rows) == 1 and real.effects[-1] == SendTerminal(
        "T0", {"v": 1, "type": "ack", "ballot": ballot, "seq": 1})


def test_a_refused_choice_is_answered_only_on_its_terminal_and_an_unbound_one_is_refused() -> None:
    state, ctx = running()
    ballot = _prompt_of(state, 0)["ballot"]
    wrong = step(state, TerminalChoice("T0", ballot, 1, 99), ctx)
    assert [type(e) for e in wrong.effects] == [SendTerminal] and wrong.effects[0].terminal == "T0"  # type: ignore[union-attr]
    assert wrong.effects[0].message["code"] == "bad_choice"  # type: ignore[union-attr]
    spare = step(state, TerminalChoice("SPARE", ballot, 1, 0), ctx)
    assert spare.rows == () and spare.effects[-1].message["code"] == "terminal_unbound"  # type: ignore[union-attr]


def test_ballot_ids_are_keyed_by_the_tables_secret() -> None:
    from companion.table.core.outputs import ballot_id

    one, other = ballot_id(b"k" * 32, 7, 1), ballot_id(b"k" * 32, 7, 2)
    assert one.startswith("7.") and len(one) == 2 + 12 and one != other
    assert ballot_id(b"j" * 32, 7, 1) != one, "another start of the table: other ids"
    state, ctx = running()
    assert _prompt_of(state, 0)["ballot"] != _prompt_of(state, 1)["ballot"]


def test_a_terminal_hello_resends_its_seats_open_prompt() -> None:
    state, ctx = running()
    gone = step(state, TerminalGone("T1"), ctx)
    assert gone.effects == (PublishHost("terminal", {"terminal": "T1", "connected": False}),)
    back = step(gone.state, TerminalHello("T1", "0.2.0"), ctx)
    assert back.effects[0] == SendTerminal("T1", state.prompts[1])
    assert back.state.terminals.connected() == {"T1": 1}
    unbound = step(state, TerminalHello("SPARE", "0.2.0"), ctx)
    assert [type(e) for e in unbound.effects] == [PublishHost], "an unbound terminal has no prompt to resume"


def test_a_failed_terminal_choice_commit_tells_the_terminal_the_code() -> None:
    state, ctx = running()
    ballot = _prompt_of(state, 0)["ballot"]
    done = step(state, TerminalChoice("T0", ballot, 1, 0), ctx)
    failed = journal_fault(state, done, "journal_full", "full")
    assert failed.effects[-1] == SendTerminal("T0", {"v": 1, "type": "error", "ballot": ballot, "seq": 1,
                                                     "code": "journal_full", "message": "full"})


def test_undo_and_end_game_are_rows_first() -> None:
    state, ctx = running()
    voted = step(state, ButtonPressed(0, "ja"), ctx).state
    undo = step(voted, Undo(), ctx)
    assert undo.rows == (UndoActions(1, 1),) and undo.reply == {"undone": 1, "actions": 1}
    assert undo.state.session.state == state.session.state  # type: ignore[union-attr]
    assert step(state, Undo(), ctx).reply.code == "nothing_to_undo"  # type: ignore[union-attr]
    end = step(voted, EndGame(), ctx)
    assert end.rows == (EndGameRow(1, "ended_by_host"),) and end.state.session is None
    assert end.state.status == TableStatus.IDLE and end.state.prompts == {}


def test_a_new_game_replaces_the_running_one_in_its_row_only_when_asked() -> None:
    state, ctx = running()
    asked = step(state, NewGame("tiny", 2, {}, Components.PHYSICAL), ctx)
    assert asked.reply.code == "game_running" and asked.rows == () and asked.state is state  # type: ignore[union-attr]
    done = step(state, NewGame("tiny", 2, {}, Components.PHYSICAL, replace=True),
                replace(ctx, journal=Journal(next_id=5)))
    (row,) = done.rows
    assert isinstance(row, StartGame) and row.replacing == 1 and row.game_id == 5 and row.components == "physical"
    assert done.state.session.components is Components.PHYSICAL  # type: ignore[union-attr]
    bad = step(state, NewGame("tiny", 9, replace=True), ctx)
    assert bad.reply.code == "bad_setup" and bad.rows == () and bad.state is state  # type: ignore[union-attr]


def test_binding_a_terminal_moves_the_seat_and_is_one_row() -> None:
    state, ctx = running()
    done = step(state, BindTerminal("PX", 0), ctx)
    assert done.rows == (BindTerminals((("PX", 0), ("T0", None))),)
    assert done.state.terminals.seat_of("PX") == 0 and done.state.terminals.seat_of("T0") is None
    assert done.effects[0] == SendTerminal("PX", dict(state.prompts[0]))
    assert step(state, BindTerminal("PX", 10), ctx).reply.code == "bad_seat"  # type: ignore[union-attr]


def test_a_reader_fault_is_counted_and_published() -> None:
    state, ctx = running()
    done = step(state, ReaderFault("r3", "spi"), ctx)
    assert done.state.counters.reader_faults == 1 and done.rows == ()


@pytest.mark.parametrize("name, args, code", [
    ("dance", {}, "unknown_command"),
    ("enroll_mode", {"on": "yes"}, "bad_field"),
    ("submit", {"seat": 0, "action": "vote"}, "malformed"),
    ("submit", {"seat": True, "action": {}}, "malformed"),
    ("new_game", {"components": "cardboard"}, "bad_setup"),
    ("new_game", {"options": "fast"}, "bad_setup"),
    ("new_game", {"seats": "3"}, "bad_setup"),
    ("enroll", {"uid": "zz"}, "bad_uid"),
    ("forget_card", {"uid": 5}, "bad_uid"),
    ("import_cards", {"deck": {"format": "nope"}}, "bad_deck"),
    ("bind_terminal", {"terminal": "", "seat": 0}, "bad_terminal"),
    ("bind_terminal", {"terminal": "PX", "seat": "0"}, "bad_seat"),
    ("export_cards", {"game": 3}, "bad_field"),
])
def test_parse_command_refuses_bad_input_once_with_a_stable_code(name: str, args: dict[str, Any], code: str) -> None:
    refusal = parse_command(name, args)
    assert isinstance(refusal, Refusal) and refusal.code == code and refusal.message


def test_parse_command_builds_typed_commands() -> None:
    assert parse_command("new_game", {"game": "tiny", "seats": 3, "components": "physical"}) == NewGame(
        "tiny", 3, {}, Components.PHYSICAL)
    assert parse_command("new_game", {"game": "tiny", "replace": True}).replace is True  # type: ignore[union-attr]
    assert parse_command("new_game", {"game": "tiny", "replace": "yes"}) == Refusal(
        "bad_field", "field 'replace' must be true or false")
    assert parse_command("submit", {"seat": None, "action": {"type": "x"}, "source": "host"}) == Submit(
        None, {"type": "x"}, "host")
    assert parse_command("enroll", {"uid": "04:a1:b2:c3", "kind": "ballot", "value": "ja"}) == Enroll(
        "04A1B2C3", "ballot", "ja", "")
    assert parse_command("bind_terminal", {"terminal": "PX", "seat": None}) == BindTerminal("PX", None)


def test_step_results_are_frozen() -> None:
    state, ctx = running()
    done: Step = step(state, ButtonPressed(0, "ja"), ctx)
    with pytest.raises(AttributeError):
        done.state.status = TableStatus.IDLE  # type: ignore[misc]


def test_the_led_scene_paints_seat_pieces_in_the_configured_seat_colours() -> None:
    """Thief of Baghdad's guards and thieves take the table's seat colours (config -> core -> binding)."""
    colours = ["#123456", "#abcdef", "#0f0f0f", "#f0f0f0"]
    base = demo_config()
    seats = tuple(replace(s, colour=c) for s, c in zip(base.seats, colours)) + base.seats[len(colours):]
    cfg = replace(base, game=GameConfig("thief_of_baghdad", 2, "digital"), seats=seats)
    ctx = Context(cfg, Cards({}), Journal(), dict, random.Random(3), now=100.0, boot="b00t",
                  reader_zones=cfg.reader_zones())
    done = step(fresh(), Boot(None), ctx)
    lit: set[tuple[int, int, int]] = set()
    for _ in range(40):  # play until both seats have pieces on the board
        lit |= {pixel for effect in done.effects if isinstance(effect, SetScene) for light in effect.scene.values()
                for pixel in light.pixels or ()}
        session = done.state.session
        assert session is not None
        seat = min(session.rules.to_act(session.state))
        done = step(done.state, Submit(seat, session.rules.legal_actions(session.state, seat)[0]), ctx)
        assert not isinstance(done.reply, Refusal), done.reply
    assert {(0x12, 0x34, 0x56), (0xab, 0xcd, 0xef)} <= lit, lit
