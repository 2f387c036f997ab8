"""The immutable game state and its phases."""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Mapping

from companion.games.boss_wallet.codes import Phase
from companion.games.boss_wallet.config import Config
from companion.games.log import Log
from companion.games.rules import LogEntry


@dataclass(frozen=True)
class Verdict:
    """One seat's judgement at round end; `wealth_cents` is the ranking wealth."""

    identity: str | None
    guilty: bool
    reasons: tuple[str, ...]
    guilt_cents: int
    wealth_cents: int
    on_duty: bool = False
    credit_bill: str | None = None
    confiscated_by: int | None = None
    confiscated_cents: int = 0

    def __deepcopy__(self, memo: dict) -> "Verdict":
        # Only str/int/bool/None and tuples of them: as immutable as a tuple of ints, so shared.
        return self


@dataclass(frozen=True)
class RoundResult:
    """The public results of the latest round whose verdicts were shown; kept through the next round's setup
    and turns (a digital table deals the next round in the same step the last one ends) until its verdicts."""

    round: int
    start_seat: int
    coins: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    credit_drawn: tuple[tuple[str, ...], ...]
    verdicts: tuple[Verdict, ...]
    investigations: tuple[tuple[int, int], ...]
    ranking: tuple[int, ...]
    returned: tuple[int, ...] = ()
    """Guilty seats that returned a chip (its value stays private)."""
    awards: tuple[tuple[int, int], ...] = ()
    """(seat, chips drawn) in award order (values private)."""
    finished: bool = False
    """Every award is drawn: the round is over."""

    def __deepcopy__(self, memo: dict) -> "RoundResult":
        # Only immutable values (ints, strs, tuples, frozen Verdicts): shared like a tuple of ints.
        return self


@dataclass(frozen=True)
class State:
    """A Boss's Wallet game; every field is immutable; a change is a new State (`evolve`)."""

    cfg: Config
    round: int = 1
    phase: Phase = Phase.SETUP
    start_seat: int | None = None
    turn: int | None = None
    coins: tuple[int, ...] = ()
    hourglasses: int = 0
    turns_taken: int = 0
    hand_sizes: tuple[int, ...] = ()
    """Cards each hand holds as far as the engine can count (extra IDs included)."""
    extras: tuple[tuple[str, ...], ...] = ()
    """Extra IDs each seat bought this round (they stay in that hand)."""
    held: tuple[tuple[str, ...], ...] = ()
    """With known hands (`cfg.known_hands`): every seat's hand from the deal, in the order its cards came (bought
    extra IDs included); empty otherwise (the engine counts the hands only)."""
    drawing: int | None = None
    """With known hands: the seat whose `draw` waits for chance's `draw_card`."""
    wallet: int = 0
    """Play cards in the wallet."""
    specials_used: tuple[str, ...] = ()
    specials_by_seat: tuple[int, ...] = ()
    size_check: bool = True
    """Off for the rest of the round once any special card is used."""
    queue: tuple[int, ...] = ()
    """Seats still to decide in the current round-end step, first is asked."""
    hands: tuple[tuple[str, ...] | None, ...] = ()
    """Scanned hands (None = not scanned yet)."""
    credit_drawn: tuple[tuple[str, ...], ...] = ()
    officers: tuple[int, ...] = ()
    investigations: tuple[tuple[int, int], ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    """Empty until the verdicts are shown."""
    to_return: tuple[int, ...] = ()
    award_queue: tuple[tuple[int, int], ...] = ()
    """Rank places still to award, in rank order: (seat, chips due)."""
    chips: tuple[tuple[int, ...], ...] = ()
    """Chip values each seat holds, sorted (private per seat)."""
    pool: tuple[int, int, int] = (0, 0, 0)
    """Chips of value 1, 2, 3 in the pool."""
    last_round: RoundResult | None = None
    """Results of the latest round whose verdicts were shown (None before the first)."""
    log: Log[LogEntry] = Log()
    round_log: int = 0
    """Index of the current round's first log entry: views show the round (the whole log once over)."""

    @property
    def seats(self) -> int:
        """Seat count."""
        return self.cfg.seats

    def evolve(self, **changes: Any) -> "State":
        """dataclasses.replace without its per-call introspection (the hot path of every action)."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"State has no field(s) {sorted(unknown)}")
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def clockwise(self, first: int) -> tuple[int, ...]:
        """All seats clockwise starting at `first`."""
        return tuple((first + i) % self.cfg.seats for i in range(self.cfg.seats))


_STATE_FIELDS = frozenset(f.name for f in fields(State))
