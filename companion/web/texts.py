"""The page's translations (web/i18n/<lang>.json) and the check that every code the engines use has both texts."""

from __future__ import annotations

import ast
import json
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from companion.bots import get_bot
from companion.games.binding import get_binding
from companion.games.contract import BINDING_CODES, COMMON_CODES
from companion.games.playout import choose_action
from companion.games.registry import game_names, get_rules
from companion.games.rules import Rules
from companion.web.hangul import PLACEHOLDER
from companion.web.site import LANGS, i18n_dir

MISSING = object()
NOT_SECRETS = frozenset({"log", "seat", "card_info"})
"""Seat-view keys the secret panel leaves out (web/static/js/seat.js NOT_SECRETS): the page's own seat, the
card catalogue."""
REFUSERS = frozenset({"Refusal", "IllegalAction", "ApiError", "refuse", "_refuse", "TableRefusal",
                      "CardError"})
"""Calls whose first argument (or `code=`) is a refusal code a page may have to put in words."""
REFUSING_ROOMS = ("table", "web", "games")
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
    seen: dict[str, set[str]] = {"log": set(), "outcomes": set(), "reasons": set(), "fields": set()}
    for seats in range(rules.min_seats, rules.max_seats + 1):
        played = 0
        for n, seed in enumerate(seeds):
            if n and played >= ACTIONS_PER_SEAT_COUNT:
                break  # long games (thousands of actions) need fewer seeds to show every code
            step, state = 0, rules.initial_state(seats)
            for step, state in playout_states(rules, seats, seed):
                # every seat's view every few steps: views keep at least a round or a dozen lines of log
                over = not rules.to_act(state)
                public = rules.view(state, None)
                for viewer in (None, *range(seats)) if step % SEAT_VIEW_EVERY == 0 or over else (None,):
                    view = public if viewer is None else rules.view(state, viewer)
                    seen["log"] |= {entry["code"] for entry in view.get("log", [])}
                    if viewer is not None:  # what a seat page's secret panel lists: what its view adds
                        seen["fields"] |= {k for k, v in view.items() if public.get(k, MISSING) != v} - NOT_SECRETS
                    players = view.get("players") if viewer is None else None
                    for player in players if isinstance(players, list) else []:
                        if isinstance(player, Mapping):
                            seen["reasons"] |= set(player.get("reasons") or ())
            played += step
            outcome = rules.outcome(state)
            if outcome is not None:
                seen["outcomes"].add(outcome.reason)
    return {k: frozenset(v) for k, v in seen.items()}


def playout_states(rules: Rules, seats: int, seed: int) -> Iterator[tuple[int, Any]]:
    """A random game's states after each of its actions (numbered from 1), until it ends or MAX_STEPS."""
    rng = random.Random(seed)
    state = rules.initial_state(seats)
    step = 0
    while rules.to_act(state) and step < MAX_STEPS:
        state = rules.apply(state, choose_action(rules, state, rng))
        step += 1
        yield step, state


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
    keys |= {f"{base}.bot_reasons.{reason}" for reason in get_bot(game).reasons}
    seen = observed(game, seeds)
    keys |= {f"{base}.reasons.{reason}" for reason in seen["reasons"]}
    english = flatten(load("en"))
    keys |= {f"{base}.kinds.{kind}" for kind in rules.actions if "{" in english.get(f"{base}.actions.{kind}", "")}
    keys |= {either(english, base, "fields", name) for name in seen["fields"]}
    keys |= {f"zones.{zone.split(':')[0]}" for zone in get_binding(game).zones(rules.max_seats)}
    keys |= {either(english, base, "codes", code) for code in rules.binding_codes}
    keys |= {either(english, base, "codes", code) for code, games in refusal_codes().items() if game in games}
    return keys


def either(english: Mapping[str, str], base: str, group: str, name: str) -> str:
    """The key a name is translated under: the common one when it exists (`fields.seat`), else the game's."""
    common = f"{group}.{name}"
    return common if common in english else f"{base}.{group}.{name}"


def placeholder_problems(texts: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Log texts that name a placeholder the engine's entries never carry (`{seat}` where it sends `president`),
    read against each Rules' `log_codes` (code -> the names of its params); bot reasons likewise against the
    bot's `reasons`."""
    problems = []
    for game in game_names():
        declared = (("log", get_rules(game).log_codes), ("bot_reasons", get_bot(game).reasons))
        for lang, tree in texts.items():
            flat = flatten(tree)
            for group, codes in declared:
                for code, params in codes.items():
                    text = flat.get(f"games.{game}.{group}.{code}")
                    for name in sorted({name for name, _ in PLACEHOLDER.findall(text or "")} - set(params)):
                        problems.append(f"{lang}: games.{game}.{group}.{code} names {{{name}}}, which its entries "
                                        "never carry")
    return problems


@lru_cache(maxsize=1)
def refusal_codes() -> dict[str, frozenset[str]]:
    """Every refusal code written in the table's, the web's and the games' source (read, not imported: the web
    may not import the table), with the games it belongs to (every game for the table's and web's own)."""
    root = Path(__file__).resolve().parents[1]
    every = frozenset(game_names())
    found: dict[str, set[str]] = {}
    for room in REFUSING_ROOMS:
        for path in sorted((root / room).rglob("*.py")):
            parts = path.relative_to(root / room).parts
            games = frozenset({parts[0]}) if room == "games" and parts[0] in every else every
            for code in _codes_in(path.read_text(encoding="utf-8")):
                found.setdefault(code, set()).update(games)
    return {code: frozenset(games) for code, games in found.items()}


def _codes_in(source: str) -> set[str]:
    """String codes passed to the refusing calls of one module."""
    codes = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name not in REFUSERS:
            continue
        args = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "code")]
        codes |= {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                  and re.fullmatch(r"[a-z][a-z0-9_]*", a.value)}
    return codes


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
        shapes = {lang: {name for name, _ in PLACEHOLDER.findall(str(flat[lang][key]))} for lang in langs}
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


def log_samples(game: str, seeds: Iterable[int] = range(1), per_code: int = 12) -> list[dict[str, Any]]:
    """Log entries seen in random playouts at every seat count, at most `per_code` of each code (public and
    private lines), as the page gets them: {seats, card_info, entries}, one per seat count."""
    rules = get_rules(game)
    samples = []
    for seats in range(rules.min_seats, rules.max_seats + 1):
        kept: dict[str, list[Any]] = {}
        cards: dict[str, Any] = {}
        for seed in seeds:
            for step, state in playout_states(rules, seats, seed):
                if step % SEAT_VIEW_EVERY and rules.to_act(state):
                    continue  # a view keeps a dozen lines or more: every few steps sees every line
                for viewer in (None, *range(seats)):
                    view = rules.view(state, viewer)
                    cards.update(view.get("card_info") or {})
                    for entry in view.get("log", []):
                        same = kept.setdefault(entry["code"], [])
                        if len(same) < per_code and entry not in same:
                            same.append(entry)
        samples.append({"seats": seats, "card_info": cards, "entries": [e for es in kept.values() for e in es]})
    return samples
