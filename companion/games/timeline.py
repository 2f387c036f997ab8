"""A finished game step by step, for the replay: the state, views and hidden parts after any number of actions.

Pure: the record (game, seats, options, actions) is the game, so step k is the replay of its first k actions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from companion.errors import CompanionError
from companion.games.binding import get_binding
from companion.games.registry import get_rules
from companion.games.rules import Rules
from companion.games.json_value import Json, JsonObject


CHECKPOINT_EVERY = 64
"""A replay keeps the state after every this many actions, so any step is at most this many applies away."""


class StepError(CompanionError, ValueError):
    """A step outside the record, or a record that no longer replays (a stable code and a message)."""

    code = "bad_step"


@dataclass(frozen=True)
class Record:
    """A finished game as the journal keeps it."""

    game: str
    seats: int
    options: JsonObject
    actions: tuple[JsonObject, ...]

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return get_rules(self.game)

    def state_at(self, step: int, marks: tuple[Any, ...] = ()) -> Any:
        """The state after the first `step` actions (0: the setup before any), from the nearest of `marks` (the
        states `checkpoints` kept) when given."""
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(self.actions):
            raise StepError("bad_step", f"a step is 0 to {len(self.actions)}, not {step!r}"[:200])
        rules = self.rules
        start = min(step // CHECKPOINT_EVERY, len(marks) - 1) if marks else -1
        try:
            state = marks[start] if start >= 0 else rules.initial_state(self.seats, dict(self.options))
            for action in self.actions[max(start, 0) * CHECKPOINT_EVERY:step]:
                state = rules.apply(state, dict(action))
        except ValueError as exc:  # Refusal is one: a record these rules no longer accept
            raise StepError("unreplayable", f"the record no longer replays: {exc}"[:300]) from None
        return state

    def checkpoints(self) -> tuple[Any, ...]:
        """The states after 0, CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY... actions (states are immutable)."""
        marks = [self.state_at(0)]
        for k in range(CHECKPOINT_EVERY, len(self.actions) + 1, CHECKPOINT_EVERY):
            marks.append(self.state_at(k, tuple(marks)))
        return tuple(marks)

    def step(self, step: int, marks: tuple[Any, ...] = ()) -> dict[str, Json]:
        """What the table showed after `step` actions (public view, who acts, outcome, the binding's table
        info) and what was hidden then (each seat's own part of its view; the action just taken)."""
        rules = self.rules
        state = self.state_at(step, marks)
        public, parts = rules.views(state)
        outcome = rules.outcome(state)
        return {
            "step": step, "steps": len(self.actions),
            "action": dict(self.actions[step - 1]) if step else None,
            "to_act": sorted(rules.to_act(state)),
            "outcome": None if outcome is None else {"winners": sorted(outcome.winners), "reason": outcome.reason},
            "view": public, "table_info": get_binding(self.game).info(public, self.seats),
            "hidden": {"seats": list(parts)},
        }

    def final(self, ended: bool = True) -> tuple[Any, list[dict[str, Json]], list[str]]:
        """The last state, its reveal lines and the winners' sides (`ended`: the journal says the game is over)."""
        rules = self.rules
        state = self.state_at(len(self.actions))
        return state, rules.reveal(state, ended), rules.winning_sides(state)


def card_catalogue(record: Record) -> dict[str, Json]:
    """Every card a view of the game ever described (`card_info`, for games whose views carry a catalogue of the
    cards they name), so the whole timeline can word each card; {} for a game without one."""
    rules = record.rules
    state = rules.initial_state(record.seats, dict(record.options))
    if "card_info" not in rules.view(record.state_at(len(record.actions)), None):
        return {}
    found: dict[str, Json] = {}
    for action in (None, *record.actions):
        if action is not None:
            state = rules.apply(state, dict(action))
        public, parts = rules.views(state)
        for v in (public, *parts):
            found.update(v.get("card_info") or {})
    return found


def public_lines(record: Record) -> list[list[dict[str, Json]]]:
    """For each action, the public log entries it added: what everyone at the table learnt from it (the nominee,
    the palace sneaked into), which a replay shows with the hidden things closed."""
    rules = record.rules
    state = rules.initial_state(record.seats, dict(record.options))
    before: list[Any] = list(rules.view(state, None).get("log") or [])
    out: list[list[dict[str, Json]]] = []
    for action in record.actions:
        state = rules.apply(state, dict(action))
        now = list(rules.view(state, None).get("log") or [])
        # the view's log is a window that may slide: the new lines follow the longest tail of the old window
        # that the new one starts with
        kept = next((len(before) - k for k in range(len(before) + 1) if now[:len(before) - k] == before[k:]), 0)
        out.append([dict(e) for e in now[kept:]])
        before = now
    return out


def every_step(record: Record) -> int:
    """Build the views of every step in one pass (what a full replay costs; `companion bench` style figures)."""
    rules = record.rules
    binding = get_binding(record.game)
    state = rules.initial_state(record.seats, dict(record.options))
    rules.views(state)
    for action in record.actions:
        state = rules.apply(state, dict(action))
        public, _ = rules.views(state)
        binding.info(public, record.seats)
    return len(record.actions) + 1


def record_text(setup: JsonObject, actions: Sequence[JsonObject]) -> str:
    """A record in the `companion replay` format: the setup line, then one JSON action per line."""
    return "".join(json.dumps(dict(x), ensure_ascii=False) + "\n" for x in (setup, *actions))
