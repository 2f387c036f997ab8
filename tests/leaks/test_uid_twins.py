"""Every public output is a function of the public view (the leak test, 1 of 2): UID twins.

Two tables play the same deal, but every card's tag has another UID at each. Every host flow runs at both:
guided enrollment with an undo, a check and a verify pass; manual enrollment, the UID read off the host's
stream as the host page reads it; forgetting a card; a physical game with taps of every card at every reader
(seat readers, shared ones, terminals' own), unknown tags, buttons, terminal and phone choices, draws the host
enters, undo, the refused undo after the reveal, new games and the end. Everything but the host's stream (the
live stream, /api/state, the LED commands, every terminal's messages, the seat pages) must be the same bytes
once the card ids (each table's own secret) are named by the card's printed label, and no UID may appear in
any of it. The last test shows the check catching a UID on the public stream, as the table published it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games import CHANCE
from companion.games.binding import get_binding
from companion.hal.terminal_hub import READER_PREFIX
from companion.table.core.guide import slots_of
from tests.leaks.conftest import plug_terminals, seats_for, table
from tests.leaks.twins import Table, Twins, translate, uids
from tests.table.helpers import card_games, hw


def enroll_by_guide(twins: Twins, game: str, seats: int, rng: random.Random) -> list[str]:
    """Guided enrollment of the whole deck list at both tables, each tag with its own UID at each; with an
    undo, a check pass and a verify pass. Returns the cards' labels."""
    twins.both("guide starts", lambda t: t.host("guide_start", game=game, seats=seats))
    slots = slots_of(get_binding(game).deck_list(seats))
    labels = [slot.label("en") for slot in slots]
    fresh = {id(t): uids(t.rng, len(labels) + 8) for t in twins.tables}
    for t in twins.tables:
        t.uids = dict(zip(labels, fresh[id(t)]))
        t.unknown = fresh[id(t)][len(labels):]
    readers = list(twins.a.rt.config.reader_zones())
    for i, label in enumerate(labels):
        reader = rng.choice(readers)
        twins.both(f"enroll {label}", lambda t: t.tap(reader, t.uids[label]))
        if i == 2:
            twins.both("guide undo", lambda t: t.host("guide_undo"))
            twins.both(f"enroll {label} again", lambda t: t.tap(reader, t.uids[label]))
    twins.both("check pass", lambda t: t.host("guide_mode", mode="check"))
    for label in rng.sample(labels, 3):
        twins.both(f"check {label}", lambda t: t.tap("center", t.uids[label]))
    twins.both("check an unknown tag", lambda t: t.tap("center", t.unknown[0]))
    twins.both("verify pass", lambda t: t.host("guide_mode", mode="verify"))
    for label in rng.sample(labels, 4):
        twins.both(f"verify {label}", lambda t: t.tap("board", t.uids[label]))
    twins.both("verify an unknown tag", lambda t: t.tap("board", t.unknown[1]))
    twins.both("guide stops", lambda t: t.host("guide_stop"))
    return labels


def enroll_by_hand(twins: Twins, game: str, labels: list[str]) -> None:
    """Manual enrollment as the host page does it: the UID read off the host's stream, then forgotten."""
    twins.both("enrollment on", lambda t: t.host("enroll_mode", on=True))
    twins.both("a new tag", lambda t: t.tap("r1", t.unknown[2]))
    card = next(c for c in twins.a.rt.cards.all() if c.uid == twins.a.uids[labels[0]])
    for t in twins.tables:
        seen = t.rec.host_events("enroll_seen")
        assert [e["uid"] for e in seen] == [t.unknown[2]], "the host's stream names the tag"
    twins.both("enroll it", lambda t: t.host("enroll", uid=t.rec.host_events("enroll_seen")[0]["uid"], game=game,
                                             kind=card.kind, value=card.value, label="spare card"))
    twins.both("forget it", lambda t: t.host("forget_card", uid=t.unknown[2]))
    twins.both("enrollment off", lambda t: t.host("enroll_mode", on=False))


