"""Check lines of a scenario record: `expect` (view / outcome / to_act / legal) and `refuse` (action, code)."""

from __future__ import annotations

from typing import Any

from companion.games.contract import Refusal
from companion.games.rules import Rules

DIRECTIVES = ("expect", "refuse", "#")
"""Keys that make a record line a check or a comment instead of an action."""


class CheckFailed(AssertionError):
    """A scenario check that did not hold; the message says what differed."""


def is_directive(line: Any) -> bool:
    """Whether a parsed record line is a check or comment rather than an action."""
    return isinstance(line, dict) and "type" not in line and any(k in line for k in DIRECTIVES)


def subset_mismatch(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where `expected` is not contained in `actual` (dicts by subset, everything else exactly), else None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path or 'value'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            found = subset_mismatch(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for i, (e, a) in enumerate(zip(expected, actual)):
            found = subset_mismatch(e, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return f"{path or 'value'}: expected {expected!r}, got {actual!r}"
    return None


def run_directive(rules: Rules, state: Any, line: dict[str, Any]) -> None:
    """Evaluate one check line against the current state; raise CheckFailed if it does not hold."""
    if "refuse" in line:
        wanted = line.get("code")
        try:
            rules.apply(state, line["refuse"])
        except Refusal as exc:
            if wanted is not None and exc.code != wanted:
                raise CheckFailed(f"refused with {exc.code} ({exc.message}), expected {wanted}") from None
            return
        raise CheckFailed(f"expected {line['refuse']} to be refused with {wanted}, but it applied")
    expect = line.get("expect")
    if expect is None:
        return
    if not isinstance(expect, dict):
        raise CheckFailed("expect takes an object")
    seat = expect.get("seat")
    if "view" in expect:
        found = subset_mismatch(expect["view"], rules.view(state, seat), "view")
        if found:
            raise CheckFailed(found)
    if "outcome" in expect:
        outcome = rules.outcome(state)
        actual = None if outcome is None else {"winners": sorted(outcome.winners), "reason": outcome.reason}
        if actual != expect["outcome"]:
            raise CheckFailed(f"outcome: expected {expect['outcome']!r}, got {actual!r}")
    if "to_act" in expect:
        actual_to_act = sorted(rules.to_act(state))
        if actual_to_act != sorted(expect["to_act"]):
            raise CheckFailed(f"to_act: expected {sorted(expect['to_act'])}, got {actual_to_act}")
    if "legal" in expect:
        legal = rules.legal_actions(state, seat if seat is not None else -1)
        spec = expect["legal"]
        for want in spec.get("includes", []):
            if not any(subset_mismatch(want, got) is None for got in legal):
                raise CheckFailed(f"legal actions of seat {seat} lack {want}: {legal}")
        for unwanted in spec.get("excludes", []):
            if any(subset_mismatch(unwanted, got) is None for got in legal):
                raise CheckFailed(f"legal actions of seat {seat} include {unwanted}")
        if "count" in spec and len(legal) != spec["count"]:
            raise CheckFailed(f"seat {seat} has {len(legal)} legal actions, expected {spec['count']}")
