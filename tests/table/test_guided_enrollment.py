"""Guided enrollment through mock hardware: deck lists, one tap per component, tags already enrolled named and
not enrolled twice, skip and undo, check and verify modes, the reader's coloured confirmation, and a physical
game that starts only with the kinds it reads enrolled."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.config import GameConfig, PollingConfig, demo_config
from companion.games.binding import GREEN, RED, WHITE, get_binding
from companion.games.registry import game_names, get_rules
from companion.table.cards import check_card
from companion.table.core.effects import Flash
from companion.table.core.guide import CONFIRM, TapResult, start_check
from companion.table.refusal import Refusal
from companion.table.runtime import Runtime
from tests.table.helpers import host_call, tap

SH = "secret_hitler"


@pytest.fixture()
def rt(tmp_path: Path) -> Iterator[Runtime]:
    base = demo_config()
    cfg = replace(base, data_dir=str(tmp_path), game=GameConfig(SH, 5, "digital"),
                  polling=PollingConfig(interval_ms=5, removal_ms=25))
    table = Runtime(cfg, rng=random.Random(3)).start()
    yield table
    table.stop()


def uid(n: int) -> str:
    return f"04{n:012X}"


def guide(rt: Runtime) -> dict[str, Any]:
    return host_call(rt.loop, "host_state")["guide"]


def cards_of(rt: Runtime, game: str) -> list[tuple[str, str, str]]:
    return [(c.kind, c.value, c.label) for c in rt.loop.cards.all() if c.game == game]


def test_every_games_deck_list_enrolls_as_valid_cards_at_every_seat_count() -> None:
    for game in game_names():
        binding, rules = get_binding(game), get_rules(game)
        for seats in range(rules.min_seats, rules.max_seats + 1):
            items = binding.deck_list(seats)
            if not items:
                continue
            assert len({(i.kind, i.value) for i in items}) == len(items), (game, seats)
            assert set(binding.needed_kinds) <= {i.kind for i in items} <= set(binding.kind_words)
            for item in items:
                assert item.count >= 1 and item.en and item.ko and item.en != item.ko
                check_card({"uid": uid(1), "game": game, "kind": item.kind, "value": item.value,
                            "label": f"{item.en} {item.count}/{item.count}"})
    assert sum(i.count for i in get_binding(SH).deck_list(10)) == 37  # 17 tiles, 10 ballot pairs
    gd = get_binding("gangsters_dilemma").deck_list(7)
    assert [sum(i.count for i in gd if i.kind == k) for k in ("gangster", "police", "demand")] == [42, 6, 18]


def test_a_tap_enrolls_the_component_named_next_and_a_known_tag_is_named_not_enrolled_twice(rt: Runtime) -> None:
    assert isinstance(host_call(rt.loop, "guide_start", game=SH, seats=5), dict)
    assert guide(rt)["next"]["en"] == "Liberal policy 1/6" and guide(rt)["next"]["ko"] == "자유 정책 1/6"
    for n in range(1, 8):
        tap(rt, "r0", uid(n))
    g = guide(rt)
    assert g["done"] == 7 and g["next"]["en"] == "Fascist policy 2/11"
    assert g["last"] == {"result": "enrolled", "zone": "seat:0", "en": "Fascist policy 1/11", "ko": "파시즘 정책 1/11"}
    assert rt.loop.cards.get(uid(7)).label == "Fascist policy 1/11"  # type: ignore[union-attr]
    tap(rt, "r2", uid(3))  # already enrolled: named, the cursor stays
    g = guide(rt)
    assert g["done"] == 7 and g["last"]["result"] == "known" and g["last"]["en"] == "Liberal policy 3/6"
    assert len(cards_of(rt, SH)) == 7
    kinds = {k["kind"]: (k["done"], k["total"]) for k in g["kinds"]}
    assert kinds == {"policy": (7, 17), "ballot": (0, 10)}


def test_skip_and_undo_and_a_guide_that_picks_up_where_it_stopped(rt: Runtime) -> None:
    host_call(rt.loop, "guide_start", game=SH, seats=5)
    tap(rt, "r0", uid(1))
    assert host_call(rt.loop, "guide_skip")["guide"]["next"]["en"] == "Liberal policy 3/6"
    tap(rt, "r0", uid(2))
    assert rt.loop.cards.get(uid(2)).label == "Liberal policy 3/6"  # type: ignore[union-attr]
    undone = host_call(rt.loop, "guide_undo")["guide"]
    assert undone["next"]["en"] == "Liberal policy 3/6" and rt.loop.cards.get(uid(2)) is None
    assert host_call(rt.loop, "guide_undo")["guide"]["next"]["en"] == "Liberal policy 2/6"  # the skip taken back
    host_call(rt.loop, "guide_undo")
    assert host_call(rt.loop, "guide_undo") == Refusal("nothing_to_undo", "Nothing enrolled or skipped here to "
                                                                          "take back.")
    tap(rt, "r0", uid(1))
    host_call(rt.loop, "guide_stop")
    assert rt.loop.enrolling is False and host_call(rt.loop, "host_state")["guide"] is None
    restarted = host_call(rt.loop, "guide_start", game=SH, seats=5)["guide"]  # the enrolled tile fills its slot
    assert restarted["done"] == 1 and restarted["next"]["en"] == "Liberal policy 2/6"


def test_bad_input_changes_nothing(rt: Runtime) -> None:
    before = host_call(rt.loop, "host_state")
    for args, code in (({"game": "chess", "seats": 5}, "unknown_game"), ({"game": SH, "seats": 3}, "bad_seat_count"),
                       ({"game": SH, "seats": True}, "bad_seat_count"), ({"game": SH, "seats": 5, "mode": "x"},
                                                                         "bad_field")):
        refusal = host_call(rt.loop, "guide_start", **args)
        assert isinstance(refusal, Refusal) and refusal.code == code, (args, refusal)
    for name in ("guide_skip", "guide_undo", "guide_mode"):
        refusal = host_call(rt.loop, name, mode="check")
        assert isinstance(refusal, Refusal) and refusal.code == "no_guide"
    after = host_call(rt.loop, "host_state")
    assert (after["guide"], after["enrolling"], after["cards"]) == (before["guide"], before["enrolling"], 0)


def test_check_mode_names_tags_and_the_reader_confirms_in_colour(rt: Runtime) -> None:
    host_call(rt.loop, "guide_start", game=SH, seats=5)
    flashes: list[Flash] = []
    real = rt.loop.effects.run_effect

    def spy(effect: Any, *rest: Any) -> None:
        if isinstance(effect, Flash):
            flashes.append(effect)
        real(effect, *rest)

    rt.loop.effects.run_effect = spy  # type: ignore[method-assign]
    tap(rt, "r1", uid(1))
    host_call(rt.loop, "guide_mode", mode="check")
    tap(rt, "r1", uid(1))
    assert guide(rt)["last"]["result"] == "known"
    tap(rt, "r1", uid(2))
    assert guide(rt)["last"] == {"result": "unknown", "zone": "seat:1", "en": "", "ko": ""}
    assert rt.loop.cards.get(uid(2)) is None  # checking enrolls nothing
    assert [f.colour for f in flashes] == [GREEN, WHITE, RED] and {f.zone for f in flashes} == {"seat:1"}
    assert CONFIRM[TapResult.ENROLLED] == GREEN


def test_verify_deck_finds_a_removed_card_and_an_unknown_tag(rt: Runtime) -> None:
    host_call(rt.loop, "guide_start", game=SH, seats=5)
    for n in range(1, 28):
        tap(rt, f"r{n % 5}", uid(n))
    assert guide(rt)["next"] is None
    host_call(rt.loop, "guide_mode", mode="verify")
    for n in [*range(27, 0, -1)]:
        if n != 9:  # Fascist policy 3/11 went missing
            tap(rt, "r0", uid(n))
    tap(rt, "r0", uid(99))
    report = guide(rt)["verify"]
    assert report["complete"] is False and report["unknown"] == 1
    policy = next(k for k in report["kinds"] if k["kind"] == "policy")
    assert (policy["seen"], policy["total"]) == (16, 17)
    assert policy["missing"] == [{"en": "Fascist policy", "ko": "파시즘 정책", "count": 1}]
    ballots = next(k for k in report["kinds"] if k["kind"] == "ballot")
    assert ballots["missing"] == [] and ballots["seen"] == 10


def test_a_physical_game_starts_only_with_the_kinds_it_reads_enrolled(rt: Runtime) -> None:
    refusal = host_call(rt.loop, "new_game", game=SH, seats=5, components="physical", replace=True)
    assert isinstance(refusal, Refusal) and refusal.code == "deck_incomplete"
    assert refusal.params["missing"] == {"en": "policy tiles", "ko": "정책 타일"}
    running = rt.loop.session
    host_call(rt.loop, "guide_start", game=SH, seats=5)
    for n in range(1, 17):  # one fascist tile short
        tap(rt, "r0", uid(n))
    host_call(rt.loop, "guide_stop")
    refusal = host_call(rt.loop, "new_game", game=SH, seats=5, components="physical", replace=True)
    assert isinstance(refusal, Refusal) and refusal.code == "deck_incomplete" and rt.loop.session is running
    assert start_check(SH, 5, rt.loop.cards.all()) is not None
    host_call(rt.loop, "guide_start", game=SH, seats=5)
    tap(rt, "r0", uid(17))  # ballots are not needed: votes may come by button, terminal or phone
    host_call(rt.loop, "guide_stop")
    started = host_call(rt.loop, "new_game", game=SH, seats=5, components="physical", replace=True)
    assert isinstance(started, dict) and rt.loop.session.components == "physical"  # type: ignore[union-attr]
    assert host_call(rt.loop, "new_game", game=SH, seats=5, components="digital", replace=True)["accepted"] >= 1
