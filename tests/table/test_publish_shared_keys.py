"""Choice keys (`Rules.choices_key`, `Binding.choices_key`): a seat whose key is the same offers the same
choices, and a publish that keeps prompts by their keys says exactly what a publish from an empty memo says,
along random walks of every game, jumps between unrelated states (as the bench's) and repeated publishes."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Hashable

import pytest

from companion.bench.publish import table_states
from companion.config import demo_config
from companion.games.binding import Binding, get_binding
from companion.games.contract import CHANCE
from companion.games.memo import Memo
from companion.games.registry import game_names, get_rules
from companion.games.rules import Rules
from companion.table.core.outputs import KEYS_SLOT, choice_keys, publish
from companion.table.core.state import Context, TableState
from tests.games.test_publish_memo import walk
from tests.table.test_publish_prompts import _NoCards, _NoJournal


def _context() -> Context:
    """A table context over the demo config."""
    cfg = demo_config()
    return Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(5), boot="test", reader_zones=cfg.reader_zones())


def _check(table: TableState, ctx: Context, game: str, step: int) -> TableState:
    """Publish `table` with its carried memo and with an empty one; both must say the same. The warm table."""
    assert table.session is not None
    warm, warm_effects = publish(table, ctx)
    cold, cold_effects = publish(replace(table, session=replace(table.session, memo=Memo())), ctx)
    assert warm_effects == cold_effects, f"{game} step {step}: what the publish sends"
    assert warm.prompts == cold.prompts and warm.ballots == cold.ballots, f"{game} step {step}: prompts"
    return warm


@pytest.mark.parametrize("game", game_names())
def test_equal_choice_keys_mean_equal_choices(game: str) -> None:
    rules, binding = get_rules(game), get_binding(game)
    seen: dict[tuple[int, Hashable], list[dict[str, Any]]] = {}
    for state in walk(game, 21, 600):
        acting = rules.to_act(state)
        for seat in range(rules.seat_count(state)):
            if seat in acting and seat != CHANCE:
                key = rules.choices_key(state, seat)
                if key is not None:
                    assert seen.setdefault((seat, key), rules.legal_actions(state, seat)) == \
                        rules.legal_actions(state, seat), f"{game}: seat {seat} key {key!r}"
            for mode in ("digital", "physical"):
                extra = binding.choices_key(state, seat, mode)
                if extra is not None:
                    choices = binding.choices(state, seat, mode)
                    assert seen.setdefault((seat, (mode, extra)), choices) == choices, f"{game}: {extra!r}"


@pytest.mark.parametrize("game", game_names())
def test_prompts_kept_by_key_equal_prompts_built_afresh(game: str) -> None:
    rules = get_rules(game)
    ctx = _context()
    table = table_states(game, rules.max_seats, [rules.initial_state(rules.max_seats)], ctx)[0]
    states = list(walk(game, 13, 300))
    rng = random.Random(2)
    jumps = rng.sample(states, len(states))  # unrelated states one after another, as the bench's
    for step, state in enumerate(states + jumps):
        assert table.session is not None
        session = replace(table.session, state=state, seats=rules.seat_count(state))  # the memo carries on
        table = _check(replace(table, session=session), ctx, game, step)
        if step % 7 == 0:  # the same state again (a tap the game refused): all kept
            again = _check(table, ctx, game, step)
            assert again.prompts is table.prompts, f"{game} step {step}: nothing changed"
            table = again


def test_secret_hitler_keeps_voters_prompts_by_key() -> None:
    game = "secret_hitler"
    rules = get_rules(game)
    ctx = _context()
    table = table_states(game, rules.max_seats, [rules.initial_state(rules.max_seats)], ctx)[0]
    voting = [s for s in walk(game, 4, 400) if s.phase.value == "vote" and len(s.pending) > 2]
    assert voting
    for state in voting:
        assert table.session is not None
        session = replace(table.session, state=state, seats=rules.seat_count(state))
        table = _check(replace(table, session=session), ctx, game, 0)
        assert table.session is not None
        last = table.session.memo.last(KEYS_SLOT)
        assert last is not None and last[0] is table.prompts
        assert set(state.pending) <= set(last[1]), "every voter's prompt is held under its key"


def test_a_game_without_keys_or_with_unkeyed_table_choices_is_asked_seat_by_seat() -> None:
    class Choosing(Binding):
        """A binding with table-side choices and no key for them."""

        def choices(self, state: Any, seat: int, mode: str) -> list[dict[str, Any]]:
            """One table-side choice."""
            return [{"type": "scanned", "seat": seat}]

    sh = get_rules("secret_hitler")
    assert choice_keys(sh, Binding(), False) is not None
    assert choice_keys(sh, Choosing(), True) is None
    for game in game_names():
        rules = get_rules(game)
        if type(rules).choices_key is Rules.choices_key:
            assert choice_keys(rules, get_binding(game), False) is None
