"""Once a game is over its secrets are out (the public view and `/api/reveal` lay it open): nothing reopens it.
The host's undo is refused with `game_revealed`, the journal itself refuses to undo an ended game's actions, a
restart starts a new game beside the finished one, and a new game deals afresh with new seat links."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.config import WebConfig
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.conftest import table_config
from tests.table.helpers import host_call

ROOT = Path(__file__).resolve().parents[2]
Make = Callable[..., Runtime]
pytestmark = pytest.mark.usefixtures("tiny_game")


def play_to_the_end(rt: Runtime) -> None:
    """Play the tiny game until it is over (each seat's first legal action)."""
    while True:
        session = rt.loop.session
        assert session is not None
        acting = session.rules.to_act(session.state)
        if not acting:
            return
        seat = min(acting)
        action = session.rules.legal_actions(session.state, seat)[0]
        assert isinstance(host_call(rt.loop, "submit", seat=seat, action=action, source="test"), dict)


def test_undo_after_the_game_is_over_is_refused_and_changes_nothing(make_table: Make) -> None:
    rt = make_table()
    play_to_the_end(rt)
    finished = rt.loop.session
    assert finished is not None and finished.ended == "finished" and rt.loop.status == "over"
    rows, snapshot = rt.journal.rows(finished.game_id), rt.loop.snapshot
    result = host_call(rt.loop, "undo")
    assert isinstance(result, Refusal) and result.code == "game_revealed", result
    assert rt.loop.session is finished and rt.loop.status == "over" and rt.loop.snapshot is snapshot
    assert rt.journal.rows(finished.game_id) == rows
    with pytest.raises(ValueError, match="never undone"):  # nor can anything else undo it in the journal
        rt.journal.undo_from(finished.game_id, 1)
    assert rt.journal.rows(finished.game_id) == rows and rt.journal.game(finished.game_id).ended is not None


def test_a_restart_and_a_new_game_after_the_reveal_never_reopen_it(make_table: Make, tmp_path: Path) -> None:
    rt = make_table()
    play_to_the_end(rt)
    finished = rt.loop.session
    assert finished is not None
    old_tokens = finished.tokens
    rt.stop()
    again = Runtime(rt.config, rng=random.Random(9)).start()  # the same data directory
    try:
        session = again.loop.session
        assert session is not None and session.game_id == finished.game_id + 1 and session.ended is None
        assert all(a.get("seat") == -1 for a in session.actions), "a fresh deal: no action of the old game is back"
        old = again.journal.history(2)[1]
        assert (old["id"], old["end_reason"]) == (finished.game_id, "finished")
        assert all(again.handle.seat_for_token(t) is None for t in old_tokens), "the old seat links open nothing"
        assert isinstance(host_call(again.loop, "undo"), Refusal)  # nothing of the new game to take back...
        assert again.journal.game(finished.game_id).ended is not None  # ...and the old game stays closed
        assert host_call(again.loop, "new_game", game="tiny", seats=3, replace=True)["game_id"] == session.game_id + 1
        assert again.loop.session.reserved_chance == ()  # type: ignore[union-attr]
        assert again.journal.game(finished.game_id).ended is not None
    finally:
        again.stop()


def test_the_host_page_is_told_why_in_both_languages(tmp_path: Path) -> None:
    cfg = replace(table_config(tmp_path / "data"), web=WebConfig(host_pin="246800"))
    rt = Runtime(cfg, rng=random.Random(4)).start()
    try:
        client = rt.app(TESTING=True).test_client()
        csrf = {"X-CSRF-Token": client.post("/api/host/login", json={"pin": "246800"}).get_json()["csrf"]}
        play_to_the_end(rt)
        answer = client.post("/api/host/undo", json={}, headers=csrf)
        body: dict[str, Any] = answer.get_json()
        assert answer.status_code == 409 and body["code"] == "game_revealed", body
        assert client.get("/api/reveal").status_code == 200  # what was shown stays shown
    finally:
        rt.stop()
    for lang in ("en", "ko"):
        words = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text())["codes"]["game_revealed"]
        assert words and "{" not in words and "game_revealed" not in words
