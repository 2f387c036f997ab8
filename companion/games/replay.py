"""Replay a game record: a header line `{game, seats, options}` then one JSON action per line.

A scenario record may also hold check lines (`{"expect": ...}`, `{"refuse": action, "code": ...}`,
`{"#": comment}`); replay evaluates them in place and reports a failed one as `expect_failed`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from companion.games.contract import Refusal
from companion.games.registry import get_rules
from companion.games.rules import Rules
from companion.games.scenario import CheckFailed, is_directive, run_directive


class ReplayError(ValueError):
    """A bad line in a record: its 1-based number, a stable code and a message."""

    def __init__(self, line: int, code: str, message: str) -> None:
        self.line, self.code, self.message = line, code, message
        super().__init__(f"line {line}: {code}: {message}")


@dataclass(frozen=True)
class Replayed:
    """The result of a replay: the rules, setup, actions and final state."""

    rules: Rules
    seats: int
    options: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    state: Any


def parse_header(text: str, line: int = 1) -> tuple[Rules, int, dict[str, Any]]:
    """The record's first line -> (rules, seats, options)."""
    try:
        head = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(line, "bad_json", str(exc)) from None
    if not isinstance(head, dict):
        raise ReplayError(line, "bad_header", "the first line must be {\"game\", \"seats\", \"options\"}")
    try:
        rules = get_rules(head.get("game"))
        options = head.get("options") or {}
        rules.initial_state(head.get("seats"), options)
    except ValueError as exc:
        raise ReplayError(line, "bad_header", str(exc)) from None
    return rules, head["seats"], options


def replay_lines(lines: Iterable[str]) -> Replayed:
    """Rebuild a game from its record; raises ReplayError at the first bad line."""
    it = iter(enumerate(lines, start=1))
    header = None
    for number, text in it:
        if text.strip():
            header = parse_header(text, number)
            break
    if header is None:
        raise ReplayError(1, "bad_header", "the record is empty")
    rules, seats, options = header
    state = rules.initial_state(seats, options)
    actions: list[dict[str, Any]] = []
    for number, text in it:
        if not text.strip():
            continue
        try:
            action = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(number, "bad_json", str(exc)) from None
        if is_directive(action):
            try:
                run_directive(rules, state, action)
            except CheckFailed as exc:
                raise ReplayError(number, "expect_failed", str(exc)) from None
            continue
        try:
            state = rules.apply(state, action)
        except Refusal as exc:
            raise ReplayError(number, exc.code, exc.message) from None
        actions.append(action)
    return Replayed(rules, seats, options, tuple(actions), state)


def replay_actions(rules: Rules, seats: int, options: Any, actions: Iterable[dict[str, Any]]) -> Any:
    """The state reached by applying `actions` from the start."""
    state = rules.initial_state(seats, options)
    for action in actions:
        state = rules.apply(state, action)
    return state
