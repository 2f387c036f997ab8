"""The Boss's Wallet engine: the Rules subclass wiring actions, phases, chance and views together."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, ClassVar, Mapping

from companion.games.boss_wallet import chance, legal, roundend, turns, views
from companion.games.boss_wallet.cards import MAX_SEATS, MIN_SEATS
from companion.games.boss_wallet.config import OPTION_DEFAULTS, build_config
from companion.games.boss_wallet.judge import REASONS
from companion.games.boss_wallet.state import PHASE_TEXT, Phase, State
from companion.games.contract import Outcome
from companion.games.option_spec import OptionSpec, OptionType
from companion.games.rules import Rules
from companion.games.schema import ActionSpec, integer, list_of, opt, seat, text

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "setup": ActionSpec({"coins": list_of(integer(), per_seat=True)}, chance=True),
    "draw": ActionSpec({}),
    "put": ActionSpec({}),
    "buy_id": ActionSpec({"paid": list_of(text(), min_len=1, max_len=100), "id_card": text()}),
    "flip": ActionSpec({}),
    "special": ActionSpec({"card": text()}),
    "pass": ActionSpec({}),
    "reveal_hand": ActionSpec({"target": seat(), "cards": list_of(text(), max_len=200)}, chance=True),
    "credit": ActionSpec({}),
    "credit_draw": ActionSpec({"cards": list_of(text(), max_len=200), "target": opt(seat())}, chance=True),
    "investigate": ActionSpec({"target": seat()}),
    "return_chip": ActionSpec({"chip": integer(1, 3)}),
    "award": ActionSpec({"target": seat(), "chips": list_of(integer(1, 3), max_len=4)}, chance=True),
})
"""The action vocabulary of RULES.md section 3."""

CODES: Mapping[str, str] = MappingProxyType({
    "bad_coins": "Coins must be distinct values from 1, 2, 5, 7, 10, 20 and 50 cents, one per seat.",
    "wallet_empty": "The wallet holds no play card to draw.",
    "empty_hand": "This hand holds no play card to put into the wallet.",
    "unknown_card": "That card is not in the card catalogue.",
    "card_not_in_use": "That card is not in use at this seat count.",
    "duplicate_card": "A card is listed twice.",
    "not_payable": "Only bills and jewellery pay for an extra ID.",
    "underpaid": "An extra ID costs at least 300 CU in bills and jewellery.",
    "hand_too_small": "The hand does not hold that many play cards.",
    "not_extra_id": "That card is not an extra ID card.",
    "extra_id_taken": "That extra ID was already bought this round.",
    "unknown_special": "That card is not an enrolled special card.",
    "wrong_timing": "That special card is not played at this moment.",
    "special_used": "That special card was already used this round.",
    "too_many_specials": "A seat holds only two special cards a round.",
    "already_scanned": "That hand was already scanned this round.",
    "card_in_two_hands": "That card was already scanned in another hand.",
    "extra_id_not_bought": "That extra ID was not bought by this seat.",
    "extra_id_missing": "An extra ID this seat bought is missing from the scan.",
    "hand_size": "The scan does not hold as many cards as the hand should.",
    "wrong_target": "That chance outcome names the wrong seat.",
    "not_in_wallet": "That card is not in the wallet.",
    "credit_draw_order": "A credit card draw stops at the first bill (or when the wallet runs out).",
    "investigate_self": "An officer investigates another seat, never itself.",
    "no_such_chip": "This seat holds no chip of that value.",
    "wrong_chip_count": "The award draws a different number of chips.",
    "chip_not_in_pool": "The pool does not hold those chips.",
})
"""The game's own IllegalAction codes with English text."""


class BossWallet(Rules[State]):
    """Boss's Wallet (RULES.md section 3)."""

    name = "boss_wallet"
    title = "Boss's Wallet"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    phases = MappingProxyType({p.value: desc for p, desc in PHASE_TEXT.items()})
    own_codes = CODES
    option_defaults = OPTION_DEFAULTS
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {"credit_card_limit": OptionSpec(OptionType.INT, 0)}
    reasons = REASONS
    """Verdict reason codes with English text (the page explains every judgement with them)."""

    def seat_count(self, state: State) -> int:
        """How many seats the game has."""
        return state.cfg.seats

    def phase(self, state: State) -> str:
        """The current phase id."""
        return state.phase.value

    def allowed(self, state: State, seat: int) -> frozenset[str]:
        """Action types the current phase allows."""
        return legal.ALLOWED[state.phase]

    def _check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        return {"config": build_config(options, seats)}

    def _initial(self, seats: int, options: dict[str, Any]) -> State:
        cfg = options["config"]
        ones, twos, threes = cfg.chips
        return State(cfg=cfg, chips=((1,),) * seats, pool=(ones - seats, twos, threes))

    def _to_act(self, state: State) -> frozenset[int]:
        return legal.to_act(state)

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal(state, seat)

    def _sample_chance(self, state: State, rng: random.Random) -> dict[str, Any]:
        return chance.sample(state, rng)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.public_view(state) if seat is None else views.seat_view(state, seat)

    def _outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = [(sum(c), len(c)) for c in state.chips]
        best = max(totals)
        return Outcome(frozenset(s for s, t in enumerate(totals) if t == best), "chips")

    _apply_setup = staticmethod(turns.apply_setup)
    _apply_draw = staticmethod(turns.apply_draw)
    _apply_put = staticmethod(turns.apply_put)
    _apply_buy_id = staticmethod(turns.apply_buy_id)
    _apply_flip = staticmethod(turns.apply_flip)
    _apply_special = staticmethod(turns.apply_special)
    _apply_pass = staticmethod(roundend.apply_pass)
    _apply_reveal_hand = staticmethod(roundend.apply_reveal_hand)
    _apply_credit = staticmethod(roundend.apply_credit)
    _apply_credit_draw = staticmethod(roundend.apply_credit_draw)
    _apply_investigate = staticmethod(roundend.apply_investigate)
    _apply_return_chip = staticmethod(roundend.apply_return_chip)
    _apply_award = staticmethod(roundend.apply_award)
