"""Every phase and every game-specific refusal code of Thief of Baghdad, with English text."""

from __future__ import annotations

from typing import Final

PHASES: Final[dict[str, str]] = {
    "deal": "Chance deals the starting hands (6/7/8/9 palace cards by seat order).",
    "place": "Seats place their guards one at a time, in turn order, on free guard spaces.",
    "turn": "The seat whose turn it is infiltrates, moves guards, or ends its turn.",
    "draw": "Chance supplies the palace cards drawn by the seat that just ended its turn.",
    "over": "A seat has reached the winning number of chests; the game is over.",
}
"""Every `phase` value of the view; read-only."""

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
"""The game's own IllegalAction codes; read-only."""
