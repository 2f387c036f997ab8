"""The Gangster's Dilemma engine: the contract methods over the state, handlers, legal lists and views."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable, Mapping

from companion.games.contract import CHANCE, Outcome
from companion.games.gangsters_dilemma import chance
from companion.games.gangsters_dilemma.actions import ACTIONS, PHASE_ACTIONS
from companion.games.gangsters_dilemma.fixed import (
    BRIBE, CHOOSE, INFORM_SILENCE, PASS, PATROLS, PEEK, SKIP, STEAL, SWAP, TRADE,
)
from companion.games.gangsters_dilemma.legal import (
    bribe_pays, can_peek, fulfil_choices, steal_targets, swap_choices, trade_choices, visitors,
)
from companion.games.gangsters_dilemma.options import OPTION_DEFAULTS, build_config
from companion.games.gangsters_dilemma.state import Player, State
from companion.games.gangsters_dilemma.views import REUSE, seat_own, view
from companion.games.gangsters_dilemma.codes import Phase
from companion.games.gangsters_dilemma.board import (
    CHARACTERS,
    LOCATION_START_MONEY, START_LIQUOR, START_MONEY,
)
from companion.games.gangsters_dilemma.codes import BINDING_CODES, CODES, LOG_CODES, Phase, Reason
from companion.games.option_spec import OptionSpec, OptionType
from companion.games.reveal import RevealLine
from companion.games.rules import Rules
from companion.games.gangsters_dilemma.reveal import reveal_lines, winning_characters
from companion.games.schema import ActionSpec

Action = dict[str, Any]


class GangstersDilemma(Rules[State]):
    """Gangster's Dilemma (3–7 seats) per docs/RULES.md, Gangster's Dilemma."""

    name: ClassVar[str] = "gangsters_dilemma"
    title: ClassVar[str] = "Gangster's Dilemma"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 7
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS
    phase_actions = PHASE_ACTIONS
    reuse = REUSE
    phase_type = Phase
    reason_type = Reason
    own_codes: ClassVar[Mapping[str, str]] = CODES
    log_codes: ClassVar[Mapping[str, tuple[str, ...]]] = LOG_CODES
    own_binding_codes: ClassVar[Mapping[str, str]] = BINDING_CODES
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "market_price": OptionSpec(OptionType.INT, 1, 100),
        "characters": OptionSpec(OptionType.SUBSET, choices=CHARACTERS)}
    quick_playout_seeds: ClassVar[int] = 50
    """Seven-seat random games run to hundreds of actions: the default suite plays 50 seeds per seat count, `make
    soak` all 100."""

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        build_config(options, seats)
        return options

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        locations = 5 if seats <= 5 else 6
        return State(
            config=build_config(options, seats), seats=seats, locations=locations,
            phase=Phase.SETUP, acting=frozenset({CHANCE}),
            players=(Player(START_MONEY, (0, 0, 0, START_LIQUOR), None),) * seats,
            money=(LOCATION_START_MONEY,) * locations,
        )

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now (the state keeps them: asked several times per publish, so read at once)."""
        return state.acting

    def _to_act(self, state: State) -> frozenset[int]:
        return state.acting

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The JSON actions that `apply` accepts from this seat now ([] for chance or a waiting seat; asked for
        every acting seat on every publish, so who acts is read from the state at once)."""
        if seat == CHANCE or seat not in state.acting:
            return []
        return self._legal(state, seat)

    def _legal(self, state: State, seat: int) -> list[Action]:
        # fixed actions (fixed.py) but for a fulfil: an unchanged prompt then holds the very same objects
        phase = state.phase
        if phase is Phase.PLAN:
            closed = state.closed
            if seat == state.police:
                patrols = PATROLS[seat][state.locations]
                if not closed:
                    return list(patrols)
                return [a for a in patrols if a["locations"][0] not in closed and a["locations"][1] not in closed]
            row = CHOOSE[seat][state.locations]
            out = list(row) if not closed else [a for a in row if a["location"] not in closed]
            # asked for every planning seat on every publish: only the lookout may peek
            if state.players[seat].character == "lookout" and can_peek(state, seat):
                out.append(PEEK[seat])
            return out
        if phase is Phase.ABILITIES:
            if state.players[seat].character == "hitman":
                swaps = SWAP[seat]
                out = [swaps[t][g, k] for t, g, k in swap_choices(state, seat)]
            else:
                steals = STEAL[seat]
                out = [steals[t] for t in steal_targets(state, seat)]
            out.append(SKIP[seat])
            return out
        if phase is Phase.RESPOND:
            bribe = BRIBE[seat]
            bribes = [bribe[pay] for pay in bribe_pays(state.players[seat])]
            if len(visitors(state, state.current)) == 1:
                bribes.append(PASS[seat])
                return bribes
            return [*INFORM_SILENCE[seat], *bribes]
        if phase is Phase.TRADE:
            trade = TRADE[seat]
            out = [trade[t] for t in trade_choices(state, state.current, state.players[seat])]
            out.append(trade["none"])
            return out
        if phase is Phase.FULFIL:
            out = []
            for ident, sub, pay in fulfil_choices(state, seat):
                action: Action = {"type": "fulfil", "seat": seat, "demand": ident}
                if sub is not None:
                    action["substitute"], action["pay"] = sub, pay
                out.append(action)
            out.append(PASS[seat])
            return out
        return []

    def _sample_chance(self, state: State, rng: random.Random) -> Action:
        return chance.sample(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def _seat_own(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        return seat_own(state, seat, public)


    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs, else who won and why (asked on every publish, so read at once)."""
        return None if state.winners is None else Outcome(state.winners, Reason.VP)

    def _outcome(self, state: State) -> Outcome | None:
        return self.outcome(state)

    def _reveal(self, state: State) -> Iterable[RevealLine]:
        return reveal_lines(state.log)

    def _winning_sides(self, state: State, outcome: Outcome) -> list[str]:
        return winning_characters((p.character for p in state.players), outcome.winners)



RULES = GangstersDilemma()
"""The engine instance the registry hands out (stateless)."""
