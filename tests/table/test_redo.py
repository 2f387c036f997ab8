"""The host's redo: it re-applies what the last undo took back (the player action and the chance after it, as
journaled, never drawn again), several undos in a row are redone in order, any new action empties it
(`nothing_to_redo`), a finished game refuses it (`game_revealed`, as undo), the revision grows with it, and
what there is to redo survives a restart (it is the journal's: the rows an undo marked and no new action dropped);
a bot's memory holds a redone move again."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.bots import get_bot
from companion.bots.seat import Seated
from companion.config import MAX_BOT_PAUSE_MS, BotsConfig
from companion.games import get_rules
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import host_call, live_rows
from tests.table.test_revealed import play_to_the_end
from tests.table.tinygame import Tiny

ROOT = Path(__file__).resolve().parents[2]
Make = Callable[..., Runtime]
pytestmark = pytest.mark.usefixtures("tiny_game")


def vote(rt: Runtime, seat: int, how: str = "ja") -> Any:
    """A seat's vote through its page."""
    return rt.handle.submit(seat, {"type": "vote", "vote": how}, f"seat_page:{seat}")


def revision(rt: Runtime) -> int:
    """The public snapshot's revision."""
    return int(rt.handle.public_state()["game"]["revision"])


def can_redo(rt: Runtime) -> bool:
    """What the host page reads to enable its Redo button."""
    return bool(host_call(rt.loop, "host_state")["game"]["can_redo"])


