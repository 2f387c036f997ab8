"""Gangster's Dilemma's fixed components: loot, locations, trades, characters and scoring."""

from __future__ import annotations

from typing import Final

LOOT: Final = ("crate", "art", "jewel", "liquor")
"""Loot token kinds, in the order a player's `loot` tuple holds them."""
CRATE, ART, JEWEL, LIQUOR = range(4)
LOOT_INDEX: Final = {name: i for i, name in enumerate(LOOT)}

LOCATION_NAMES: Final = ("hideout", "gallery", "jeweller", "smugglers", "black_market", "speakeasy")
"""Location ids 1..6 by name (index + 1)."""
LOCATION_LOOT: Final = {1: CRATE, 2: ART, 3: JEWEL, 4: LIQUOR}
"""The loot token a successful visit to a location gives."""
MARKET: Final = 5
SPEAKEASY: Final = 6

TRADES: Final = {
    "buy_art": (ART, +1), "sell_art": (ART, -1),
    "buy_jewel": (JEWEL, +1), "sell_jewel": (JEWEL, -1),
    "buy_liquor": (LIQUOR, +1), "sell_liquor": (LIQUOR, -1),
}
"""Market trade -> (loot index, tokens gained); money moves the other way at `market_price`."""
BLACK_MARKET_TRADES: Final = ("buy_art", "sell_art", "buy_jewel", "sell_jewel")
SPEAKEASY_TRADES: Final = ("buy_liquor", "sell_liquor")

CHARACTERS: Final = ("bootlegger", "lady", "hitman", "flapper", "lookout", "elite", "right_hand", "enforcer")
"""The eight character cards."""

CRATE_VP: Final = (0, 2, 5, 9, 14)
"""VP for 0, 1, 2, 3 and 4+ crates."""
WIN_VP: Final = 21
START_MONEY, START_LIQUOR, LOCATION_START_MONEY = 1, 1, 2
SUBSTITUTE_COST, RIGHT_HAND_COST, LADY_BRIBE, ENFORCER_BONUS, LOOKOUT_FEE = 3, 2, 2, 2, 1
