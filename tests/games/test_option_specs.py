"""House-rule declarations agree with the engines: the ranges and ids a form offers are what initial_state takes."""

from __future__ import annotations

import pytest

from companion.games import game_names, get_rules
from companion.games.option_spec import OptionSpec, OptionType, option_specs, spec_for


@pytest.mark.parametrize("game", game_names())
def test_every_option_has_a_declaration_and_its_bounds_hold(game: str) -> None:
    rules = get_rules(game)
    specs = option_specs(rules)
    assert set(specs) == set(rules.option_defaults)
    seats = rules.max_seats
    for name, spec in specs.items():
        default = rules.option_defaults[name]
        if spec.type is OptionType.INT and spec.min is not None:
            rules.initial_state(seats, {name: spec.min})
            with pytest.raises(ValueError, match=name):
                rules.initial_state(seats, {name: spec.min - 1})
        if spec.type is OptionType.INT and spec.max is not None:
            rules.initial_state(seats, {name: spec.max})
            with pytest.raises(ValueError, match=name):
                rules.initial_state(seats, {name: spec.max + 1})
        if spec.type is OptionType.SUBSET:
            assert set(default) <= set(spec.choices)
            rules.initial_state(seats, {name: list(spec.choices)})
            with pytest.raises(ValueError, match=name):
                rules.initial_state(seats, {name: [*spec.choices, "no_such_id"]})
        if spec.type is OptionType.BOOL:
            assert isinstance(default, bool)


def test_undeclared_options_are_typed_by_their_default_and_stray_declarations_refused() -> None:
    assert spec_for(True).type is OptionType.BOOL and spec_for(3).type is OptionType.INT
    assert spec_for(None).type is OptionType.JSON and spec_for(("a",)).type is OptionType.JSON
    assert OptionSpec(OptionType.INT, 1, 12).to_json() == {"type": "int", "min": 1, "max": 12}

    class Stray:
        name = "stray"
        option_defaults = {"a": 1}
        option_specs = {"b": OptionSpec(OptionType.BOOL)}

    with pytest.raises(ValueError, match="stray"):
        option_specs(Stray())
