"""Boss's Wallet's publish caches change nothing, byte for byte: over random walks (undos, new games, other seat
counts) the memoized public view, seat parts, table info and LED scene serialize exactly as fresh builds do
(the same keys in the same order), whole publishes through the table core with the memo carried say what
publishes with an empty memo say (digital and physical components), and the shared prompt helpers they use
(option reuse, prompt infos, terminals by seat, legal actions) equal their plain definitions."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from companion.bench.publish import table_states
from companion.config import demo_config
from companion.games.binding import Light
from companion.games.boss_wallet import BINDING, RULES
from companion.games.boss_wallet.cards import SAMPLE_CARDS
from companion.games.boss_wallet.config import OPTION_DEFAULTS, build_config
from companion.games.boss_wallet.state import Phase
from companion.games.contract import CHANCE
from companion.games.memo import Memo
from companion.games.registry import get_game
from companion.games.schema import FieldKind
from companion.games.rules import Rules
from companion.table.core.effects import PublishState, SendTerminal, SetScene
from companion.table.core.outputs import part_infos, publish, reused_options, terminals_by_seat
from companion.table.core.state import Context
from companion.table.prompts import options_of, prompt_info

SEAT_FIELDS = get_game("boss_wallet").fields.of_kind(FieldKind.SEAT)
from companion.table.session import Components
from companion.table.terminals import TerminalBook
from tests.games.test_publish_memo import COLOURS, walk
from tests.table.test_publish_prompts import _NoCards, _NoJournal

SEEDS = range(4)


def _bytes(value: Any) -> str:
    """The JSON a page or terminal receives (keys in their order: a reordered dict would differ here)."""
    return json.dumps(value, default=repr)


@pytest.mark.parametrize("seed", SEEDS)
def test_memoized_views_serialize_as_fresh_views(seed: int) -> None:
    memo = Memo()
    for step, state in enumerate(walk("boss_wallet", seed, 600)):
        public, parts = RULES.views(state, memo)
        fresh_public, fresh_parts = RULES.views(state)
        assert _bytes(public) == _bytes(fresh_public), f"seed {seed} step {step}: public view"
        assert _bytes(parts) == _bytes(fresh_parts), f"seed {seed} step {step}: seat parts"
        assert _bytes(public) == _bytes(RULES.view(state)), f"seed {seed} step {step}: the public view itself"
        again, again_parts = RULES.views(state, memo)
        assert again_parts is parts, "the same state again: the very same parts"
        if state.phase is not Phase.GAME_OVER:  # a finished game's view is built whole (it shows the whole log)
            assert again["players"] is public["players"] and again["card_info"] is public["card_info"]


@pytest.mark.parametrize("seed", SEEDS)
def test_memoized_scene_and_info_equal_fresh_ones(seed: int) -> None:
    memo = Memo()
    for step, state in enumerate(walk("boss_wallet", seed, 600)):
        seats = RULES.seat_count(state)
        public = RULES.views(state, memo)[0]
        colours = COLOURS[: (0, 4, 10)[step % 3]]
        scene = BINDING.cached_scene(public, seats, colours, memo)
        assert list(scene.items()) == list(BINDING.scene(public, seats, colours).items()), f"step {step}: scene"
        assert _bytes(BINDING.cached_info(public, seats, memo)) == _bytes(BINDING.info(public, seats)), \
            f"seed {seed} step {step}: table info"


def _player(**fields: Any) -> dict[str, Any]:
    return {"chips": 1, "hand_size": 5, "scanned": False, "coin": 10, **fields}


@pytest.mark.parametrize("view", [
    {"phase": "turns", "turn": 2, "players": [_player() for _ in range(4)], "hourglasses": 3, "round": 2},
    {"phase": "turns", "turn": True, "players": [_player() for _ in range(4)]},  # a bool is drawn as scene does
    {"phase": "turns", "turn": 9, "players": [_player() for _ in range(4)]},  # past the last seat
    {"phase": "turns", "turn": -1, "players": [_player() for _ in range(4)]},
    {"phase": "turns", "turn": 1, "players": [_player(), _player(verdict="guilty")] + [_player()] * 2},
    {"phase": "turns", "turn": 3, "players": [_player()] * 2},  # fewer players than seats
    {"phase": "scan", "turn": 1, "asked": [0, 2], "players": [_player(scanned=True), _player()] * 2},
    {"phase": "credit", "asked": [3], "players": [_player(verdict=0)] * 4, "hourglasses": 9},  # a falsy verdict
    {"phase": "game_over", "round": 3, "players": []},
    {},
])
def test_cached_scene_of_odd_views_is_the_scene(view: dict[str, Any]) -> None:
    memo = Memo()
    for _ in range(2):  # a miss, then a hit
        assert BINDING.cached_scene(view, 4, (), memo) == BINDING.scene(view, 4, ())
    moved = {**view, "turn": 0}
    assert BINDING.cached_scene(moved, 4, (), memo) == BINDING.scene(moved, 4, ()), "only the turn moved"


@pytest.mark.parametrize("components", [Components.DIGITAL, Components.PHYSICAL])
def test_a_publish_with_the_carried_memo_says_byte_for_byte_what_a_cold_one_says(components: Components) -> None:
    cfg = demo_config()
    ctx = Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(3), boot="test",
                  reader_zones=cfg.reader_zones())
    table = table_states("boss_wallet", RULES.max_seats, [RULES.initial_state(RULES.max_seats)], ctx)[0]
    assert table.session is not None
    table = replace(table, session=replace(table.session, components=components))
    for step, state in enumerate(walk("boss_wallet", 17, 500)):
        assert table.session is not None
        session = replace(table.session, state=state, seats=RULES.seat_count(state))
        table = replace(table, session=session)
        warm, warm_effects = publish(table, ctx)
        cold, cold_effects = publish(replace(table, session=replace(session, memo=Memo())), ctx)
        assert [type(e) for e in warm_effects] == [type(e) for e in cold_effects]
        for mine, fresh in zip(warm_effects, cold_effects):
            if isinstance(mine, PublishState):
                assert _bytes(mine.snapshot) == _bytes(fresh.snapshot), f"step {step}: snapshot"
            elif isinstance(mine, SendTerminal):
                assert mine.terminal == fresh.terminal and _bytes(mine.message) == _bytes(fresh.message)
            else:
                assert isinstance(mine, SetScene) and mine == fresh, f"step {step}: scene"
        assert _bytes(warm.prompts) == _bytes(cold.prompts) and warm.ballots == cold.ballots, f"step {step}"
        table = warm


def test_reused_options_equal_options_built_anew() -> None:
    memo = Memo()
    names = ["Ann", "Bo", "", "Dee"]
    rng = random.Random(4)
    pool = [{"type": "draw", "seat": 1}, {"type": "put", "seat": 1}, {"type": "flip", "seat": 1}] + [
        {"type": "buy_id", "seat": 1, "paid": ["red250a", "green250a"], "id_card": f"extra_{i}"} for i in range(5)]
    for step in range(400):
        legal = [dict(a) for a in pool if rng.random() < 0.7] or [dict(pool[0])]
        legal.sort(key=lambda a: (a["type"] != "draw", a["type"] == "flip"))
        if step % 50 == 49:
            names = [*names[:3], f"name {step}"]  # other seat names: nothing reused
        options = reused_options(memo, 1, legal, list(names), SEAT_FIELDS)
        assert _bytes(options) == _bytes(options_of(legal, names, SEAT_FIELDS)), f"step {step}"
        assert reused_options(memo, 1, legal, names, SEAT_FIELDS) is options, "the same actions again: the same list"


def test_part_infos_equal_prompt_info_and_keep_an_equal_info_object() -> None:
    memo = Memo()
    first = ({"seat": 0, "card_info": {"a": {}}, "hand": ["x"]}, {"seat": 1, "hand": []})
    infos = part_infos(memo, first)
    assert list(infos) == [prompt_info(p) for p in first]
    assert part_infos(memo, first) is infos
    second = ({"seat": 0, "card_info": {"b": {}}, "hand": ["x"]}, first[1], {"seat": 2, "log": []})
    again = part_infos(memo, second)
    assert list(again) == [prompt_info(p) for p in second]
    assert again[0] is infos[0] and again[1] is infos[1], "an equal info stays the object a prompt holds"
    third = ({"seat": 0, "card_info": {}, "hand": ["y"]},)
    assert part_infos(memo, third) == (prompt_info(third[0]),)


def test_terminals_by_seat_is_terminal_of_for_every_seat() -> None:
    memo = Memo()
    book = TerminalBook.start({"T0": 0, "T1": 1, "T2": 1, "T3": 3}, {"T4": 2, "T0": None}, 5)
    serving = terminals_by_seat(memo, book)
    assert {s: serving.get(s) for s in range(5)} == {s: book.terminal_of(s) for s in range(5)}
    assert terminals_by_seat(memo, book) is serving
    other = TerminalBook.start({"T9": 4}, {}, 5)
    assert {s: terminals_by_seat(memo, other).get(s) for s in range(5)} == {s: other.terminal_of(s) for s in range(5)}


def test_legal_actions_equal_the_rules_definition() -> None:
    for state in walk("boss_wallet", 8, 500):
        for seat in (CHANCE, *range(RULES.seat_count(state) + 1)):
            assert RULES.legal_actions(state, seat) == Rules.legal_actions(RULES, state, seat)


def test_config_catalogue_is_each_cards_entry() -> None:
    cfg = build_config(OPTION_DEFAULTS, 5)
    assert dict(cfg.catalogue) == {c.id: c.entry() for c in SAMPLE_CARDS}
    assert all(cfg.catalogue[c.id] is c.entry() for c in SAMPLE_CARDS), "the cards' own shared entries"
    ids = [*cfg.extra_ids, *(cfg.payment or ())]
    assert list(cfg.choice_entries.items()) == list(cfg.entries(ids).items())
    assert cfg == build_config(OPTION_DEFAULTS, 5) and "catalogue" not in repr(cfg)
    assert Light((1, 2, 3)) == Light((1, 2, 3))  # the scene test's Light equality holds by value
