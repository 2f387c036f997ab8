"""The page's translations (web/i18n/<lang>.json) and the check that every code the engines use has both texts."""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from typing import Any, Iterable, Mapping

from companion.games.contract import BINDING_CODES, COMMON_CODES
from companion.games.playout import choose_action
from companion.games.registry import game_names, get_rules
from companion.web.site import LANGS, i18n_dir

PLACEHOLDER = re.compile(r"\{(\w+)\}")
SEAT_VIEW_EVERY = 3
ACTIONS_PER_SEAT_COUNT = 2000
"""Seeds are played per seat count until this many actions have been seen (at least one game)."""
MAX_STEPS = 20_000
"""Seat views (private log lines) are read every this many steps of a playout; the public view every step."""


@lru_cache(maxsize=4)
def load(lang: str) -> dict[str, Any]:
    """One language's texts (read once per process)."""
    return json.loads((i18n_dir() / f"{lang}.json").read_text(encoding="utf-8"))


def flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Dotted key -> text."""
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, Mapping):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def observed(game: str, seeds: Iterable[int] = range(4)) -> dict[str, set[str]]:
    """Codes seen in random playouts at every seat count, step by step (views may show only recent log
    lines): log codes of every viewer, outcome reasons, verdict reasons."""
    return {k: set(v) for k, v in _observed(game, tuple(seeds)).items()}


@lru_cache(maxsize=32)
def _observed(game: str, seeds: tuple[int, ...]) -> dict[str, frozenset[str]]:
    rules = get_rules(game)
    seen: dict[str, set[str]] = {"log": set(), "outcomes": set(), "reasons": set()}
    for seats in range(rules.min_seats, rules.max_seats + 1):
        played = 0
        for n, seed in enumerate(seeds):
            if n and played >= ACTIONS_PER_SEAT_COUNT:
                break  # long games (thousands of actions) need fewer seeds to show every code
            rng = random.Random(seed)
            state = rules.initial_state(seats)
            step = 0
            while rules.to_act(state) and step < MAX_STEPS:
                state = rules.apply(state, choose_action(rules, state, rng))
                step += 1
                # every seat's view every few steps: views keep at least a round or a dozen lines of log
                over = not rules.to_act(state)
                for viewer in (None, *range(seats)) if step % SEAT_VIEW_EVERY == 0 or over else (None,):
                    view = rules.view(state, viewer)
                    seen["log"] |= {entry["code"] for entry in view.get("log", [])}
                    players = view.get("players") if viewer is None else None
                    for player in players if isinstance(players, list) else []:
                        if isinstance(player, Mapping):
                            seen["reasons"] |= set(player.get("reasons") or ())
            played += step
            outcome = rules.outcome(state)
            if outcome is not None:
                seen["outcomes"].add(outcome.reason)
    return {k: frozenset(v) for k, v in seen.items()}


def required_keys(game: str, seeds: Iterable[int] = range(4)) -> set[str]:
    """Every dotted key the page needs for one game: what its Rules declare (codes, the binding's codes, log codes,
    actions, phases, options, outcome reasons) and the verdict reasons seen in playouts."""
    rules = get_rules(game)
    base = f"games.{game}"
    keys = {f"{base}.title"}
    keys |= {f"{base}.codes.{code}" for code in rules.own_codes}
    # Codes only the binding raises (engine and shared codes it reuses are translated where they already are).
    keys |= {f"{base}.codes.{code}" for code in set(rules.own_binding_codes) - set(rules.codes) - set(BINDING_CODES)}
    keys |= {f"{base}.actions.{kind}" for kind in rules.actions}
    keys |= {f"{base}.phases.{phase}" for phase in rules.phases}
    keys |= {f"{base}.options.{name}" for name in rules.option_defaults}
    keys |= {f"{base}.log.{code}" for code in rules.log_codes}
    keys |= {f"{base}.outcomes.{reason}" for reason in rules.outcome_reasons}
    seen = observed(game, seeds)
    keys |= {f"{base}.reasons.{reason}" for reason in seen["reasons"]}
    return keys


def common_codes() -> set[str]:
    """Refusal codes shared by every game and by the table and its API (translated under `codes.`)."""
    from companion.web.errors import STATUS_BY_CODE

    codes = set(COMMON_CODES) | set(STATUS_BY_CODE) | set(BINDING_CODES)
    for game in game_names():  # a game's own codes may be translated per game or in common
        codes -= set(getattr(get_rules(game), "own_codes", {}))
    return {f"codes.{code}" for code in codes}


def missing(texts: Mapping[str, Mapping[str, Any]], needed: Iterable[str]) -> list[str]:
    """`lang: key` for every needed key a language lacks, keys one language has and another lacks, and
    texts whose {placeholders} differ between languages."""
    flat = {lang: flatten(tree) for lang, tree in texts.items()}
    problems = [f"{lang}: {key}" for key in sorted(set(needed)) for lang in flat if key not in flat[lang]]
    every = set().union(*(set(f) for f in flat.values()))
    for lang, f in flat.items():
        problems += [f"{lang}: {key} (only in another language)" for key in sorted(every - set(f))]
    langs = list(flat)
    for key in sorted(set.intersection(*(set(f) for f in flat.values()))):
        shapes = {lang: set(PLACEHOLDER.findall(str(flat[lang][key]))) for lang in langs}
        if len({frozenset(s) for s in shapes.values()}) > 1:
            problems.append(f"{key}: placeholders differ {shapes}")
    return problems


def all_required(seeds: Iterable[int] = range(4)) -> set[str]:
    """Every key the page needs for every registered game, plus the common codes."""
    keys = common_codes()
    for game in game_names():
        keys |= required_keys(game, seeds)
    return keys


def all_texts() -> dict[str, dict[str, Any]]:
    """Both languages."""
    return {lang: load(lang) for lang in LANGS}
