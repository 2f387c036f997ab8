"""Publish-cycle cost per game: one whole publish as the table core does it after an accepted action (public
view, table info, LED scene, snapshot, every seat's view part and prompt), at the game's largest seat count,
in CPU microseconds; for a game whose digital components change its engine options (`Binding.mode_options`,
e.g. every hand known to the table), the same with those options too."""

from __future__ import annotations

import gc
import random
import statistics
import time
from dataclasses import replace
from typing import Any, Mapping

from companion.config import demo_config
from companion.games.binding import Card, get_binding
from companion.games.log import Log
from companion.games.playout import choose_action
from companion.games.registry import game_names, get_rules
from companion.table.core.outputs import publish
from companion.table.core.state import Context, TableState, TableStatus
from companion.table.core.values import evolve
from companion.table.records import GameRecord
from companion.table.session import Components, Session
from companion.table.terminals import TerminalBook

STATES = 300
"""States sampled per game (random play, a new game whenever one ends)."""


class _NoCards:
    """An empty card registry (publishing reads none)."""

    def get(self, uid: str) -> Card | None:
        return None

    def all(self) -> list[Card]:
        return []


class _NoJournal:
    """An empty journal (publishing reads none)."""

    def game(self, game_id: int) -> GameRecord | None:
        return None

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        return []

    def next_game_id(self) -> int:
        return 1


def digital_options(game: str) -> dict[str, Any]:
    """The engine options a game's digital components set (its binding's `table_options` from no host option and
    no enrolled card); empty for a game whose components change no option."""
    return get_binding(game).table_options({}, [], Components.DIGITAL)


def sample_states(game: str, seats: int, rng: random.Random, count: int = STATES,
                  options: Mapping[str, Any] | None = None) -> list[Any]:
    """`count` engine states met in random play of `game` at `seats` seats (with `options`), in play order."""
    rules = get_rules(game)
    states: list[Any] = []
    state = rules.initial_state(seats, dict(options or {}))
    while len(states) < count:
        if not rules.to_act(state):
            state = rules.initial_state(seats, dict(options or {}))
        state = rules.apply(state, choose_action(rules, state, rng))
        states.append(state)
    return states


def table_states(game: str, seats: int, states: list[Any], ctx: Context,
                 options: Mapping[str, Any] | None = None) -> list[TableState]:
    """A running table at each engine state, holding the prompts the previous state's publish left (as the
    table does from tap to tap, so unchanged prompts are reused as they are there)."""
    cfg = ctx.config
    base = TableState(TerminalBook.start(cfg.terminal_seats(), {}, len(cfg.seats)), status=TableStatus.RUNNING)
    session = Session(1, get_rules(game), get_binding(game), seats, dict(options or {}), Components.DIGITAL, (), Log(),
                      states[0])
    out: list[TableState] = []
    prompts: Mapping[int, Mapping[str, Any]] = {}
    for state in states:
        table = replace(base, session=replace(session, state=state), prompts=prompts)
        out.append(table)
        prompts = publish(table, ctx)[0].prompts
    return out


def publish_us(game: str, seed: int = 1, repeats: int = 7, options: Mapping[str, Any] | None = None) -> float:
    """CPU microseconds of one publish at the game's largest seat count: per sampled state the least of
    `repeats` runs (a shared machine only ever adds time), then the median over the states. Each run plays
    the states in order, every publish given the prompts the one before it left, as in a running table (an
    unchanged prompt's info is then the very object the memo hands out again, not an equal copy from an
    earlier pass). `options`: the engine's (its defaults when None)."""
    seats = get_rules(game).max_seats
    cfg = demo_config()
    ctx = Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(seed), boot="bench",
                  reader_zones=cfg.reader_zones())
    tables = table_states(game, seats, sample_states(game, seats, random.Random(seed), options=options), ctx, options)
    best = [float("inf")] * len(tables)
    # The sampled tables are the bench's, not a running table's heap: kept out of the collector's scans.
    gc.collect()
    gc.freeze()
    try:
        for _ in range(repeats):
            prompts = tables[0].prompts
            for i, table in enumerate(tables):
                table = evolve(table, prompts=prompts)
                t0 = time.thread_time_ns()
                after = publish(table, ctx)[0]
                best[i] = min(best[i], time.thread_time_ns() - t0)
                prompts = after.prompts
    finally:
        gc.unfreeze()
    return round(statistics.median(best) / 1000, 1)


def publish_figures(seed: int = 1) -> dict[str, dict[str, float]]:
    """`publish_us`: {game: CPU microseconds of one whole publish at its largest seat count}, and
    {"<game>.digital": the same} for each game whose digital components set engine options."""
    figures = {name: publish_us(name, seed) for name in game_names()}
    for name in game_names():
        options = digital_options(name)
        if options:
            figures[f"{name}.digital"] = publish_us(name, seed, options=options)
    return {"publish_us": figures}
