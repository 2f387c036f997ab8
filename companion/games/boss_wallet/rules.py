"""The Boss's Wallet engine: the Rules subclass wiring actions, phases, chance and views together."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable, Mapping

from companion.games.boss_wallet import chance, legal, publish, views
from companion.games.boss_wallet.cards import MAX_SEATS, MIN_SEATS
from companion.games.boss_wallet.config import OPTION_DEFAULTS, build_config
from companion.games.boss_wallet.judge import REASONS
from companion.games.boss_wallet.actions import ACTIONS
from companion.games.boss_wallet.codes import BINDING_CODES, CODES, LOG_CODES, Phase, Reason
from companion.games.boss_wallet.state import State
from companion.games.contract import CHANCE, Outcome
from companion.games.option_spec import OptionSpec, OptionType
from companion.games.reveal import RevealLine
from companion.games.rules import Rules
from companion.games.boss_wallet.reveal import reveal_lines

_GAME_OVER, _TURNS = Phase.GAME_OVER, Phase.TURNS
"""Read once (an enum member read off its class is a metaclass lookup): every publish asks for the outcome and
the acting seat's legal actions."""


class BossWallet(Rules[State]):
    """Boss's Wallet (docs/RULES.md, Boss's Wallet)."""

    name = "boss_wallet"
    title = "Boss's Wallet"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    phase_actions = legal.ALLOWED
    reuse = publish.REUSE
    phase_type = Phase
    reason_type = Reason
    own_codes = CODES
    log_codes = LOG_CODES
    own_binding_codes = BINDING_CODES
    option_defaults = OPTION_DEFAULTS
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {"credit_card_limit": OptionSpec(OptionType.INT, 0)}
    quick_playout_seeds: ClassVar[int] = 40
    """Random games run long (every hand is bought, paid and judged): the default suite plays 40 seeds per seat
    count, `make soak` all 100."""
    reasons = REASONS
    """Verdict reason codes with English text (the page explains every judgement with them)."""

    def seat_count(self, state: State) -> int:
        """How many seats the game has."""
        return state.cfg.seats

    def phase(self, state: State) -> str:
        """The current phase id."""
        return state.phase.value

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        return {"config": build_config(options, seats)}

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        cfg = options["config"]
        ones, twos, threes = cfg.chips
        return State(cfg=cfg, chips=((1,),) * seats, pool=(ones - seats, twos, threes))

    def _to_act(self, state: State) -> frozenset[int]:
        return legal.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The JSON actions that `apply` accepts from this seat now ([] for chance or a waiting seat)."""
        if state.phase is _TURNS:  # most publishes: the turn's seat, asked without the acting set
            return (legal.turn_actions(state, seat) if seat == state.turn and seat != CHANCE and state.drawing is None
                    else [])
        if seat == CHANCE or not legal.acting(state, seat):
            return []
        return legal.legal(state, seat)

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        return chance.sample(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.public_view(state) if seat is None else views.seat_view(state, seat)

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return views.seat_own(state, seat, public)


    def _outcome(self, state: State) -> Outcome | None:
        if state.phase is not _GAME_OVER:
            return None
        totals = [(sum(c), len(c)) for c in state.chips]
        best = max(totals)
        return Outcome(frozenset(s for s, t in enumerate(totals) if t == best), Reason.CHIPS)

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)



RULES = BossWallet()
"""The engine instance the registry hands out (stateless)."""