def random_input(twins: Twins, labels: list[str], rng: random.Random, step: int) -> None:
    """One public input, the same at both tables (each card tapped by its own UID there)."""
    a = twins.a
    session = a.session
    rules, state = session.rules, session.state
    acting = rules.to_act(state)
    if not acting:
        twins.both("undo after the reveal", lambda t: t.host("undo"))
        twins.both("a new physical game", lambda t: t.host("new_game", game=session.game, seats=session.seats,
                                                          components="physical", replace=True), seat_pages=True)
        return
    roll = rng.random()
    terminal_readers = [f"{READER_PREFIX}T{s}" for s in range(session.seats)]
    if acting == frozenset({CHANCE}) and roll < 0.5:
        x = rules.sample_chance(state, rng)
        twins.both("the host enters a draw", lambda t: t.act(None, translate(x, a, t)))
    elif roll < 0.45 and acting != frozenset({CHANCE}):
        seat = rng.choice(sorted(acting))
        prompt = hw(a.rt).mock_terminals.last_prompt(f"T{seat}")
        if rng.random() < 0.4 and prompt and prompt.get("type") == "prompt" and prompt["options"]:
            value = rng.randrange(len(prompt["options"]))
            # each twin's own ballot id: ids are keyed by a secret each table draws at its start
            twins.both(f"seat {seat} chooses on its terminal", lambda t: hw(t.rt).mock_terminals.choose(
                f"T{seat}", hw(t.rt).mock_terminals.last_prompt(f"T{seat}")["ballot"], value),  # type: ignore[index]
                seat_pages=step % 5 == 0)
        else:
            x = rng.choice(rules.legal_actions(state, seat))
            twins.both(f"seat {seat} acts on its phone", lambda t: t.act(seat, translate(x, a, t)),
                       seat_pages=step % 5 == 0)
    elif roll < 0.8:
        label = rng.choice(labels)
        reader = rng.choice(list(a.rt.config.reader_zones()) + terminal_readers)
        twins.both(f"{label} tapped at {reader}", lambda t: t.tap(reader, t.uids[label]))
    elif roll < 0.86:
        reader = rng.choice(list(a.rt.config.reader_zones()))
        n = 3 + step % 5
        twins.both("an unknown tag", lambda t: t.tap(reader, t.unknown[n]))
    elif roll < 0.95:
        button = rng.choice(a.rt.config.buttons)
        twins.both(f"button {button.key} at seat {button.seat}",
                   lambda t: (hw(t.rt).press(button.seat, button.key), t.rt.loop.wait_idle()))
    else:
        twins.both("host undo", lambda t: t.host("undo"))


@pytest.mark.parametrize("game", card_games())
def test_tables_whose_tags_differ_show_the_same_bytes(game: str, tmp_path: Path, started: list[Table]) -> None:
    seats = seats_for(game)
    twins = Twins(table(started, tmp_path, game, 7), table(started, tmp_path, game, 7), private_seats=True)
    rng = random.Random(f"uids {game}")
    plug_terminals(twins, seats)
    labels = enroll_by_guide(twins, game, seats, rng)
    enroll_by_hand(twins, game, labels)
    twins.both("a physical game", lambda t: t.host("new_game", game=game, seats=seats, components="physical",
                                                   replace=True), seat_pages=True)
    assert twins.a.session.components == "physical"
    for step in range(70):
        random_input(twins, labels, rng, step)
    twins.both("the host ends the game", lambda t: t.host("end_game"))
    public = twins.a.rec.whole_public()
    assert "rejected" in public and "unknown_tag" in public, "refusals and unknown tags were shown"
    told = [e for kind in ("rejected", "unknown_tag") for e in twins.a.rec.host_events(kind, wait=0, since=0)]
    assert any("code" in e for e in told) and any(e.get("uid") in twins.a.unknown for e in told), \
        "the host's stream said why, and which tag"
    assert twins.steps > len(labels) + 70 and twins.bytes_checked > 100_000
    print(f"\n{game}: {twins.steps} steps, {twins.bytes_checked} bytes, accepted "
          f"{twins.a.rt.loop.counters.accepted}, rejected {twins.a.rt.loop.counters.rejected}, games "
          f"{twins.a.rt.journal.next_game_id() - 1}, {twins.log[-5:]}")


def test_a_uid_on_the_public_stream_is_caught(tmp_path: Path, started: list[Table],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """As it was: an unknown tag's UID published for everyone."""
    from companion.table.core import effects
    honest = effects.Publish.__init__

    def leaky(self: Any, kind: str, payload: Any, host: Any = None) -> None:
        honest(self, kind, dict(host) if kind == "unknown_tag" and host else payload, host)

    twins = Twins(table(started, tmp_path, "secret_hitler", 7), table(started, tmp_path, "secret_hitler", 7),
                  private_seats=True)
    for t, uid in zip(twins.tables, ("0A0B0C0D", "01020304")):
        t.unknown = [uid]
    twins.both("an unknown tag", lambda t: t.tap("r1", t.unknown[0]))
    monkeypatch.setattr(effects.Publish, "__init__", leaky)
    with pytest.raises(AssertionError, match="UID 0A0B0C0D in a public output"):
        twins.both("an unknown tag", lambda t: t.tap("r1", t.unknown[0]))
