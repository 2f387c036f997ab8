"""A seat terminal names a card in words, as the seat's phone does ("put green bill 200 CU", never "put red50a"):
every label a terminal can show (the option's short label, its kind and item, and the screens of a small
terminal's two-level menus) over random playouts of every registered game with digital components holds no card
id of any catalogue the views carry, no snake_case key and no placeholder."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.games import CHANCE, get_rules
from companion.games.binding import get_binding
from companion.games.contract import Components
from companion.games.memo import Memo
from companion.games.registry import game_names, get_game
from companion.games.schema import FieldKind
from companion.hal.terminal_screens import Capability, Place, layout, screen_at
from companion.table.core.outputs import card_names, catalogues
from companion.table.prompts import options_of
from tests.web.pages.visible import PLACEHOLDER, SNAKE

STEPS = 400
SEEDS = 3
SMALL = Capability(version=2, screen=4, display=True)
"""A terminal of four options a screen: long prompts take its two-level menus."""


def shown(options: list[dict[str, Any]]) -> list[str]:
    """Every text a terminal may show for these options: each option's labels and every screen of a small
    terminal's layout."""
    texts = [str(o[k]) for o in options for k in ("short", "item", "group")]
    plan = layout(options, SMALL)
    if plan is not None:
        for menu in (-1, *range(len(plan.groups))):
            title, entries = screen_at(plan, Place(menu=menu), SMALL)
            texts += [title, *(label for _, label in entries)]
    return texts


def playout_labels(game: str, seats: int, seed: int) -> tuple[list[str], set[str], int]:
    """Labels of every acting seat's prompt over one digital playout, the card ids its views named, and how many
    option labels named a card."""
    rules, binding = get_rules(game), get_binding(game)
    options = binding.table_options({}, [], Components.DIGITAL)
    state = rules.initial_state(seats, options)
    rng = random.Random(seed)
    names = [f"Seat {i + 1}" for i in range(seats)]
    seat_fields = get_game(game).fields.of_kind(FieldKind.SEAT)
    catalogue_fields = get_game(game).fields.catalogues()
    labels: list[str] = []
    ids: set[str] = set()
    named = 0
    for _ in range(STEPS):
        acting = rules.to_act(state)
        if not acting:
            break
        if acting == frozenset({CHANCE}):
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        view, parts = rules.views(state, Memo())
        shared = catalogues(catalogue_fields, view)
        for seat in sorted(acting):
            legal = rules.legal_actions(state, seat) + binding.choices(state, seat, Components.DIGITAL)
            cards = card_names(catalogue_fields, binding, shared, parts[seat])
            if cards is not None:
                ids.update(k for catalogue, _ in cards.catalogues for k in catalogue)
            built = options_of(legal, names, seat_fields, cards=cards)
            named += sum(o["label"] != o["short"] or any(
                cards is not None and type(v) is str and cards.get(v) for v in o["action"].values()) for o in built)
            labels += shown(built)
        seat = rng.choice(sorted(acting))
        state = rules.apply(state, rng.choice(rules.legal_actions(state, seat)))
    return labels, ids, named


@pytest.mark.parametrize("game", game_names())
def test_no_terminal_label_names_a_card_by_its_id(game: str) -> None:
    rules = get_rules(game)
    problems: list[str] = []
    cards_named = catalogued = 0
    for seats in sorted({rules.min_seats, rules.max_seats}):
        for seed in range(SEEDS):
            labels, ids, named = playout_labels(game, seats, seed)
            cards_named += named
            catalogued += len(ids)
            words = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True)))
                               + r")(?![\w-])") if ids else None
            for text in set(labels):
                bad = [m.group() for r in (PLACEHOLDER, SNAKE) for m in r.finditer(text)]
                if words is not None:
                    bad += [m.group() for m in words.finditer(text)]
                if bad:
                    problems.append(f"{seats} seats, seed {seed}: {text!r} shows {bad}")
    assert not problems, "\n".join(sorted(set(problems))[:20])
    if catalogued:
        assert cards_named, f"{game}: its views carry cards, yet no terminal label named one"


def test_a_digital_boss_wallet_put_names_the_card_as_the_phone_does() -> None:
    """The case the issue met: "put red50a" on a terminal, where the phone said "red bill 50 CU"."""
    binding = get_binding("boss_wallet")
    assert binding.card_words({"type": "bill", "value": 200, "currency": "green"}, "bill") == "green bill 200 CU"
    assert binding.card_words({"type": "id", "person": "john_smith", "extra": True}, "id") == \
        "extra ID card: John Smith"
    labels, ids, _ = playout_labels("boss_wallet", 4, 1)
    puts = [text for text in labels if text.startswith("put ") and not re.fullmatch(r"put (\(\d+\)|\d+/\d+)", text)]
    assert puts and all(" CU" in text or "card" in text or "badge" in text for text in puts), puts[:10]
