"""The Thief of Baghdad engine: the Rules subclass wiring this package's modules to the contract."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.option_spec import OptionSpec, OptionType
from companion.games.reveal import RevealLine
from companion.games.rules import Rules
from companion.games.thief_of_baghdad.reveal import reveal_lines
from companion.games.schema import ActionSpec, is_int
from companion.games.thief_of_baghdad import chance, legal, turns, views
from companion.games.thief_of_baghdad.actions import ACTIONS, ALLOWED
from companion.games.thief_of_baghdad.board import GUARDS_PER_SEAT, hand_sizes
from companion.games.thief_of_baghdad.codes import BINDING_CODES, CODES, LOG_CODES, PUBLIC_CODES, Phase, Reason
from companion.games.thief_of_baghdad.state import State

ALONE: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(max(GUARDS_PER_SEAT)))
"""[seat] -> who acts on that seat's turn (asked on every publish, twice)."""
CHANCE_ALONE = frozenset({CHANCE})
NOBODY: frozenset[int] = frozenset()


class ThiefOfBaghdad(Rules[State]):
    """Thief of Baghdad (Queen Games 2006) as ruled in docs/RULES.md, Thief of Baghdad."""

    name: ClassVar[str] = "thief_of_baghdad"
    title: ClassVar[str] = "Thief of Baghdad"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS
    phase_actions = ALLOWED
    reuse = views.REUSE
    phase_type = Phase
    reason_type = Reason
    own_codes: ClassVar[Mapping[str, str]] = CODES
    own_public_codes: ClassVar[frozenset[str]] = PUBLIC_CODES
    log_codes: ClassVar[Mapping[str, tuple[str, ...]]] = LOG_CODES
    own_binding_codes: ClassVar[Mapping[str, str]] = BINDING_CODES
    option_defaults: ClassVar[Mapping[str, Any]] = {"first_hand": 6}
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {"first_hand": OptionSpec(OptionType.INT, 1, 12)}
    quick_playout_seeds: ClassVar[int] = 2
    """Random games run ~4,000-7,000 actions: the default suite plays 2 seeds per seat count, `make soak` all 100."""

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        first = options["first_hand"]
        if not is_int(first) or not 1 <= first <= 12:
            raise ValueError(f"option 'first_hand' must be an integer 1..12, got {first!r}")
        return options

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        return turns.initial(seats, options["first_hand"])

    def _to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase is Phase.PLACE or phase is Phase.TURN:
            turn = state.turn
            return ALONE[turn] if 0 <= turn < len(ALONE) else frozenset({turn})
        if phase is Phase.DEAL or phase is Phase.DRAW:
            return CHANCE_ALONE
        return NOBODY

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The JSON actions that `apply` accepts from this seat now ([] for chance or a waiting seat)."""
        # `Rules.legal_actions` without building `to_act`: only the seat whose turn it is acts, in two phases
        phase = state.phase
        if (phase is Phase.PLACE or phase is Phase.TURN) and seat == state.turn and seat != CHANCE:
            return legal.legal_actions(state, seat)
        return []

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        if state.phase is Phase.DEAL:
            sizes = hand_sizes(state.seats, state.first_hand)
            cards = chance.sample(state.pile, sum(sizes), rng)
            hands, start = [], 0
            for size in sizes:
                hands.append(cards[start:start + size])
                start += size
            return {"type": "deal", "seat": -1, "hands": hands}
        cards = chance.sample_draw(state.pile, state.discard, state.pending_draw, rng)
        return {"type": "draw", "seat": -1, "cards": cards, "target": state.turn}

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return views.seat_own(state, seat)


    def _outcome(self, state: State) -> Outcome | None:
        return None if state.winner is None else Outcome(frozenset({state.winner}), Reason.CHESTS)

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)


RULES = ThiefOfBaghdad()
"""The engine instance the registry hands out (stateless)."""
