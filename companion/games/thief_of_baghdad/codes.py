"""Thief of Baghdad's vocabulary: phases, outcome reasons, refusal codes (engine and binding), log codes."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from companion.games.contract import Described


class Phase(Described):
    """Every `phase` value of the view."""

    DEAL = "deal", "Chance deals the starting hands (6/7/8/9 palace cards by seat order)."
    PLACE = "place", "Seats place their guards one at a time, in turn order, on free guard spaces."
    TURN = "turn", "The seat whose turn it is infiltrates, moves guards, or ends its turn."
    DRAW = "draw", "Chance supplies the palace cards drawn by the seat that just ended its turn."
    OVER = "over", "A seat has reached the winning number of chests; the game is over."


class Reason(StrEnum):
    """Why a game ended."""

    CHESTS = "chests"

CODES: Final[dict[str, str]] = {
    "wrong_hand_size": "A dealt hand does not have that seat's starting size.",
    "not_a_palace_card": "Dancers are never dealt or drawn from the pile; only palace colours are.",
    "card_not_in_pile": "That card cannot be drawn: no card of that colour is left to draw.",
    "wrong_draw_count": "The draw does not have the number of cards this seat draws now.",
    "wrong_target": "A draw is always for the seat that just ended its turn.",
    "palace_full": "That palace has no free guard space.",
    "same_palace": "A guard must move to a different palace.",
    "thief_limit": "At most three thief moves are allowed in a turn.",
    "no_thief_in_supply": "This seat has no thief left in its supply.",
    "no_own_guard": "This seat has no guard in that palace.",
    "no_foreign_guard": "Infiltrating needs a guard of another seat or a neutral guard in the palace.",
    "no_neutral_guard": "There is no neutral guard in that palace.",
    "no_thief_to_carry": "This seat has no thief in that palace's courtyard to take along.",
    "too_few_cards": "Too few cards paid: the payment must be the exact count.",
    "too_many_cards": "Too many cards paid: the payment must be the exact count.",
    "wrong_colour": "A paid card is not of a colour this payment needs (dancers are wild).",
    "card_not_in_hand": "A paid palace card is not in this seat's hand.",
    "dancer_not_held": "A dancer was paid but this seat holds no (or not enough) dancers.",
    "dancer_needs_idle_turn": "A dancer may be taken only after a turn with no infiltrate or move.",
    "no_dancer_left": "The dancer supply is empty.",
}
"""The game's own Refusal codes; read-only."""

PUBLIC_CODES: Final[frozenset[str]] = frozenset({
    "palace_full", "same_palace", "thief_limit", "no_thief_in_supply", "no_own_guard", "no_foreign_guard",
    "no_neutral_guard", "no_thief_to_carry", "dancer_needs_idle_turn", "no_dancer_left",
})
"""The codes raised from the board alone (guards, thieves, supplies, dancers, the turn's moves), each checked
before the payment: the table shows these to everyone. A payment's codes would say what a hand holds."""

LOG_CODES: Final[dict[str, tuple[str, ...]]] = {
    "deal": ("hand_sizes",),
    "dealt": ("seat", "cards"),
    "place_guard": ("seat", "palace"),
    "infiltrate": ("seat", "palace", "cards"),
    "move_guard": ("seat", "from", "to", "cards", "with_thief"),
    "move_neutral": ("seat", "from", "to", "cards"),
    "steal": ("seat", "palace", "chest"),
    "win": ("seat", "chests"),
    "end_turn": ("seat", "take_dancer", "draws"),
    "reshuffle": ("cards",),
    "draw": ("seat", "count"),
    "drew": ("seat", "cards"),
}
"""Every log entry code the engine writes, with its params (`dealt` and `drew` are private to their seat)."""

BINDING_CODES: Final[dict[str, str]] = {
    "hand_full": "This seat has tapped every card it is dealt.",
    "not_in_hand": "Your hand holds no more cards of that colour.",
    "not_your_turn": "Pay at your own reader, on your own turn.",
}
"""Codes the table binding raises itself besides the generic ones."""
