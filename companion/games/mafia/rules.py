"""The Mafia engine: dispatch, who acts, views and the outcome (docs/RULES.md, Mafia)."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Hashable, Iterable, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.mafia import chance, legal, play
from companion.games.mafia.actions import ACTIONS, ALLOWED
from companion.games.mafia.codes import CODES, LOG_CODES, PUBLIC_CODES, Phase, Reason
from companion.games.mafia.state import MAFIA, TOWN, State
from companion.games.mafia.views import public_view, reveal_lines, seat_own
from companion.games.reveal import RevealLine
from companion.games.rules import Rules

_ONLY_CHANCE = frozenset({CHANCE})


class Mafia(Rules[State]):
    """Mafia (also called Werewolf), 5-12 seats, as ruled in docs/RULES.md, Mafia."""

    name = "mafia"
    title = "Mafia"
    min_seats = 5
    max_seats = 12
    actions = ACTIONS
    phase_type = Phase
    reason_type = Reason
    own_codes = CODES
    own_public_codes = PUBLIC_CODES
    log_codes = LOG_CODES
    option_defaults = MappingProxyType({})
    quick_playout_seeds = 8
    """The default suite plays 8 random seeds per seat count (eight counts, ~10 s in all), `make soak` all 100:
    the harness builds every seat's view at every step, ~0.5 s a game at 12 seats."""

    def allowed(self, state: State, seat: int) -> frozenset[str]:
        """Action types of the current phase (the same for every role: see actions.ALLOWED)."""
        return ALLOWED[state.phase]

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        return State(seats=seats, phase=Phase.DEAL, alive=(True,) * seats, votes=(None,) * seats)

    def _to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.DEAL:
            return _ONLY_CHANCE
        return state.pending

    def choices_key(self, state: State, seat: int) -> Hashable | None:
        """What a seat's legal actions are built from: the phase, who is in the game and (at night) the roles."""
        return state.phase, state.alive, state.roles

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        return chance.sample_deal(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return public_view(state)
        view = public_view(state, seat)
        view.update(seat_own(state, seat))
        return view

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return seat_own(state, seat)

    def _outcome(self, state: State) -> Outcome | None:
        return state.result

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)

    def _winning_sides(self, state: State, outcome: Outcome) -> list[str]:
        return [MAFIA] if outcome.reason == Reason.MAFIA_EQUAL else [TOWN]

    # --- actions (already checked for shape, turn and phase by Rules.apply) -------------------

    def _apply_deal(self, state: State, a: dict[str, Any]) -> State:
        return chance.apply_deal(state, a["roles"])

    def _apply_kill(self, state: State, a: dict[str, Any]) -> State:
        return play.apply_night(state, "kill", a["seat"], a["target"])

    def _apply_check(self, state: State, a: dict[str, Any]) -> State:
        return play.apply_night(state, "check", a["seat"], a["target"])

    def _apply_suspect(self, state: State, a: dict[str, Any]) -> State:
        return play.apply_night(state, "suspect", a["seat"], a["target"])

    def _apply_vote(self, state: State, a: dict[str, Any]) -> State:
        return play.apply_vote(state, a["seat"], a["target"])

    def _apply_abstain(self, state: State, a: dict[str, Any]) -> State:
        return play.apply_vote(state, a["seat"], None)


RULES = Mafia()
"""The engine instance the registry hands out."""
