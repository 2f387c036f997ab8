"""Boss's Wallet's vocabulary: phases, outcome reasons, refusal codes (engine and binding) and log codes."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Mapping

from companion.games.contract import Described


class Phase(Described):
    """Every `phase` value of the game."""

    SETUP = "setup", "Chance deals the coins (the lowest coin starts) and 5 play cards per seat."
    TURNS = ("turns", "Seats take turns clockwise from the start seat: draw (with known hands chance then names "
             "the card), put, buy_id or flip (specials first).")
    ROUND_END_SPECIALS = ("round_end_specials", "After the 6th flip, seats clockwise from the start seat may play "
                          "round-end specials, then pass.")
    SCAN = "scan", "Chance (the table's scan) reveals every hand, in any order; hands stay hidden."
    CREDIT = "credit", "A John Smith holding a credit card decides whether to use one."
    CREDIT_DRAW = "credit_draw", "Chance draws from the wallet for the credit card until the first bill."
    INVESTIGATE = "investigate", "On-duty officers, clockwise from the start seat, each investigate another seat."
    RETURN_CHIPS = "return_chips", "Verdicts are shown; guilty seats holding chips each return one (value private)."
    AWARD = "award", "Chance draws chips blind from the pool for each innocent seat in rank order."
    GAME_OVER = "game_over", "Three rounds are over; the highest chip value wins."


class Reason(StrEnum):
    """Why a game ended."""

    CHIPS = "chips"


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
    "bad_deal": "A deal gives every seat five different play cards in use, and only when the table knows the hands.",
    "card_required": "Name the card put into the wallet.",
    "card_not_in_hand": "That card is not in this hand.",
    "extra_id_kept": "A bought extra ID stays in the hand.",
    "hand_mismatch": "The scan is not the hand the table knows.",
})
"""The game's own Refusal codes with English text."""

LOG_CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "round_start": ("round", "coins", "start_seat"),
    "draw": ("seat",),
    "put": ("seat",),
    "hand_dealt": ("seat", "cards"),
    "card_drawn": ("seat", "card"),
    "card_put": ("seat", "card"),
    "buy_id": ("seat", "paid_count"),
    "buy_id_cards": ("seat", "paid", "id_card"),
    "flip": ("seat", "hourglasses"),
    "auto_flip": ("seat", "hourglasses"),
    "special": ("seat", "card", "name", "timing", "replaces_action"),
    "round_end": ("round",),
    "pass": ("seat",),
    "hand_scanned": ("target",),
    "hand_cards": ("target", "cards"),
    "credit": ("seat",),
    "credit_draw": ("seat", "count"),
    "credit_cards": ("seat", "cards"),
    "officers": ("seats",),
    "verdict": ("seat", "hand", "identity", "verdict", "reasons", "wealth_cents"),
    "investigate": ("seat", "target"),
    "investigation": ("seat", "target", "guilty"),
    "confiscation": ("seat", "cents"),
    "ranking": ("seats",),
    "return_chip": ("seat",),
    "return_chip_value": ("seat", "chip"),
    "award": ("seat", "count"),
    "award_chips": ("seat", "chips"),
    "game_over": ("winners", "chip_values"),
})
"""Every log entry code the engine writes, with its params (`buy_id_cards`, `hand_cards`, `credit_cards`,
`return_chip_value`, `award_chips` and, with known hands, `hand_dealt`, `card_drawn` and `card_put` are private
to one seat)."""

BINDING_CODES: Mapping[str, str] = MappingProxyType({
    "not_payable": "Only bills and jewellery pay for an extra ID.",
    "card_not_in_use": "That card is not in use at this seat count.",
    "card_in_two_hands": "That card was already scanned in another hand.",
    "already_scanned": "That hand was already scanned this round.",
    "not_your_turn": "It is not this seat's turn.",
    "bad_coins": "Each seat takes a different coin.",
})
"""Engine codes the table binding raises itself, early, when a tap already breaks that rule."""
