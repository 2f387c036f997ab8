"""Read-only legal actions built once at import, shared by every prompt that offers them (Gangster's Dilemma,
Thief of Baghdad): to everyone else the plain dicts and lists they are, but a change raises, and a copy or a
pickle is a plain dict (with plain lists) its holder may change. Each carries the words of its prompt option
(`option_words`), which the table's prompt options then only read."""

from __future__ import annotations

from typing import Any, NoReturn

OptionWords = tuple[str, str, str, str]
"""A prompt option's group, label, short label and item (as the table's prompt options give them)."""


def read_only(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    """Refuse a change: a fixed action is shared by every prompt that offers it."""
    raise TypeError("a fixed legal action is read-only: change a copy (dict(action))")


class FixedList(list):  # type: ignore[type-arg]
    """A read-only list inside a fixed action (cards paid, locations patrolled): to everyone else the list it is."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = read_only
    append = extend = insert = pop = remove = clear = sort = reverse = read_only

    def __reduce_ex__(self, protocol: Any) -> Any:
        # copies and pickles are plain lists (copy.copy would otherwise refill a new one item by item)
        return list, (list(self),)


class Fixed(dict):  # type: ignore[type-arg]
    """A fixed legal action: to everyone else the plain dict it is, read-only, carrying its option's words
    (None for an action whose label the table words, e.g. one naming a seat)."""

    __slots__ = ("option_words",)
    option_words: OptionWords | None
    __setitem__ = __delitem__ = __ior__ = read_only
    clear = pop = popitem = setdefault = update = read_only

    def __reduce_ex__(self, protocol: Any) -> Any:
        # copies and pickles are plain dicts (with plain lists), which the holder may change
        return dict, ({k: list(v) if type(v) is FixedList else v for k, v in self.items()},)
