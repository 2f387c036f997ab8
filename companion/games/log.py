"""`Log[T]`: the one immutable, append-only sequence every game log (and the table's action history) uses.

Appending is O(1) amortized: versions share one Python list and each knows only its own length. Appending to
the newest version appends to the shared list in place (the old version still sees its first n items);
appending to an older version (a branch: the list has grown past it) copies its n items first, so no version
ever sees another's items. A Log reads like a tuple: len, iteration, indexing, slicing (a slice is a tuple),
`tail(k)`, equality and hashing by content (a Log equals the tuple of its items). There is no in-place
mutation and no `+=`: `log = log.append(x)` / `log = log.extend(xs)` (`log + xs` works too and means extend).

Items must themselves be immutable (frozen entries, JSON scalars, tuples): a deep copy of a Log is the Log.
Appends to one version from two threads at once need the caller's lock; reads are always safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Log(Sequence[T], Generic[T]):
    """An immutable sequence extended by `append`/`extend`, which return a new Log in O(1) amortized."""

    __slots__ = ("_items", "_n")

    _items: list[T]
    _n: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        """A Log of `items` (copied)."""
        self._items = list(items)
        self._n = len(self._items)

    @classmethod
    def _sharing(cls, items: list[T], n: int) -> "Log[T]":
        """A version over the first n items of a shared list."""
        made = object.__new__(cls)
        made._items = items
        made._n = n
        return made

    def _claim(self) -> list[T]:
        """The list this version may append to: the shared one while nobody appended past it, else a copy."""
        items = self._items
        # An empty Log (e.g. a dataclass default shared by every new game) always starts a list of its own,
        # so no game's entries stay reachable from a default value.
        if self._n == 0:
            return []
        if len(items) != self._n:
            return items[:self._n]
        return items

    def append(self, item: T) -> "Log[T]":
        """A new Log with `item` at the end; this one is unchanged."""
        items = self._claim()
        items.append(item)
        return self._sharing(items, self._n + 1)

    def extend(self, more: Iterable[T]) -> "Log[T]":
        """A new Log with `more` at the end (self when `more` is empty); this one is unchanged."""
        more = tuple(more)
        if not more:
            return self
        items = self._claim()
        items.extend(more)
        return self._sharing(items, self._n + len(more))

    def __add__(self, more: Iterable[T]) -> "Log[T]":
        """`log + items` is `log.extend(items)`."""
        if not isinstance(more, (Log, tuple, list)):
            return NotImplemented
        return self.extend(more)

    def starts_with(self, prefix: "Log[T]") -> bool:
        """Whether `prefix` is this log's first len(prefix) items (O(1) when both share storage, as a log
        and the versions it grew from do)."""
        n = prefix._n
        if n > self._n:
            return False
        if prefix._items is self._items:
            return True
        return all(a == b for a, b in zip(prefix, islice(self._items, n)))

    def tail(self, k: int) -> tuple[T, ...]:
        """The last k items (all of them when fewer), oldest first."""
        if k <= 0:
            return ()
        return tuple(self._items[max(0, self._n - k):self._n])

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._n)
            return tuple(self._items[start:stop:step])
        if not isinstance(index, int):
            raise TypeError(f"Log indices must be integers or slices, not {type(index).__name__}")
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("Log index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        return islice(self._items, self._n)

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._n - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            if self._items is other._items:
                return self._n == other._n
            return self._n == other._n and all(a == b for a, b in zip(self, other))
        if isinstance(other, tuple):
            return self._n == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> "Log[T]":
        # Immutable with immutable items: sharing is a faithful deep copy, and keeps copying a state O(1).
        return self

    def __copy__(self) -> "Log[T]":
        return self

    def __reduce__(self) -> Any:
        return (Log, (tuple(self),))
