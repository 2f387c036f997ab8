"""Gangster's Dilemma (Eagle-Gryphon Games 2020): rules engine per RULES.md section 2.

Modules: `vocab` (ids, phases, codes) · `options` (validation, the invented sample deck) · `actions`
(schemas, phase -> action types) · `state` (immutable State, the Work copy used inside one apply, the log)
· `legal` (what a seat may do) · `handlers` (one function per action) · `resolve` (reveal, locations 1→6,
trades, demands, end of round) · `views` · `engine` (the Rules subclass).

Rulings taken where RULES.md is silent: a `respond` bribe pays a liquor unless `pay: "dollars"` (lady);
with `lone_gangster_may_bribe` the lone gangster is asked `respond bribe` or `pass` (arrest); a hitman swap
exchanges two different kinds of loot; a bootlegger may not pay a liquor in place of a liquor; a fulfilled
revealed card is replaced by chance `reveal_demand` before the next visitor is asked. The view's `log` holds
the entries from the latest reveal on (about one round); the journal keeps the whole game.
"""

from companion.games.gangsters_dilemma.engine import GangstersDilemma

RULES = GangstersDilemma()
"""The engine instance the registry hands out."""

__all__ = ["RULES", "GangstersDilemma"]
