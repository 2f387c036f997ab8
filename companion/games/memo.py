"""`Memo`: one table's cache of pure functions from one publish to the next, keyed by their exact inputs.

A memo holds, per slot, the last key and the value built for it; `get` gives that value back only when the new
key is equal (`==`) to the stored one, else builds, stores and returns the new value. Only pure functions of
their key go through it, so a hit is always what a fresh build would say. It lives in a table's own objects
(the Session holds one), never at module level: it is per table and dies with the game. Values handed out are
shared from one publish to the next and must not be mutated by anyone.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence, TypeVar

from companion.games.log import Log

T = TypeVar("T")
R = TypeVar("R")


class Memo:
    """Per slot, the last (key, value) of a pure function; equal to any other Memo (a cache is no state)."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        """An empty memo."""
        self._last: dict[Hashable, tuple[Any, Any]] = {}

    def get(self, slot: Hashable, key: Any, build: Callable[[], T]) -> T:
        """The value for `key` in `slot`: the stored one when its key equals `key`, else `build()` (stored)."""
        last = self._last.get(slot)
        if last is not None and last[0] == key:
            return last[1]  # type: ignore[no-any-return]
        value = build()
        self._last[slot] = (key, value)
        return value

    def last(self, slot: Hashable) -> tuple[Any, Any] | None:
        """The stored (key, value) of `slot`, or None (for a value extended from the last one, e.g. a log)."""
        return self._last.get(slot)

    def since(self, slot: Hashable, build: Callable[..., tuple[R, tuple[Any, Any] | None]], *args: Any) -> R:
        """What `build(*args, last)` makes from `slot`'s last (key, value) (None at first), storing the (key,
        value) it hands on for the next call (None: nothing new to store); for a value built from the last
        one's pieces."""
        last = self._last.get(slot)
        value, carried = build(*args, last)
        if carried is not None and carried is not last:
            self._last[slot] = carried
        return value

    def put(self, slot: Hashable, key: Any, value: Any) -> None:
        """Store `value` as what `slot`'s function gives for `key`."""
        self._last[slot] = (key, value)

    def rendered_log(self, slot: Hashable, log: Log[Any], start: int,
                     render: Callable[[Sequence[Any]], list[R]]) -> list[R]:
        """`render(log[start:])` for a `render` that maps entries one by one (so rendering a log is rendering
        its parts in turn): the last list rendered in `slot` extended by the new entries' when `log` grew
        from that publish's log with the same start, else rendered whole. The list is shared: never mutated."""
        last = self._last.get(slot)
        done, rendered = start, []
        if last is not None:
            (was, was_start), was_rendered = last
            if was is log and was_start == start:
                return was_rendered  # type: ignore[no-any-return]
            if was_start == start and log.starts_with(was):
                done, rendered = max(len(was), start), was_rendered
        count = len(log)
        if count > done:
            # entries that render to nothing (another viewer's) leave the very list: what depends on it
            # sees at a glance that it is the same
            more = render(log.tail(count - done))
            if more:
                rendered = rendered + more
        self._last[slot] = ((log, start), rendered)
        return rendered  # type: ignore[no-any-return]

    def clear(self) -> None:
        """Forget everything."""
        self._last.clear()

    def __len__(self) -> int:
        """How many slots hold a value."""
        return len(self._last)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"Memo({len(self._last)} slots)"
