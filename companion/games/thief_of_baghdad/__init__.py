"""Thief of Baghdad (바그다드의 도둑): rules engine per RULES.md section 4.

Rulings taken where RULES.md is silent: payments are checked in a fixed order, each failure with its own
code (`too_few_cards` / `too_many_cards`, then `wrong_colour`, then `dancer_not_held` / `card_not_in_hand`);
when the pile runs out mid-draw the draw must hold the whole old pile and the rest comes from the reshuffled
discard; when pile and discard together hold fewer cards than a draw needs the seat draws what is left, and
with nothing left there is no chance step; dancers are never dealt or drawn from the pile (they come from
their own supply); `first_hand` takes 1..12; `take_dancer` and `with_thief` default to false. The view's `log`
holds the previous and current turn; the journal keeps the whole game.
"""

from companion.games.thief_of_baghdad.engine import ThiefOfBaghdad

RULES = ThiefOfBaghdad()
"""The engine instance the registry hands out (stateless)."""

__all__ = ["RULES", "ThiefOfBaghdad"]
