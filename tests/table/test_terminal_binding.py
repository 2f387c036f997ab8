"""Binding seat terminals at run time (the host page's `bind_terminal`): the seat moves to the new terminal and
its prompt follows at once, the old one idles; bindings are journaled and outlive a restart; refusals change
nothing."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.table.journal import SCHEMA
from companion.table.runtime import Runtime
from companion.table.terminals import effective_bindings
from companion.table.refusal import Refusal
from tests.table.conftest import table_config
from tests.table.helpers import host_call, hw, live_rows

pytestmark = pytest.mark.usefixtures("tiny_game")

Make = Callable[..., Runtime]
IDLE = {"v": 1, "type": "idle", "ballot": None, "info": {}}


def bind(rt: Runtime, terminal: Any, seat: Any) -> Any:
    return host_call(rt.loop, "bind_terminal", terminal=terminal, seat=seat)


def row(rt: Runtime, terminal: str) -> dict[str, Any]:
    rows = [r for r in host_call(rt.loop, "host_state")["terminals"] if r["terminal"] == terminal]
    assert len(rows) == 1, rows
    return rows[0]


def test_the_config_is_the_default_and_the_hosts_bindings_win() -> None:
    defaults = {"T0": 0, "T1": 1, "T2": 2}
    assert effective_bindings(defaults, {}, 3) == defaults
    # PX took seat 0 (T0 unbound with it), T2 was unbound on purpose, a stored seat the table lost is dropped
    stored = {"PX": 0, "T0": None, "T2": None, "OLD": 7}
    assert effective_bindings(defaults, stored, 3) == {"PX": 0, "T1": 1}
    # a config that now names another terminal for a seat the host gave away does not take it back
    assert effective_bindings({"T9": 0, "T1": 1}, {"PX": 0}, 3) == {"PX": 0, "T1": 1}


def test_binding_moves_the_seat_and_its_open_prompt_to_the_new_terminal(make_table: Make) -> None:
    rt = make_table(seats=3)
    hub = hw(rt).mock_terminals
    for t in ("T0", "PX"):
        hub.connect(t)
    rt.loop.wait_idle()
    seat0 = hub.last_prompt("T0")
    assert seat0 is not None and seat0["type"] == "prompt" and hub.last_prompt("PX") is None
    assert row(rt, "PX")["seat"] is None and row(rt, "PX")["connected"] is True

    assert bind(rt, "PX", 0) == {"terminal": "PX", "seat": 0, "unbound": ["T0"]}
    assert hub.sent["PX"][-1] == seat0  # the seat's open prompt, same ballot, at once
    assert hub.sent["T0"][-1] == IDLE
    assert rt.loop.terminals_seen == {"T0": None, "PX": 0}
    assert row(rt, "PX")["bound_by"] == "host" and row(rt, "T0")["seat"] is None

    hub.choose("T0", seat0["ballot"], 0)  # the old terminal no longer votes for seat 0
    hub.choose("PX", seat0["ballot"], 1)
    rt.loop.wait_idle()
    votes = [(r["action"], r["source"]) for r in live_rows(rt) if r["action"]["type"] == "vote"]
    assert votes == [({"type": "vote", "seat": 0, "vote": "nein"}, "terminal:PX")]
    assert row(rt, "T0")["last_input"] is not None  # "press a button to identify": the unbound one is heard


def test_rebind_to_another_seat_then_unbind(make_table: Make) -> None:
    rt = make_table(seats=3)
    hub = hw(rt).mock_terminals
    for t in ("T1", "T2", "PX"):
        hub.connect(t)
    rt.loop.wait_idle()
    bind(rt, "PX", 1)
    assert hub.last_prompt("PX") == rt.loop.seat_prompt(1) and hub.last_prompt("T1") == IDLE
    assert bind(rt, "PX", 2) == {"terminal": "PX", "seat": 2, "unbound": ["T2"]}
    assert hub.last_prompt("PX") == rt.loop.seat_prompt(2) and hub.last_prompt("T2") == IDLE
    assert rt.loop.terminals.terminal_of(1) is None  # seat 1 keeps no terminal once PX moved on
    assert bind(rt, "PX", None) == {"terminal": "PX", "seat": None, "unbound": []}
    assert hub.last_prompt("PX") == IDLE
    sent = len(hub.sent["PX"])
    hw(rt).press(2, "ja")  # the game moves on: an unbound terminal gets no prompt
    rt.loop.wait_idle()
    assert len(hub.sent["PX"]) == sent
    assert bind(rt, "T2", 2)["unbound"] == [] and hub.last_prompt("T2") == rt.loop.seat_prompt(2)


def test_bindings_outlive_a_restart(tmp_path: Path) -> None:
    rt = Runtime(table_config(tmp_path), rng=random.Random(1)).start()
    try:
        bind(rt, "PX", 0)
        bind(rt, "T2", None)
    finally:
        rt.stop()
    rt = Runtime(table_config(tmp_path), rng=random.Random(2)).start()
    try:
        book = rt.loop.terminals
        assert (book.seat_of("PX"), book.seat_of("T0"), book.seat_of("T1"), book.seat_of("T2")) == (0, None, 1, None)
        hub = hw(rt).mock_terminals
        hub.connect("PX")
        rt.loop.wait_idle()
        assert hub.last_prompt("PX") == rt.loop.seat_prompt(0)  # hello resumes the bound seat's prompt
        assert row(rt, "T2") == {**row(rt, "T2"), "seat": None, "bound_by": "host"}
    finally:
        rt.stop()


REFUSED = [
    ("", 0, "bad_terminal"), ("T 1", 0, "bad_terminal"), ("x" * 65, 0, "bad_terminal"), (5, 0, "bad_terminal"),
    (None, 0, "bad_terminal"), ("PX", 10, "bad_seat"), ("PX", -1, "bad_seat"), ("PX", True, "bad_seat"),
    ("PX", "0", "bad_seat"), ("PX", 1.0, "bad_seat"),
]


def test_refusals_change_nothing(make_table: Make) -> None:
    rt = make_table(seats=3)
    hub = hw(rt).mock_terminals
    hub.connect("PX")
    rt.loop.wait_idle()
    before = (dict(rt.loop.terminals.seats), rt.journal.terminal_bindings(), {t: list(m) for t, m in hub.sent.items()})
    for terminal, seat, code in REFUSED:
        result = bind(rt, terminal, seat)
        assert isinstance(result, Refusal) and result.code == code and result.message, (terminal, seat)
        assert (dict(rt.loop.terminals.seats), rt.journal.terminal_bindings(),
                {t: list(m) for t, m in hub.sent.items()}) == before


def test_a_journal_that_cannot_be_written_refuses_and_changes_nothing(make_table: Make) -> None:
    rt = make_table(seats=3)
    hub = hw(rt).mock_terminals
    hub.connect("PX")
    rt.loop.wait_idle()
    seats, sent = dict(rt.loop.terminals.seats), list(hub.sent["PX"])
    rt.conn.execute("PRAGMA query_only = ON")  # SQLite itself refuses every write (SQLITE_READONLY)
    try:
        result = bind(rt, "PX", 0)
    finally:
        rt.conn.execute("PRAGMA query_only = OFF")
    assert isinstance(result, Refusal) and result.code == "journal_readonly"
    assert dict(rt.loop.terminals.seats) == seats and hub.sent["PX"] == sent
    assert rt.journal.terminal_bindings() == {}
    assert bind(rt, "PX", 0)["seat"] == 0 and rt.journal.terminal_bindings() == {"PX": 0, "T0": None}


def test_a_database_from_before_bindings_is_migrated_and_its_game_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    old_schema = SCHEMA.split("CREATE TABLE IF NOT EXISTS terminal_bindings")[0]
    conn = sqlite3.connect(str(data / "table.db"))
    conn.executescript(old_schema)
    with conn:
        conn.execute("INSERT INTO games (game, seats, options, mode, tokens, started) "
                     "VALUES ('tiny', 3, '{}', 'digital', '[\"a\", \"b\", \"c\"]', 0)")
    conn.close()
    rt = Runtime(table_config(data), rng=random.Random(3)).start()
    try:
        assert rt.loop.session is not None and rt.loop.session.game_id == 1 and rt.loop.status == "resume_check"
        assert bind(rt, "PX", 1)["unbound"] == ["T1"] and rt.journal.terminal_bindings() == {"PX": 1, "T1": None}
    finally:
        rt.stop()
