"""What lets phones follow the table: a revision that grows with undos (and outlives a restart), a stale seat
choice answered `stale_prompt` without counting or flashing a refusal, a new game ending enrollment, and every
game's physical reads said with where and how many, the count moving on the snapshot and the reader's LEDs."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from companion.games import get_rules
from companion.games.binding import get_binding
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import card_games, enroll_deck, host_call, hw, zone_pixels

Make = Callable[..., Runtime]


def version(rt: Runtime, seat: int = 0) -> tuple[int, int]:
    game_id, _, revision = str(rt.handle.seat_state(seat)["version"]).partition(".")
    return int(game_id), int(revision)


def vote(rt: Runtime, seat: int, how: str = "ja", at: str | None = None) -> Any:
    return rt.handle.submit(seat, {"type": "vote", "vote": how}, f"seat_page:{seat}", at)


@pytest.mark.usefixtures("tiny_game")
def test_the_revision_grows_through_undos_and_a_restart(make_table: Make) -> None:
    rt = make_table()
    seen = [version(rt)]
    assert isinstance(vote(rt, 0), dict)
    seen.append(version(rt))
    assert rt.handle.public_state()["game"]["revision"] == seen[-1][1]
    assert host_call(rt.loop, "undo")["undone"] == 1
    seen.append(version(rt))
    assert isinstance(vote(rt, 0, "nein"), dict)  # the same number of actions as before the undo: a newer state
    seen.append(version(rt))
    rt.stop()
    again = Runtime(rt.config, rng=random.Random(2)).start()
    try:
        seen.append(version(again))
        host_call(again.loop, "resume")
        assert isinstance(vote(again, 1), dict)
        seen.append(version(again))
    finally:
        again.stop()
    assert seen[0] < seen[1] < seen[2] < seen[3], f"an undo must give a newer version: {seen}"
    assert seen[3] == seen[4], "a restart keeps the revision"
    assert seen[4] < seen[5], seen


@pytest.mark.usefixtures("tiny_game")
def test_a_stale_choice_is_answered_stale_prompt_and_counts_nothing(make_table: Make) -> None:
    rt = make_table()
    shown = rt.handle.seat_state(0)["version"]
    assert isinstance(vote(rt, 0, "ja", shown), dict)  # chosen on the state that holds: played
    moved = rt.handle.seat_state(0)["version"]
    rejected = rt.loop.counters.rejected
    again = vote(rt, 0, "nein", shown)  # the same seat taps the old prompt again: the table moved past it
    assert isinstance(again, Refusal) and again.code == "stale_prompt", again
    assert rt.loop.counters.rejected == rejected and rt.handle.seat_state(0)["version"] == moved
    assert rt.handle.seat_state(0)["refused"] is None
    plain = vote(rt, 0, "nein", moved)  # on the current prompt the refusal is the game's own
    assert isinstance(plain, Refusal) and plain.code != "stale_prompt"
    assert isinstance(vote(rt, 1, "ja", shown), dict), "a simultaneous vote made on an older state still counts"


@pytest.mark.usefixtures("tiny_game")
def test_starting_a_game_ends_enrollment(make_table: Make) -> None:
    rt = make_table()
    host_call(rt.loop, "enroll_mode", on=True)
    assert rt.handle.public_state()["table"]["enrolling"]
    assert isinstance(vote(rt, 0), Refusal)  # the running game waits while enrollment holds the table
    assert host_call(rt.loop, "new_game", game="tiny", seats=3, replace=True).get("game_id")
    assert not rt.handle.public_state()["table"]["enrolling"] and rt.loop.state.guide is None
    assert isinstance(vote(rt, 0), dict)


def physical_table(make_table: Make, game: str) -> Runtime:
    """A physical game of `game` at its fewest seats, every component enrolled with made-up UIDs."""
    rules = get_rules(game)
    rt = make_table(game=game, seats=rules.min_seats, mode="digital")
    enroll_deck(rt, game, rules.min_seats, 0x20000000)
    assert host_call(rt.loop, "new_game", game=game, seats=rules.min_seats, components="physical",
                     replace=True).get("game_id")
    return rt


@pytest.mark.parametrize("game", card_games())
def test_each_physical_read_says_where_and_how_many(make_table: Make, game: str) -> None:
    """Played by legal digital choices until the table waits on cards (at most 200 moves): the read names a zone
    of the game, a kind it enrolls, and a count that moves with a tap (and fills the reader's LEDs)."""
    rt = physical_table(make_table, game)
    rng = random.Random(4)
    binding = get_binding(game)
    for _ in range(200):
        reading = rt.handle.public_state()["game"]["reading"]
        if reading:
            break
        acting = [s for s in rt.handle.public_state()["game"]["to_act"] if s >= 0]
        options = [(s, o["action"]) for s in acting for o in (rt.handle.seat_state(s)["prompt"] or {}).get("options", ())]
        options = [(s, a) for s, a in options if not a["type"].startswith(("clear_", "confirm_"))]
        assert options, "nobody can act and no card is awaited"
        seat, action = rng.choice(options)
        rt.handle.submit(seat, action, "test")
    else:
        pytest.skip(f"{game} read no card within 200 moves")
    r = reading[0]
    assert r["zone"] in binding.zones(rt.loop.session.seats) and (r["kind"] in binding.card_kinds or r["kind"] == "card")
    assert r["got"] == 0 and (r["need"] is None or r["need"] >= 1)
    reader = next(rd.name for rd in rt.loop.config.readers if rd.zone == r["zone"])
    card = next(c for c in rt.loop.cards.all() if c.game == game and c.kind == (r["kind"] if r["kind"] != "card"
                                                                                 else binding.needed_kinds[-1]))
    hw(rt).place(reader, card.uid)
    rt.loop.wait_idle()
    hw(rt).remove(reader)
    rt.loop.wait_idle()
    after = rt.handle.public_state()["game"]["reading"]
    if after and after[0]["zone"] == r["zone"] and r["need"] != 1:
        assert after[0]["got"] == 1, after
        if r["need"] and r["lights"]:
            assert any(p != (0, 0, 0) for p in zone_pixels(rt, r["zone"])), "the reader's LEDs show no count"
