"""Mafia's night through the leak test: twin tables whose mafia and detective sit at other seats.

At table A the mafia are seats 0 and 3 and the detective seat 4; at table B the mafia are seats 1 and 5 and the
detective seat 2. Every living seat acts at night at both tables, in the same order and on the same target, but
with its own role's action (seat 0 kills at A and points at B), so the subset that really acts differs while
the public bytes (the live stream, /api/state, the LEDs, a spare terminal bound to no seat) must be the same.
Refusals that would tell a role are refused at both with other codes (`target_mafia` at A, `not_your_role` at
B), which only the acting seat hears. The detective's answer and the mafia's picks reach only their seats'
pages and terminals."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import WebConfig
from companion.games.mafia.state import DETECTIVE, MAFIA, TOWN
from companion.table.runtime import Runtime
from tests.leaks.conftest import PIN, SPARE, plug_terminals
from tests.leaks.recorder import Recorder
from tests.leaks.twins import Table, Twins, check_seat_channels
from tests.table.conftest import table_config
from tests.table.helpers import hw

GAME, SEATS = "mafia", 8
M, D, T = MAFIA, DETECTIVE, TOWN
ROLES_A = [M, T, T, M, D, T, T, T]
ROLES_B = [T, M, D, T, T, M, T, T]
"""Eight seats, two mafia: at 0 and 3 at A, at 1 and 5 at B; the detective at 4 at A, at 2 at B."""
TARGETS = {0: 6, 1: 6, 2: 0, 3: 6, 4: 0, 5: 6, 6: 7, 7: 6}
"""Each seat's choice, the same at both tables: the mafia of each pick seat 6 (a citizen at both); seat 4 checks
seat 0 at A (mafia) and points at it at B; seat 2 points at seat 0 at A and checks it at B (a citizen)."""


def eight_seat_table(tables: list[Table], tmp_path: Path, seed: int) -> Table:
    """A started, recorded table of the demo config with eight seats (conftest.table's, at another count)."""
    cfg = replace(table_config(tmp_path / f"t{len(tables)}", game=GAME, seats=SEATS), web=WebConfig(host_pin=PIN))
    rng = random.Random(seed)
    rt = Runtime(cfg, rng=rng).start()
    t = Table(rt, Recorder(rt, PIN), rng)
    tables.append(t)
    t.rec.start()
    return t


def deal_each(twins: Twins, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each twin deals its own roles (the table's chance, as the two callers of `auto_chance` draw it)."""
    from companion.table.core import host, play
    from companion.table.session import auto_chance

    def dealt(session: Any, state: Any, rng: random.Random) -> Any:
        rules = session.rules
        if rules.phase(state) == "deal":
            action = {"type": "deal", "seat": -1, "roles": ROLES_A if rng is twins.a.rng else ROLES_B}
            return rules.apply(state, action), [action], ()
        return auto_chance(session, state, rng)

    monkeypatch.setattr(play, "auto_chance", dealt)
    monkeypatch.setattr(host, "auto_chance", dealt)


def night_action(t: Table, seat: int) -> dict[str, Any]:
    """The night action of `seat`'s role at this table, on its target."""
    kind = {MAFIA: "kill", DETECTIVE: "check", TOWN: "suspect"}[t.session.state.roles[seat]]
    return {"type": kind, "seat": seat, "target": TARGETS[seat]}


def pages(t: Table) -> dict[int, str]:
    """What each seat's phone reads, as text."""
    return {s: json.dumps(t.rec.request("GET", f"/api/seat/{t.session.tokens[s]}")[2]) for s in range(SEATS)}


def test_twins_whose_mafia_and_detective_differ_show_the_same_bytes(tmp_path: Path, started: list[Table],
                                                                  log_text: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    twins = Twins(eight_seat_table(started, tmp_path, 21), eight_seat_table(started, tmp_path, 22),
                  private_seats=False, public_terminals=(SPARE,))
    deal_each(twins, monkeypatch)
    twins.both("a new game", lambda t: t.host("new_game", game=GAME, seats=SEATS, replace=True))
    plug_terminals(twins, SEATS)
    a, b = twins.a, twins.b
    assert [a.session.state.roles, b.session.state.roles] == [tuple(ROLES_A), tuple(ROLES_B)]

    # Refusals that read the role: refused at both with other codes, none public; the acting seat hears its own.
    probes = [({"type": "kill", "seat": 0, "target": 3}, ["target_mafia", "not_your_role"]),
              ({"type": "kill", "seat": 5, "target": 1}, ["not_your_role", "target_mafia"]),
              ({"type": "kill", "seat": 6, "target": 6}, ["target_self", "target_self"])]
    for action, codes in probes:
        answers = twins.both(f"a refused {action}", lambda t, action=action: t.act(action["seat"], action))
        assert [x.get("code") for x in answers] == codes, answers
    rejected = [d for t in twins.tables for k, d in t.rec.public.events() if k == "rejected"]  # type: ignore[union-attr]
    assert [d.get("code") for d in rejected] == [None, None, "target_self"] * 2, rejected

    for seat in range(SEATS):
        assert a.session.rules.to_act(a.session.state) == b.session.rules.to_act(b.session.state)
        twins.both(f"seat {seat} makes its night choice", lambda t, seat=seat: t.act(seat, night_action(t, seat)))
        if seat == 4:  # both mafia of A, one of B and both detectives have chosen; the night goes on
            check_seat_channels(a, "\n".join(log_text))
            check_seat_channels(b, "\n".join(log_text))
            at_a, at_b = pages(a), pages(b)
            assert [s for s in at_a if '"mafia_pick"' in at_a[s]] == [0, 3]
            assert [s for s in at_b if '"mafia_pick"' in at_b[s]] == [1, 5]
            assert [s for s in at_a if '"checked"' in at_a[s]] == [4] and [s for s in at_b if '"checked"' in at_b[s]] == [2]
            for t, mafia, detective in ((a, [0, 3], 4), (b, [1, 5], 2)):
                shown = {s: (hw(t.rt).mock_terminals.last_prompt(f"T{s}") or {}).get("info", {}) for s in range(SEATS)}
                assert [s for s in range(SEATS) if shown[s].get("mafia_picks")] == mafia, shown
                assert [s for s in range(SEATS) if shown[s].get("found_mafia") or shown[s].get("found_town")] \
                    == [detective], shown
    states = [t.session.state for t in twins.tables]
    assert [s.phase.value for s in states] == ["day", "day"] and states[0].victim == states[1].victim == 6
    assert a.session.rules.view(states[0]) == b.session.rules.view(states[1])
    twins.both("the host ends the game", lambda t: t.host("end_game"))
    print(f"\nmafia night twins: {twins.steps} steps, {twins.bytes_checked} bytes compared")
