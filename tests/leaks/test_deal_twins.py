"""Every public output is a function of the public view (the leak test, 2 of 2): deal twins.

Two tables whose hidden facts differ (other hands, roles, secret choices: table B draws, at each chance, what
table A drew changed where the change stays hidden; tests/leaks/twins.py `ChancePlan`) are moved by the same
public moves (at each step, a move for each whose public views stay equal), with refused moves (each refused
by both engines: a code the game calls public must then be the same at both), undo and the redo after it (each
table re-applying its own chance), a refused redo, the refused undo and redo after the reveal and new games
between. The live stream, /api/state, the LED commands and the screen of a terminal bound
to no seat must be the same bytes; each seat's own page and terminal carry no other seat's secret, the log
lines none at all. The last tests show the checks catching a private refusal code and a field that depends on a
hidden fact."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.registry import game_names
from tests.leaks.conftest import SPARE, plug_terminals, seats_for, table
from tests.leaks.twins import ChancePlan, Table, Twins, check_seat_channels, pair, refused_by_both


@pytest.mark.parametrize("game", game_names())
def test_tables_whose_deals_differ_show_the_same_bytes(game: str, tmp_path: Path, started: list[Table],
                                                       log_text: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seats = seats_for(game)
    twins = Twins(table(started, tmp_path, game, 11), table(started, tmp_path, game, 12), private_seats=False,
                  public_terminals=(SPARE,))
    plan = ChancePlan(twins.a, twins.b)
    plan.install(monkeypatch)
    rng = random.Random(f"deals {game}")
    new_game = lambda t: t.host("new_game", game=game, seats=seats, replace=True)  # noqa: E731
    twins.both("a new game", new_game)
    plug_terminals(twins, seats)
    paired = games = probes = hidden = redone = 0
    for step in range(60):
        a = twins.a
        hidden += a.session.state != twins.b.session.state
        if step % 3 == 0:
            check_seat_channels(a, "\n".join(log_text))
        if not a.session.rules.to_act(a.session.state):
            twins.both("undo after the reveal", lambda t: t.host("undo"))
            twins.both("redo after the reveal", lambda t: t.host("redo"))
            twins.both("a new game", new_game)
            games += 1
            continue
        if step % 5 == 4:
            x = refused_by_both(twins, rng)
            if x is not None:
                seat = x.get("seat")
                who = seat if isinstance(seat, int) and 0 <= seat < seats else None
                twins.both(f"a refused {x.get('type')}", lambda t: t.act(who, x))
                probes += 1
                continue
        if step % 17 == 16:
            twins.both("host undo", lambda t: t.host("undo"))
            continue
        if step % 17 == 0 and step:  # what the undo just before took back, its chance as each table drew it
            answers = twins.both("host redo", lambda t: t.host("redo"))
            redone += all("redone" in answer for answer in answers)
            continue
        if step % 17 == 8:  # nothing undone since the last move: refused, nothing shown
            twins.both("host redo with nothing to redo", lambda t: t.host("redo"))
            continue
        found = pair(twins, plan, rng)
        if found is None:  # nothing both can do that shows alike: both tables deal a new game
            twins.both("a new game", new_game)
            games += 1
            continue
        seat, x, y = found
        twins.both(f"seat {seat} {x.get('type')}", lambda t: t.act(seat, x if t is a else y))
        paired += 1
    twins.both("the host ends the game", lambda t: t.host("end_game"))
    print(f"\n{game}: {twins.steps} steps, {twins.bytes_checked} bytes, paired {paired}, probes {probes}, "
          f"games {games}, hidden facts differed at {hidden} steps, redone {redone}")
    assert paired >= 25 and probes >= 5 and hidden >= 5 and redone >= 1, (paired, probes, games, hidden, redone)


def test_a_private_code_on_the_public_stream_is_caught(tmp_path: Path, started: list[Table],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """As it was: every refusal's code published, `policy_not_in_hand` and all."""
    from companion.table.core import refusals
    twins = Twins(table(started, tmp_path, "secret_hitler", 7), table(started, tmp_path, "secret_hitler", 7),
                  private_seats=True)
    monkeypatch.setattr(refusals, "is_public", lambda refusal: True)
    with pytest.raises(AssertionError, match="private code unexpected_card in public"):
        twins.a.uids = twins.b.uids = {}
        twins.both("enroll a ballot", lambda t: t.host("enroll", uid="0A0B0C0D", game="secret_hitler",
                                                        kind="policy", value="L"))
        twins.both("a tile at a seat reader", lambda t: t.tap("r1", "0A0B0C0D"))


def test_a_field_that_depends_on_a_hidden_fact_is_caught(tmp_path: Path, started: list[Table],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A public snapshot that carried one seat's view differs between deal twins."""
    from companion.table.handle import TableHandle
    twins = Twins(table(started, tmp_path, "secret_hitler", 11), table(started, tmp_path, "secret_hitler", 12),
                  private_seats=False)
    twins.compare("as shipped")
    honest = TableHandle.public_state
    monkeypatch.setattr(TableHandle, "public_state", lambda self: {
        **honest(self), "debug": self.loop.session.rules.view(self.loop.session.state, 3)})
    with pytest.raises(AssertionError, match="the twins' state differ"):
        twins.compare("a leaky /api/state")


def test_a_digital_boss_wallet_deal_and_draws_differ_unseen(tmp_path: Path, started: list[Table], log_text: list[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A digital table knows every hand it deals: twins dealt other hands (and drawing other cards) show the same
    public bytes, while each seat's own page lists its own hand from the deal."""
    game, seats = "boss_wallet", seats_for("boss_wallet")
    twins = Twins(table(started, tmp_path, game, 21), table(started, tmp_path, game, 22), private_seats=False,
                  public_terminals=(SPARE,))
    plan = ChancePlan(twins.a, twins.b)
    plan.install(monkeypatch)
    twins.both("a new game", lambda t: t.host("new_game", game=game, seats=seats, replace=True))
    plug_terminals(twins, seats)
    hands = [[t.session.rules.view(t.session.state, s)["hand"] for s in range(seats)] for t in twins.tables]
    assert all(len(h) == 5 for h in hands[0]) and hands[0] != hands[1], "the twins were dealt other hands"
    for t, dealt in zip(twins.tables, hands):
        assert t.session.options["known_hands"] is True
        for s in range(seats):
            page = t.rec.request("GET", f"/api/seat/{t.session.tokens[s]}")[2]
            assert page["view"]["hand"] == dealt[s] and page["view"]["hand_complete"] is True
    check_seat_channels(twins.a, "\n".join(log_text))
    check_seat_channels(twins.b, "\n".join(log_text))
    drew = 0
    for _ in range(8):  # each seat to act draws (the table then draws its card at each twin) or puts a card back
        seat = twins.a.session.state.turn
        kind = "draw" if drew < 4 else "put"
        x = next(a for a in twins.a.session.rules.legal_actions(twins.a.session.state, seat) if a["type"] == kind)
        y = next(a for a in twins.b.session.rules.legal_actions(twins.b.session.state, seat) if a["type"] == kind)
        twins.both(f"seat {seat} {kind}", lambda t: t.act(seat, x if t is twins.a else y))
        drew += 1
    after = [[t.session.rules.view(t.session.state, s)["hand"] for s in range(seats)] for t in twins.tables]
    assert after[0] != after[1] and all(len(h) >= 4 for h in after[0])
    check_seat_channels(twins.a, "\n".join(log_text))
    check_seat_channels(twins.b, "\n".join(log_text))
