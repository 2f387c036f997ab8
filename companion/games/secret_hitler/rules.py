"""The Secret Hitler engine: its declarations, turn order, legal actions, chance and views (docs/RULES.md,
Secret Hitler); the kit dispatches each action to its handler (`actions.ACTIONS`)."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Hashable, Iterable, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.reveal import RevealLine
from companion.games.rules import Rules
from companion.games.secret_hitler.reveal import reveal_lines, winning_team
from companion.games.secret_hitler import chance, legal
from companion.games.secret_hitler.actions import ACTIONS, ALLOWED
from companion.games.secret_hitler.codes import CODES, LOG_CODES, PUBLIC_CODES, Phase, Reason
from companion.games.secret_hitler.state import DECK_L, JA, NEIN, F, L, State, setup_for
from companion.games.secret_hitler.views import REUSE, public_view, seat_own, seat_view

_ONLY_CHANCE = frozenset({CHANCE})
_NOBODY: frozenset[int] = frozenset()
_SINGLE = tuple(frozenset({i}) for i in range(10))


class SecretHitler(Rules[State]):
    """Secret Hitler, 5-10 seats, as ruled in docs/RULES.md, Secret Hitler."""

    name = "secret_hitler"
    title = "Secret Hitler"
    min_seats = 5
    max_seats = 10
    actions = ACTIONS
    phase_actions = ALLOWED
    reuse = REUSE
    phase_type = Phase
    reason_type = Reason
    own_codes = CODES
    own_public_codes = PUBLIC_CODES
    log_codes = LOG_CODES
    option_defaults = MappingProxyType({"rebalance": False})
    quick_playout_seeds = 50
    """The default suite plays 50 random seeds per seat count (six counts, ~1 minute in all), `make soak` all 100."""

    def _prechecked(self, state: State, action: Any) -> bool:
        """The most frequent actions, when well-formed and from the seat to act in the right phase, skip the
        generic parsing: they pass every check of the general path and reach the same handler."""
        if type(action) is not dict:
            return False
        kind, seat, phase = action.get("type"), action.get("seat"), state.phase
        if type(seat) is not int:
            return False
        if kind == "vote" and phase is Phase.VOTE:
            vote = action.get("vote")
            return seat in state.pending and type(vote) is str and (vote == JA or vote == NEIN)
        if kind == "nominate" and phase is Phase.NOMINATE and seat == state.president:
            target = action.get("target")
            return type(target) is int and 0 <= target < state.seats
        if kind == "draw" and (phase is Phase.DRAW or phase is Phase.CHAOS) and seat == CHANCE:
            policies = action.get("policies")
            return type(policies) is list and all(type(p) is str and (p == L or p == F) for p in policies)
        if (kind == "discard" and phase is Phase.DISCARD and seat == state.president) or (
                kind == "enact" and phase is Phase.ENACT and seat == state.chancellor):
            policy = action.get("policy")
            return type(policy) is str and (policy == L or policy == F)
        return False

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        if not isinstance(options["rebalance"], bool):
            raise ValueError(f"option 'rebalance' must be true or false, got {options['rebalance']!r}")
        return options

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        fascist, deck_f = setup_for(seats, options["rebalance"])
        return State(
            seats=seats, phase=Phase.DEAL, alive=(True,) * seats, votes=(None,) * seats,
            fascist=fascist, draw_l=DECK_L, draw_f=deck_f,
        )

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The JSON actions `apply` accepts from this seat now ([] for chance or a waiting seat)."""
        if seat == CHANCE or seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def _to_act(self, state: State) -> frozenset[int]:
        return self.to_act(state)

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now; {CHANCE} when chance must be supplied; empty when over."""
        # Overrides Rules.to_act without the extra call: it runs several times per action.
        phase = state.phase
        # Identity checks, most frequent first: Enum hashing is slow.
        if phase is Phase.VOTE:
            return state.pending
        if phase is Phase.ENACT:
            return _SINGLE[state.chancellor]
        if phase is Phase.DRAW or phase is Phase.CHAOS or phase is Phase.PEEK or phase is Phase.DEAL:
            return _ONLY_CHANCE
        if phase is Phase.GAME_OVER:
            return _NOBODY
        return _SINGLE[state.president]

    def choices_key(self, state: State, seat: int) -> Hashable | None:
        """What the acting seat's legal actions are built from (`legal.legal_actions`): the phase, with the
        tiles held for legislation, else the seats and their history that nominations and powers read."""
        phase = state.phase
        if phase is Phase.VOTE or phase is Phase.VETO_REPLY or phase is Phase.PEEK_REVIEW:
            return phase
        if phase is Phase.DISCARD or phase is Phase.ENACT:
            return phase, state.hand, state.fascist, state.veto_refused
        return phase, state.seats, state.president, state.alive, state.last_president, state.last_chancellor, \
            state.investigated

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        if state.phase is Phase.DEAL:
            return chance.sample_deal(state, rng)
        if state.phase is Phase.PEEK:
            return chance.sample_peek(state, rng)
        return chance.sample_draw(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return public_view(state, None) if seat is None else seat_view(state, seat)

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return seat_own(state, seat)

    def _outcome(self, state: State) -> Outcome | None:
        return state.result

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)

    def _winning_sides(self, state: State, outcome: Outcome) -> list[str]:
        return winning_team(state.roles, outcome.winners)


RULES = SecretHitler()
"""The engine instance the registry hands out."""
