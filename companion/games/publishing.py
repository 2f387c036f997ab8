"""The kit's publish caching, behind `Rules.views`: each publish's views built from the last one's where a game
says how (`Reuse`), kept in the table's memo by the kit alone. Optional and for speed only: a game that gives
no `Reuse` has its views built whole, and a publish of the same state again reused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Hashable, Mapping, TypeVar

from companion.games.memo import Memo

if TYPE_CHECKING:
    from companion.games.rules import Rules

S = TypeVar("S")

Views = tuple[dict[str, Any], tuple[dict[str, Any], ...]]
"""One publish's views: the public view and every seat's part of it."""

_ABSENT = object()


def private_part(seat_view: Mapping[str, Any], public_view: Mapping[str, Any]) -> dict[str, Any]:
    """What a seat's view adds to the public one (its role, hand, ...), without the log."""
    return {k: v for k, v in seat_view.items() if k != "log" and public_view.get(k, _ABSENT) != v}


@dataclass(frozen=True)
class Published(Generic[S]):
    """The last publish, as the kit hands it to a game's `Reuse`: its state and what the hook carried then."""

    state: S
    carried: Any


def fresh_views(rules: Rules[S], state: S) -> Views:
    """The public view and every seat's part of it, built whole."""
    public = rules._view(state, None)
    return public, parts(rules, state, public)


def parts(rules: Rules[S], state: S, public: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """Every seat's part of `public`, built whole."""
    return tuple(private_part(rules._seat_own(state, seat, public), public)
                 for seat in range(rules.seat_count(state)))


class Reuse(Generic[S]):
    """How a game builds a publish's views from the last one's (a game's `Rules.reuse`); every hook is
    optional and must give what a fresh build gives (tests/games/test_publish_memo.py checks it)."""

    def parts_key(self, state: S) -> Hashable | None:
        """A cheap value equal (`==`) between two states only when every seat's `_seat_own` is the same in
        both, so a publish reuses the last one's seat parts; None (the default): built every publish."""
        return None

    def public_since(self, rules: Rules[S], state: S, last: Published[S] | None) -> tuple[dict[str, Any], Any]:
        """The public view, and what to hand the next publish, given `last` (the last publish's state and what
        this hook handed on then; None at the first): by default built whole, nothing handed on."""
        return rules._view(state, None), None

    def views_since(self, rules: Rules[S], state: S, last: Published[S] | None) -> tuple[Views, Any]:
        """This publish's views and what to hand the next, given `last`. By default the public view from
        `public_since`, and the seat parts reused whole while `parts_key` and the public fields they share
        names with are the same; a game that rebuilds only the pieces whose state fields changed overrides it."""
        public, public_carried = self.public_since(rules, state, None if last is None else Published(
            last.state, last.carried[0]))
        key = self.parts_key(state)
        if key is None:
            return (public, parts(rules, state, public)), (public_carried, None)
        if last is not None and last.carried[1] is not None:
            was_key, shared, was_parts = last.carried[1]
            if was_key == key and all(public.get(name, _ABSENT) == value for name, value in shared):
                return (public, was_parts), (public_carried, last.carried[1])
        owns = [rules._seat_own(state, seat, public) for seat in range(rules.seat_count(state))]
        built = tuple(private_part(own, public) for own in owns)
        # a part drops what equals the public view, so it depends on the public fields it shares names with
        shared = tuple((name, public[name]) for name in {name for own in owns for name in own}
                       if name != "log" and name in public)
        return (public, built), (public_carried, (key, shared, built))


def reused_views(rules: Rules[S], state: S, memo: Memo) -> Views:
    """`rules.views(state)` through the table's memo: the last publish's views for the same state, else the
    game's `Reuse` handed the last publish (the values are shared from one publish to the next: never mutated)."""
    slot = (rules.name, "views")
    last = memo.last(slot)
    if last is not None and last[0] is state:
        return last[1][0]  # type: ignore[no-any-return]
    built, carried = rules.reuse.views_since(rules, state, None if last is None else Published(last[0], last[1][1]))
    memo.put(slot, state, (built, carried))
    return built
