"""Thief of Baghdad's fast publish paths say what the plain ones say: who acts and the legal actions against
the base Rules' definitions, a palace's light against the Light built field by field, and the scene kept by
the palaces list's identity against fresh scenes, over random walks (undos, new games, other seat counts)."""

from __future__ import annotations

import random
from typing import Any

from companion.games import get_rules
from companion.games.binding import Effect, Light, get_binding
from companion.games.contract import CHANCE
from companion.games.memo import Memo
from companion.games.rules import Rules
from companion.games.thief_of_baghdad.binding import (
    CHEST_PIXELS, DARK, CHEST_ROWS, GUARD_SPACES, NEUTRAL_RGB, PALACE_RGB, SEAT_RGB, THIEF_PIXELS, WHITE,
    palace_light, solid,
)
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.state import State
from tests.games.test_publish_memo import COLOURS, rng_colours, walk
from tests.games.test_tb_publish_caches import dumped

RULES = get_rules("thief_of_baghdad")
BINDING = get_binding("thief_of_baghdad")


def reference_to_act(state: State) -> frozenset[int]:
    """Who acts, as the engine said it before the prebuilt sets."""
    if state.phase is Phase.DEAL or state.phase is Phase.DRAW:
        return frozenset({-1})
    if state.phase is Phase.OVER:
        return frozenset()
    return frozenset({state.turn})


def reference_light(palace: dict[str, Any], own: tuple[Any, ...]) -> Light:
    """A palace's light as it was drawn with comprehensions into `Light(...)`."""
    n = len(own)
    guards = [NEUTRAL_RGB if g == "neutral" else own[int(g) % n] for g in palace.get("guards") or ()][:GUARD_SPACES]
    thieves = [own[s % n] for s, k in enumerate(palace.get("thieves") or ()) if k for _ in range(int(k))][:THIEF_PIXELS]
    chests = min(len(palace.get("chests") or ()), CHEST_PIXELS)
    return Light(PALACE_RGB.get(palace.get("color", "white"), WHITE),
                 pixels=(*guards, *DARK[GUARD_SPACES - len(guards)], *thieves, *DARK[THIEF_PIXELS - len(thieves)],
                         *CHEST_ROWS[chests]))


def test_who_acts_and_the_legal_actions_are_the_base_rules_ones() -> None:
    checked = 0
    for seed in range(3):
        for state in walk("thief_of_baghdad", seed, 600):
            acting = RULES.to_act(state)
            assert acting == reference_to_act(state) and type(acting) is frozenset
            for seat in (CHANCE, *range(state.seats), state.seats, True):
                got = RULES.legal_actions(state, seat)  # type: ignore[arg-type]
                assert dumped(got) == dumped(Rules.legal_actions(RULES, state, seat))  # type: ignore[arg-type]
                checked += bool(got)
    assert checked > 400


def test_a_light_set_at_once_is_the_light_built_field_by_field() -> None:
    made = solid((1, 2, 3), ((4, 5, 6), (0, 0, 0)))
    plain = Light((1, 2, 3), pixels=((4, 5, 6), (0, 0, 0)))
    assert made == plain and hash(made) == hash(plain) and type(made) is Light
    assert vars(made) == vars(plain) and made.effect is Effect.SOLID


def test_palace_lights_are_the_reference_ones_for_odd_palaces_too() -> None:
    rng = random.Random(3)
    owners: list[Any] = [0, 1, 2, 3, 5, -1, "neutral", True, 2.0, "1"]
    for _ in range(3000):
        palace = {"color": rng.choice(("red", "blue", "pink", "white")),
                  "guards": [rng.choice(owners) for _ in range(rng.randrange(6))],
                  "thieves": [rng.choice((0, 0, 1, 2, 5, -1, 1.0)) for _ in range(rng.randrange(6))],
                  "chests": list(range(rng.randrange(7)))}
        if rng.random() < 0.1:
            del palace[rng.choice(list(palace))]
        own = SEAT_RGB[: rng.randrange(1, 5)] if rng.random() < 0.5 else tuple(COLOURS[: rng.randrange(1, 11)])
        assert palace_light(palace, own) == reference_light(palace, own)


def test_the_scene_kept_by_identity_is_the_fresh_scene() -> None:
    for seed in range(3):
        memo = Memo()
        for step, state in enumerate(walk("thief_of_baghdad", seed, 500)):
            public, _ = RULES.views(state, memo)
            fresh = RULES.view(state, None)
            colours = COLOURS[: rng_colours(step)]
            if step % 7 == 0:  # equal colours that are another object
                colours = tuple(list(colours))
            for view in (public, {**public, "palaces": [dict(p) for p in public["palaces"]]}):
                assert BINDING.cached_scene(view, state.seats, colours, memo) == \
                    BINDING.scene(fresh, state.seats, colours), f"seed {seed} step {step}"
