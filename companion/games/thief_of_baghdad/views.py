"""Public and seat views: a projection that never shows the pile's make-up or another seat's hand."""

from __future__ import annotations

from bisect import bisect_left
from itertools import product
from typing import Any, Mapping, NamedTuple

from companion.games.log import Log
from companion.games.publishing import Published, Reuse, Views
from companion.games.rules import Rules
from companion.games.thief_of_baghdad.board import (
    CARD_NAMES, CHESTS, COLORS, GUARD_SPACES, GUARDS_PER_SEAT, NEUTRAL, PALACES, WIN_CHESTS,
)
from companion.games.thief_of_baghdad.state import HAND_WIDTH, Event, State
from companion.games.json_value import Json



SINGLES: tuple[tuple[str], ...] = tuple((name,) for name in CARD_NAMES)
"""Each card name alone, to repeat."""
class Built(NamedTuple):
    """The pieces of one publish's views, each a pure function of the state fields named, and the log index
    of each public log entry shown (shared from publish to publish: never mutated)."""

    palaces: list[dict[str, Json]]
    """Read: seats, guards, thieves, chests."""
    players: list[dict[str, Json]]
    """Read: seats, supply, unplaced, won, hands."""
    parts: tuple[dict[str, Json], ...]
    """Read: seats, hands."""
    log: list[dict[str, Json]]
    """Read: log, log_from."""
    shown: tuple[int, ...]
    """The log index of each entry of `log`."""


def _jsonable(value: Any) -> Any:
    """Tuples (as stored in log params) become lists."""
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _entry(e: Event) -> dict[str, Json]:
    """One log entry as a view shows it."""
    params = dict(e.params)
    for k, v in e.params:
        if isinstance(v, tuple):
            params[k] = _jsonable(v)
    return {"code": e.code, "params": params}


def log_entries(entries: tuple[Event, ...], seat: int | None) -> list[dict[str, Json]]:
    """Log entries as this viewer may read them: private entries only for their seat."""
    return [_entry(e) for e in entries if e.to is None or (seat is not None and seat in e.to)]


def hand_cards(counts: bytes) -> list[str]:
    """A hand as a list of card names, in colour order, dancers last."""
    one = SINGLES  # unrolled: a seat's hand is drawn again at every payment and draw
    return [*one[0] * counts[0], *one[1] * counts[1], *one[2] * counts[2], *one[3] * counts[3],
            *one[4] * counts[4], *one[5] * counts[5], *one[6] * counts[6]]


def owners(guards: bytes) -> list[int | str]:
    """A palace's guards as views list them: seat by seat, neutral (the last count) last."""
    n = len(guards) - 1
    return [owner for owner in range(n) for _ in range(guards[owner])] + [NEUTRAL] * guards[n]


OWNERS: Mapping[bytes, tuple[int | str, ...]] = {
    bytes(counts): tuple(owners(bytes(counts))) for seats in range(min(GUARDS_PER_SEAT), max(GUARDS_PER_SEAT) + 1)
    for counts in product(range(GUARD_SPACES + 1), repeat=seats + 1) if sum(counts) <= GUARD_SPACES}
"""A palace's guard counts by owner (neutral last) -> its guards as views list them, for every way its spaces
can be held; read-only."""


def _palace(state: State, palace: int) -> dict[str, Json]:
    n = state.seats
    w = n + 1
    guards = state.guards[palace * w:palace * w + w]
    known = OWNERS.get(guards)
    return {
        "color": COLORS[palace],
        "guards": owners(guards) if known is None else list(known),
        "thieves": list(state.thieves[palace * n:palace * n + n]),
        "chests": list(CHESTS[len(CHESTS) - state.chests[palace]:]),
    }


def _player(state: State, seat: int) -> dict[str, Json]:
    """A seat's public entry: its supply, guards to place, chests won and hand size."""
    return {"supply": state.supply[seat], "guards_unplaced": state.unplaced[seat], "chests": state.won[seat],
            "hand_size": sum(state.hand(seat))}


def _public(state: State, palaces: list[dict[str, Json]], players: list[dict[str, Json]],
            log: list[dict[str, Json]]) -> dict[str, Json]:
    """The public view around its built pieces."""
    return {
        "phase": state.phase._value_,  # `.value` is a property: a call per publish
        "turn": state.turn,
        "palaces": palaces,
        "players": players,
        "thief_moves": state.thief_moves,
        "acted": state.acted,
        "deck": sum(state.pile),
        "discard": sum(state.discard),
        "dancers": state.dancers,
        "draw_pending": state.pending_draw,
        "chests_to_win": WIN_CHESTS[state.seats],
        "winner": state.winner,
        # The previous and the current turn only; the whole game is the journal of actions.
        "log": log,
    }


def view(state: State, seat: int | None) -> dict[str, Json]:
    """The view of one seat (its hand added) or the public (seat None)."""
    out = _public(state, [_palace(state, p) for p in range(PALACES)],
                  [_player(state, s) for s in range(state.seats)], log_entries(state.log[state.log_from:], seat))
    if seat is not None:
        out.update(seat_own(state, seat))
    return out