def no_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the tiny game cannot draw: whatever chance is applied must come from the journal."""
    def refuse(self: Tiny, state: Any, rng: random.Random) -> dict[str, Any]:
        raise AssertionError("chance drawn again")
    monkeypatch.setattr(Tiny, "_sample_chance", refuse)


def test_redo_reapplies_the_action_and_its_chance_as_journaled(make_table: Make,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rt = make_table()
    for seat in range(3):  # the last vote brings the draw (chance) in the same step
        assert isinstance(vote(rt, seat, "ja" if seat else "nein"), dict)
    before, rows, state = rt.loop.session, live_rows(rt), rt.loop.session.state  # type: ignore[union-attr]
    assert [r["action"]["type"] for r in rows[-2:]] == ["vote", "draw"]
    assert not can_redo(rt)
    refused = host_call(rt.loop, "redo")
    assert isinstance(refused, Refusal) and refused.code == "nothing_to_redo"
    assert host_call(rt.loop, "undo")["undone"] == 2
    undone_at = revision(rt)
    assert can_redo(rt)
    no_draws(monkeypatch)
    assert host_call(rt.loop, "redo") == {"redone": 2, "actions": len(rows)}
    after = rt.loop.session
    assert after is not None and after.state == state and list(after.actions) == list(before.actions)  # type: ignore[union-attr]
    assert live_rows(rt) == rows, "the same journal rows are live again, the draw as it was"
    assert revision(rt) > undone_at and not can_redo(rt)
    assert rt.journal.rows(after.game_id)[-1]["action"] == rows[-1]["action"]


def test_several_undos_are_redone_in_order_and_a_new_action_empties_redo(make_table: Make) -> None:
    rt = make_table()
    for seat in range(2):
        assert isinstance(vote(rt, seat), dict)
    states = [rt.loop.session.state]  # type: ignore[union-attr]
    seen = [revision(rt)]
    for _ in range(2):
        assert host_call(rt.loop, "undo")["undone"] == 1
        states.append(rt.loop.session.state)  # type: ignore[union-attr]
        seen.append(revision(rt))
    assert isinstance(host_call(rt.loop, "undo"), Refusal)  # only the deal is left: nothing more to undo
    for expected in (states[1], states[0]):
        assert host_call(rt.loop, "redo")["redone"] == 1
        assert rt.loop.session.state == expected  # type: ignore[union-attr]
        seen.append(revision(rt))
    assert seen == sorted(set(seen)), f"every undo and redo gives a newer revision: {seen}"
    assert host_call(rt.loop, "redo").code == "nothing_to_redo"
    assert host_call(rt.loop, "undo")["undone"] == 1
    assert isinstance(vote(rt, 1, "nein"), dict)  # a new action after the undo: the old branch is gone
    assert not can_redo(rt)
    rows = rt.journal.rows(rt.loop.session.game_id)  # type: ignore[union-attr]
    refused = host_call(rt.loop, "redo")
    assert isinstance(refused, Refusal) and refused.code == "nothing_to_redo"
    assert rt.journal.rows(rt.loop.session.game_id) == rows  # type: ignore[union-attr]
    assert host_call(rt.loop, "undo")["undone"] == 1  # the new vote, and only it, is what a redo brings back
    assert host_call(rt.loop, "redo")["redone"] == 1
    assert live_rows(rt)[-1]["action"]["vote"] == "nein"


def test_redo_survives_a_restart_and_counts_the_revision_on(make_table: Make,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rt = make_table()
    for seat in range(3):
        assert isinstance(vote(rt, seat), dict)
    rows = live_rows(rt)
    assert host_call(rt.loop, "undo")["undone"] == 2
    assert host_call(rt.loop, "undo")["undone"] == 1
    before = revision(rt)
    rt.stop()
    again = Runtime(rt.config, rng=random.Random(7)).start()
    try:
        assert revision(again) == before, "a restart keeps the revision"
        host_call(again.loop, "resume")
        assert can_redo(again)
        no_draws(monkeypatch)
        assert host_call(again.loop, "redo")["redone"] == 1
        assert host_call(again.loop, "redo")["redone"] == 2
        assert live_rows(again) == rows and revision(again) > before
        assert host_call(again.loop, "redo").code == "nothing_to_redo"
    finally:
        again.stop()


def test_a_new_action_after_a_restart_still_empties_redo(make_table: Make) -> None:
    rt = make_table()
    assert isinstance(vote(rt, 0), dict)
    assert host_call(rt.loop, "undo")["undone"] == 1
    rt.stop()
    again = Runtime(rt.config, rng=random.Random(3)).start()
    try:
        host_call(again.loop, "resume")
        assert isinstance(vote(again, 0, "nein"), dict)
        assert host_call(again.loop, "redo").code == "nothing_to_redo"
        game = again.loop.session.game_id  # type: ignore[union-attr]
        assert [r["undone"] for r in again.journal.rows(game)][-2:] == [True, False]
        assert again.journal.game(game).redo == ()  # type: ignore[union-attr]
    finally:
        again.stop()


def test_redo_after_the_reveal_is_refused_and_changes_nothing(make_table: Make) -> None:
    rt = make_table()
    play_to_the_end(rt)
    finished = rt.loop.session
    assert finished is not None and finished.ended == "finished"
    rows, snapshot = rt.journal.rows(finished.game_id), rt.loop.snapshot
    result = host_call(rt.loop, "redo")
    assert isinstance(result, Refusal) and result.code == "game_revealed", result
    assert rt.loop.session is finished and rt.loop.snapshot is snapshot
    assert rt.journal.rows(finished.game_id) == rows
    with pytest.raises(ValueError, match="nothing in it is redone"):  # nor can anything else redo in the journal
        rt.journal.redo(finished.game_id, 1)


def test_redo_without_a_game_is_refused(make_table: Make) -> None:
    rt = make_table()
    host_call(rt.loop, "end_game")
    result = host_call(rt.loop, "redo")
    assert isinstance(result, Refusal) and result.code == "no_game"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_redo_refusals_have_words(lang: str) -> None:
    words = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for code in ("nothing_to_redo", "game_revealed", "no_game"):
        text = words["codes"][code]
        assert text and "{" not in text and "_" not in text, (lang, code, text)
    for key in ("redo", "redone"):
        assert words["host"][key] and "_" not in words["host"][key]


def test_a_redo_rebuilds_the_bots_memory_as_a_replay_would(bot_table: Callable[..., Runtime]) -> None:
    """A redone move of a bot's seat is in its memory again (the seat's view before it), as after a restart."""
    rt = bot_table(bots=BotsConfig(MAX_BOT_PAUSE_MS, MAX_BOT_PAUSE_MS), seats=5)  # no bot acts meanwhile
    assert host_call(rt.loop, "new_game", game="secret_hitler", seats=5, replace=True, bots=[1, 2, 3, 4])["game_id"]
    rng = random.Random(4)
    rules = get_rules("secret_hitler")
    redone = 0
    for _ in range(40):  # the host enters moves for every seat; each is undone and redone
        session = rt.loop.session
        assert session is not None
        acting = sorted(s for s in rules.to_act(session.state) if s >= 0)
        if not acting:
            break
        seat = rng.choice(acting)
        action = rng.choice(rules.legal_actions(session.state, seat))
        assert isinstance(host_call(rt.loop, "submit", seat=None, action=action, source="test"), dict)
        assert "undone" in host_call(rt.loop, "undo")
        assert "redone" in host_call(rt.loop, "redo")
        redone += 1
        session = rt.loop.session
        bots = rt.loop.state.bots
        for bot_seat, seated in bots.seats.items():
            fresh = Seated.sit(get_bot("secret_hitler"), bot_seat).rebuild(rules, 5, {}, session.actions)
            assert seated.memory == fresh.memory, f"seat {bot_seat} after {len(session.actions)} actions"
    assert redone >= 10
