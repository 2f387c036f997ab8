"""Prompts in a publish, against a slow reference that rebuilds every seat's prompt from scratch: every seat's
prompt says what a fresh one says, a terminal is sent its seat's prompt exactly when it changed, and the ballot
id stays while the choices do."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Mapping

import pytest

from companion.bench.publish import sample_states, table_states
from companion.config import demo_config
from companion.games.registry import game_names, get_game, get_rules
from companion.table.core.effects import SendTerminal
from companion.table.core.outputs import card_names, catalogues, publish
from companion.table.core.state import Context
from companion.games.schema import FieldKind
from companion.table.prompts import prompt, prompt_info
from companion.table.terminals import IDLE


class _NoCards:
    def get(self, uid: str) -> None:
        return None

    def all(self) -> list[Any]:
        return []


class _NoJournal:
    def game(self, game_id: int) -> None:
        return None

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        return []

    def next_game_id(self) -> int:
        return 1


def _content(message: Mapping[str, Any]) -> dict[str, Any]:
    """A prompt message without its ballot id (which only says which ballot it is)."""
    return {k: v for k, v in message.items() if k != "ballot"}


@pytest.mark.parametrize("game", game_names())
def test_each_publish_sends_exactly_the_prompts_that_changed_and_they_match_a_fresh_build(game: str) -> None:
    rules = get_rules(game)
    cfg = demo_config()
    ctx = Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(2), boot="test",
                  reader_zones=cfg.reader_zones())
    names = [s.name for s in cfg.seats]
    seats = rules.max_seats
    table = table_states(game, seats, sample_states(game, seats, random.Random(5), 1), ctx)[0]
    for state in sample_states(game, seats, random.Random(5), 120):
        assert table.session is not None
        table = replace(table, session=replace(table.session, state=state))  # the prompts and ballots carry on
        session = table.session
        after, effects = publish(table, ctx)
        sent = {e.terminal: e.message for e in effects if isinstance(e, SendTerminal)}
        view, parts = rules.views(session.state)
        catalogue_fields = get_game(game).fields.catalogues()
        shared = catalogues(catalogue_fields, view)
        for seat in range(len(cfg.seats)):
            old, new = table.prompts.get(seat), after.prompts[seat]
            if seat < seats:
                legal = rules.legal_actions(session.state, seat)
                legal += session.binding.choices(session.state, seat, session.components)
                seat_fields = get_game(game).fields.of_kind(FieldKind.SEAT)
                fresh = prompt("reference", legal, names, seat_fields, prompt_info(parts[seat]),
                               cards=card_names(catalogue_fields, session.binding, shared, parts[seat]))
            else:
                fresh = dict(IDLE)
            assert _content(new) == _content(fresh), f"seat {seat}'s prompt is not what a fresh build says"
            changed = old is None or old != new
            assert (f"T{seat}" in sent) == changed, f"seat {seat}: sent {f'T{seat}' in sent}, changed {changed}"
            if changed:
                assert sent[f"T{seat}"] == new
            if old is not None and old.get("type") == new.get("type") == "prompt":
                same = [o["action"] for o in old["options"]] == [o["action"] for o in new["options"]]
                assert (old["ballot"] == new["ballot"]) == same, "the ballot id stays exactly while the choices do"
        if not sent and after.ballots == table.ballots:
            assert after.prompts == table.prompts
        table = after
