"""The wire encoder: orjson and the standard library give the same bytes for everything the table publishes."""

from __future__ import annotations

import enum
import json
import random

import orjson
import pytest

from companion.bench.publish import _NoCards, _NoJournal, sample_states, table_states
from companion.config import demo_config
from companion.games.registry import game_names, get_rules
from companion.table.bus import sse_frame
from companion.table.core.effects import PublishState, SendTerminal
from companion.table.core.outputs import publish
from companion.table.core.state import Context
from companion.table.wire_json import dumps, make_dumps, stdlib_dumps
from companion.web.facade import Event

FAST = make_dumps(orjson)


class Colour(enum.StrEnum):
    RED = "red"


def _published(game: str, seats: int, seed: int) -> list[object]:
    """Every snapshot and terminal message a table publishes over a random game's states."""
    cfg = demo_config()
    ctx = Context(cfg, _NoCards(), _NoJournal(), dict, random.Random(seed), boot="test",
                  reader_zones=cfg.reader_zones())
    out: list[object] = []
    for table in table_states(game, seats, sample_states(game, seats, random.Random(seed), 120), ctx):
        for effect in publish(table, ctx)[1]:
            if isinstance(effect, PublishState):
                out.append(effect.snapshot)
            elif isinstance(effect, SendTerminal):
                out.append(effect.message)
    return out


@pytest.mark.parametrize("game", game_names())
def test_both_encoders_spell_every_published_snapshot_and_prompt_alike(game: str) -> None:
    rules = get_rules(game)
    for seats, seed in ((rules.min_seats, 1), (rules.max_seats, 2)):
        values = _published(game, seats, seed)
        assert len(values) >= 120
        for value in values:
            fast = FAST(value)
            assert fast == stdlib_dumps(value)
            assert json.loads(fast) == json.loads(json.dumps(value))


def test_edge_values_encode_alike_and_what_orjson_refuses_still_encodes() -> None:
    values = [
        {"이름": "비밀 히틀러", "emoji": "🎲", "quote": 'say "ja"\n', "tab": "\t\u0001"},
        {1: "one", 2: [True, False, None]},
        {"status": Colour.RED, "pair": (1, 2), "nested": [[], {}, [{}]]},
        {"floats": [0.1, 1.5, -2.25, 1764612345.123456, 0.0, 3.0], "ints": [0, -1, 2**63 - 1, -(2**63)]},
    ]
    for value in values:
        assert FAST(value) == stdlib_dumps(value)
    big = {"n": 2**70}
    assert FAST(big) == stdlib_dumps(big) == b'{"n":1180591620717411303424}'


def test_what_neither_can_encode_is_a_type_error_from_both() -> None:
    for encode in (FAST, stdlib_dumps):
        with pytest.raises(TypeError):
            encode({"x": object()})


def test_the_table_uses_orjson_here_and_frames_are_utf8_sse() -> None:
    assert make_dumps(None) is stdlib_dumps
    assert dumps is not stdlib_dumps and dumps.__module__ == "companion.table.wire_json"
    frame = sse_frame(Event("b-7", "state", {"이름": "히틀러"}))
    assert frame == 'id: b-7\nevent: state\ndata: {"이름":"히틀러"}\n\n'.encode()
