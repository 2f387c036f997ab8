"""What a view's log window added since the last one the seat saw.

A view carries only a recent window of its log (docs/ARCHITECTURE.md "Views never leak"); a player shown every
view in turn sees each entry enter the window, so its memory of the whole game is the windows' new entries, in
order. Seen after every action, a window moves by the few entries one action writes.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

Entry = Mapping[str, Any]


def new_entries(before: Sequence[Entry], after: Sequence[Entry]) -> Sequence[Entry]:
    """The entries `after` holds past the end of `before`: the shortest shift k such that what `before` keeps
    from k on starts `after` (nothing new when the windows are equal; all of `after` when they do not
    overlap, as when a game's window restarts at a new round)."""
    before, after = tuple(before), tuple(after)
    if len(after) >= len(before) and after[:len(before)] == before:  # the window has not filled up yet
        return after[len(before):]
    for shift in range(1, len(before) + 1):
        kept = len(before) - shift
        if kept <= len(after) and before[shift:] == after[:kept]:
            return after[kept:]
    return after  # pragma: no cover - the loop's last shift (nothing kept) always matches
