"""The games kit: every game declares what it writes and refuses, in one file layout with the same names."""

from __future__ import annotations

import importlib
import random
from enum import StrEnum
from pathlib import Path

import pytest

import companion.games
from companion.games import game_names, get_rules
from companion.games.binding import Effect, Light, get_binding
from companion.games.contract import BINDING_CODES, COMMON_CODES, Described
from companion.games.playout import choose_action
from companion.games.registry import get_game

GAMES_DIR = Path(companion.games.__file__).parent
LAYOUT = ("__init__.py", "RULINGS.md", "board.js")
"""What every game package has (companion/games/README.md, "Adding a game"): its declaration, its rulings and its
board on the page; how it splits its engine into modules is its own choice (the big games keep one per concern)."""
EXPORTS = {"GAME"}


def played(game: str, seeds: range) -> list[tuple[object, object]]:
    """(state, outcome) at the end of random games at every seat count."""
    rules = get_rules(game)
    out = []
    for seats in range(rules.min_seats, rules.max_seats + 1):
        for seed in seeds:
            rng = random.Random(seed)
            state = rules.initial_state(seats)
            steps = 0
            while rules.to_act(state) and steps < 20_000:
                state = rules.apply(state, choose_action(rules, state, rng))
                steps += 1
            out.append((state, rules.outcome(state)))
    return out


@pytest.mark.parametrize("game", game_names())
def test_every_log_code_an_engine_writes_is_declared_with_its_params(game: str) -> None:
    rules = get_rules(game)
    written: set[str] = set()
    for state, _ in played(game, range(min(6, getattr(get_rules(game), "quick_playout_seeds", 6)))):
        for entry in state.log:
            params = entry.params
            names = tuple(k for k, _ in params) if isinstance(params, tuple) else tuple(params)
            assert entry.code in rules.log_codes, f"{game} writes undeclared log code {entry.code!r}"
            assert names == rules.log_codes[entry.code], f"{game} {entry.code}: params {names}"
            written.add(entry.code)
    assert len(written) >= len(rules.log_codes) * 2 // 3, sorted(set(rules.log_codes) - written)


@pytest.mark.parametrize("game", game_names())
def test_phases_and_outcome_reasons_are_enums(game: str) -> None:
    rules = get_rules(game)
    assert issubclass(rules.phase_type, Described) and issubclass(rules.reason_type, StrEnum)
    assert dict(rules.phases) == {p.value: p.text for p in rules.phase_type}
    assert all(text.endswith(".") for text in rules.phases.values())
    for state, outcome in played(game, range(1)):
        assert isinstance(state.phase, rules.phase_type)
        assert isinstance(rules.view(state)["phase"], str) and type(rules.view(state)["phase"]) is str
        assert outcome is not None and isinstance(outcome.reason, rules.reason_type)
        assert outcome.reason in rules.outcome_reasons


@pytest.mark.parametrize("game", game_names())
def test_the_binding_codes_are_the_rules_declaration(game: str) -> None:
    rules, binding = get_rules(game), get_binding(game)
    assert dict(binding.codes) == rules.binding_codes
    assert set(BINDING_CODES) <= set(rules.binding_codes)


@pytest.mark.parametrize("game", game_names())
def test_the_codes_shown_to_everyone_are_declared_codes(game: str) -> None:
    """Public codes are some of the game's own (tests/leaks checks each against twins whose hidden facts differ)."""
    rules = get_rules(game)
    assert isinstance(rules.own_public_codes, frozenset) and rules.own_public_codes <= set(rules.own_codes)
    assert isinstance(rules.public_binding_codes, frozenset) and rules.public_binding_codes <= set(rules.binding_codes)
    assert rules.public_codes == frozenset(COMMON_CODES) | rules.own_public_codes


@pytest.mark.parametrize("game", game_names())
def test_one_file_layout_and_the_same_names(game: str) -> None:
    package = GAMES_DIR / game
    assert all((package / name).exists() for name in LAYOUT), [n for n in LAYOUT if not (package / n).exists()]
    module = importlib.import_module(f"companion.games.{game}")
    assert EXPORTS <= set(module.__all__)
    declared = get_game(game)
    assert module.GAME is declared and declared.id == game and declared.folder == package
    assert declared.rules is get_rules(game) and declared.binding is get_binding(game)
    for path in package.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 500, path


def test_an_unknown_led_effect_is_an_error() -> None:
    assert Light((1, 2, 3), "pulse").effect is Effect.PULSE
    assert Light((1, 2, 3)).effect == "solid"
    with pytest.raises(ValueError, match="'sparkle'"):
        Light((1, 2, 3), "sparkle")  # type: ignore[arg-type]



def test_a_package_without_its_declaration_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry finds every package under companion/games/; one that does not declare GAME is refused by name."""
    from companion.games import registry
    from companion.games.declaration import DeclarationError

    (tmp_path / "pirates").mkdir()
    (tmp_path / "pirates" / "__init__.py").write_text('"""A game in the making."""\n')
    (tmp_path / "notes").write_text("not a package")
    assert registry.discover(tmp_path, "somewhere") == {"pirates": "somewhere.pirates"}
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.GAMES, "pirates", "pirates")
    with pytest.raises(DeclarationError, match="must declare GAME"):
        registry.get_game("pirates")
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        registry.get_game("nope")
