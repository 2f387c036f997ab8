"""The kit's publish caching, behind `Rules.views`: the last publish kept in the table's memo by the kit alone,
reused whole for the same state, and handed to the game's `Reuse` (optional, for speed only) to build the next
publish's views from its pieces. A game that gives no `Reuse` has each new state's views built whole."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Mapping, NamedTuple, TypeVar

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


class Published(NamedTuple, Generic[S]):
    """The last publish, as the kit hands it to a game's `Reuse`: its state and what the hook carried then (a
    named tuple: one is made every publish, and a frozen dataclass costs a microsecond to make)."""

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
    """How a game builds a publish's views from the last one's (a game's `Rules.reuse`), for speed only: it
    must give what a fresh build gives (tests/games/test_publish_memo.py checks it over random walks)."""

    def views_since(self, rules: Rules[S], state: S, last: Published[S] | None) -> tuple[Views, Any]:
        """This publish's views and what to hand the next, given `last` (the last publish's state and what this
        hook handed on then; None at the first): by default built whole, nothing handed on."""
        return fresh_views(rules, state), None


def reused_views(rules: Rules[S], state: S, memo: Memo) -> Views:
    """`rules.views(state)` through the table's memo: the last publish's views for the same state, else the
    game's `Reuse` handed the last publish (the values are shared from one publish to the next: never mutated)."""
    slot = type(rules)  # one slot per game, named without building a key every publish
    last = memo.last(slot)
    if last is not None and last[0] is state:
        return last[1][0]  # type: ignore[no-any-return]
    built, carried = rules.reuse.views_since(rules, state, None if last is None else Published(last[0], last[1][1]))
    memo.put(slot, state, (built, carried))
    return built
