"""Boss's Wallet's publish pieces (`boss_wallet.publish`) change nothing, byte for byte: over random walks
(undos, new games, other seat counts) the one-pass log renderer says what `log_view` and `card_ids` say, each
seat's part is `private_part` of its `seat_own`, views built from the last publish's pieces equal fresh ones
whichever earlier state they were built from, and the scene's reused seat lights equal a fresh scene."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.games.boss_wallet import BINDING, RULES
from companion.games.boss_wallet.publish import Built, _rebuilt, _built, part, render
from companion.games.boss_wallet.state import Phase
from companion.games.boss_wallet.views import card_ids, log_view, seat_own
from companion.games.memo import Memo
from companion.games.rules import private_part
from tests.games.test_publish_memo import walk

SEEDS = range(3)


def _bytes(value: Any) -> str:
    """The JSON a page receives (keys in their order)."""
    return json.dumps(value, default=repr)


@pytest.mark.parametrize("seed", SEEDS)
def test_render_is_log_view_and_its_named_catalogue_entries(seed: int) -> None:
    for state in walk("boss_wallet", seed, 400):
        catalogue = state.cfg.catalogue
        for reveal_all in (False, True):
            entries = list(state.log) if reveal_all else list(state.log[state.round_log:])
            rendered, named = render(entries, catalogue, reveal_all)
            plain = log_view(entries, None, reveal_all)
            assert _bytes(rendered) == _bytes(plain)
            ids = [c for e in plain for c in card_ids(e["params"])]
            assert list(named.items()) == list(state.cfg.entries(ids).items())


@pytest.mark.parametrize("seed", SEEDS)
def test_each_part_is_the_private_part_of_seat_own(seed: int) -> None:
    for state in walk("boss_wallet", seed, 400):
        public = RULES.view(state, None)
        choice = dict(state.cfg.choice_entries)
        for seat in range(state.seats):
            mine = part(state, seat, public, choice)
            assert _bytes(mine) == _bytes(private_part(seat_own(state, seat, public), public))


@pytest.mark.parametrize("seed", SEEDS)
def test_views_rebuilt_from_any_earlier_state_equal_fresh_views(seed: int) -> None:
    rng = random.Random(seed)
    seen: list[tuple[Any, Built]] = []
    for state in walk("boss_wallet", seed, 400):
        if state.phase is Phase.GAME_OVER:
            continue
        built = _built(state)
        fresh_public, fresh_parts = RULES.views(state)
        assert _bytes(built.view) == _bytes(fresh_public) and _bytes(built.parts) == _bytes(fresh_parts)
        for was, old in rng.sample(seen, min(3, len(seen))):  # the last publish, or one before an undo
            if was.cfg is state.cfg:
                again = _rebuilt(state, was, old)
                assert _bytes(again.view) == _bytes(fresh_public), "public view from an earlier state's pieces"
                assert _bytes(again.parts) == _bytes(fresh_parts), "seat parts from an earlier state's pieces"
        seen = [*seen[-20:], (state, built)]


@pytest.mark.parametrize("seed", SEEDS)
def test_unchanged_fields_keep_their_pieces_and_a_finished_game_is_built_once(seed: int) -> None:
    memo = Memo()
    last = None
    for state in walk("boss_wallet", seed, 500):
        public, parts = RULES.views(state, memo)
        assert RULES.views(state, memo)[1] is parts, "the same state again: the very same parts"
        if last is not None and state.phase is not Phase.GAME_OVER and last[0].phase is not Phase.GAME_OVER \
                and last[0].cfg is state.cfg:
            was, was_public, was_parts = last
            if state.log is was.log and state.round_log == was.round_log:
                assert public["log"] is was_public["log"]
            if state.chips is was.chips and state.hands is was.hands and state.extras is was.extras \
                    and state.held is was.held and state.credit_drawn is was.credit_drawn \
                    and state.round_log == was.round_log and public["card_info"] is was_public["card_info"]:
                assert parts is was_parts, "no seat's inputs changed: the same parts"
        last = (state, public, parts)


@pytest.mark.parametrize("seed", SEEDS)
def test_scene_from_memoized_views_is_the_scene_of_a_fresh_view(seed: int) -> None:
    memo = Memo()
    for state in walk("boss_wallet", seed, 500):
        seats = RULES.seat_count(state)
        public = RULES.views(state, memo)[0]
        for _ in range(2):  # the very lists of the last view the second time
            scene = BINDING.cached_scene(public, seats, (), memo)
            assert list(scene.items()) == list(BINDING.scene(RULES.view(state, None), seats, ()).items())