def seat_own(state: State, seat: int) -> dict[str, Json]:
    """What this seat adds to the public view: its seat number and its hand."""
    return {"seat": seat, "hand": hand_cards(state.hand(seat))}


def views(state: State, last: Published[State] | None) -> tuple[Views, Built]:
    """The public view and every seat's part of it (its seat number and hand: no public field has those
    names), each piece reused from `last` (the last publish: its state and its `Built`) while the state fields
    it reads are the same; and the pieces the next publish reuses."""
    if last is None or last.state.seats != state.seats:
        built = _built(state)
    else:
        built = _rebuilt(state, last.state, last.carried)
    return (_public(state, built.palaces, built.players, built.log), built.parts), built


def _built(state: State) -> Built:
    """Every piece built anew."""
    log, shown = _public_entries(state.log, state.log_from)
    return Built([_palace(state, p) for p in range(PALACES)], [_player(state, s) for s in range(state.seats)],
                 tuple(seat_own(state, s) for s in range(state.seats)), log, shown)


def _rebuilt(state: State, was: State, old: Built) -> Built:
    """The pieces for `state` from those built for `was` (the same seat count): an unchanged field is the
    same bytes object from one state to the next, and of a changed one only the palaces or seats whose
    bytes differ are built again."""
    n = state.seats
    palaces, players, parts = old.palaces, old.players, old.parts
    guards, thieves, chests, hands = state.guards, state.thieves, state.chests, state.hands
    # most publishes change one or two of these fields: a field's rows are looked for only when it is another
    # object (a call saved per unchanged field)
    if guards is not was.guards or thieves is not was.thieves or chests is not was.chests:
        palaces = list(palaces)
        rows = set() if guards is was.guards else set(_rows(guards, was.guards, n + 1))
        if thieves is not was.thieves:
            rows.update(_rows(thieves, was.thieves, n))
        if chests is not was.chests:
            rows.update(_rows(chests, was.chests, 1))
        for p in rows:
            palaces[p] = _palace(state, p)
    held = [] if hands is was.hands else _rows(hands, was.hands, HAND_WIDTH)
    supply, unplaced, won = state.supply, state.unplaced, state.won
    if held or supply is not was.supply or unplaced is not was.unplaced or won is not was.won:
        players = list(players)
        rows = set(held)
        if supply is not was.supply:
            rows.update(_rows(supply, was.supply, 1))
        if unplaced is not was.unplaced:
            rows.update(_rows(unplaced, was.unplaced, 1))
        if won is not was.won:
            rows.update(_rows(won, was.won, 1))
        for s in rows:
            players[s] = _player(state, s)
    if held:
        changed = list(parts)
        for s in held:
            changed[s] = seat_own(state, s)
        parts = tuple(changed)
    log, start, was_start = state.log, state.log_from, was.log_from
    if log is was.log and start == was_start:
        entries, shown = old.log, old.shown
    elif start >= was_start and log.starts_with(was.log):
        # the log grew from the last one and shows from the same entry or a later one: the entries still
        # shown are the end of the last rendering, then the new ones
        keep = bisect_left(old.shown, start) if start > was_start else 0
        done = len(was.log)
        new, at = _public_entries(log, start if start > done else done)
        if keep:
            entries, shown = old.log[keep:] + new, old.shown[keep:] + at
        elif new:
            entries, shown = old.log + new, old.shown + at
        else:
            entries, shown = old.log, old.shown
    else:
        entries, shown = _public_entries(log, start)
    # `Built(...)` without the generated __new__ (a Python call per publish): the same tuple
    return tuple.__new__(Built, (palaces, players, parts, entries, shown))


def _rows(new: bytes, old: bytes, width: int) -> list[int]:
    """The rows of `width` bytes where two fields of the same length differ (none at a glance when they
    are the same object, as an unchanged field of the next state is), found from the bits that differ."""
    if new is old:
        return []
    diff = int.from_bytes(new, "little") ^ int.from_bytes(old, "little")
    bits = 8 * width
    rows = []
    while diff:
        row = ((diff & -diff).bit_length() - 1) // bits
        rows.append(row)
        diff &= -1 << (row + 1) * bits
    return rows


def _public_entries(log: Log[Event], start: int) -> tuple[list[dict[str, Json]], tuple[int, ...]]:
    """The public entries of `log` from index `start` as views show them, and their indices."""
    entries: list[dict[str, Json]] = []
    shown: list[int] = []
    count = len(log)
    if start >= count:
        return entries, ()
    for i, e in enumerate(log.tail(count - start), start):
        if e.to is None:
            entries.append(_entry(e))
            shown.append(i)
    return entries, tuple(shown)


class ThiefOfBaghdadReuse(Reuse[State]):
    """Each publish's views rebuilt from the last one's pieces (`views`)."""

    def views_since(self, rules: Rules[State], state: State, last: Published[State] | None) -> tuple[Views, Any]:
        """`views(state, last)`."""
        return views(state, last)


REUSE = ThiefOfBaghdadReuse()
"""How the table's publish reuses the last one's views."""
