"""Gangster's Dilemma vocabulary: loot, locations, characters, phases and refusal codes."""

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

PHASES: Final = {
    "setup": "Chance deals the police seat, the characters and the revealed (and elite) demands.",
    "plan": "The police patrols two open locations and every other seat sends a gangster, all in secret; "
    "the lookout may pay to peek once the police has committed.",
    "peek": "Chance reveals one of the two patrols, at random, to the lookout alone.",
    "abilities": "Right after the reveal: the hitman may swap a loot token and the flapper may take $1 "
    "from another gangster at the same location, or skip.",
    "respond": "The gangsters met by the police at the location being resolved choose inform, silence "
    "or bribe in secret (a lone gangster, when the house rule allows, bribes or passes).",
    "trade": "Successful visitors of a market each may make one trade with the bank.",
    "fulfil": "A successful visitor, clockwise from the police, may fulfil one boss demand.",
    "reveal_demand": "Chance reveals the demand that replaces a fulfilled one.",
    "game_over": "Someone reached 21 VP, or no demand can be fulfilled any more; the game is judged.",
}

OWN_CODES: Final = {
    "bad_setup": "The setup does not fit the game: police seat, characters or demand ids are wrong.",
    "not_in_deck": "That demand is not in the demand deck.",
    "not_patrolled": "The police did not patrol that location.",
    "not_police": "Only the police seat patrols.",
    "police_no_gangster": "The police seat sends no gangster this round.",
    "no_such_location": "There is no such location in this game.",
    "same_location": "The two patrols must be at different locations.",
    "closed_location": "That location is closed this round.",
    "not_lookout": "Only the lookout may peek, once a round, before choosing.",
    "police_not_ready": "The lookout may peek only after the police has committed its patrols.",
    "already_peeked": "The lookout has already peeked this round.",
    "no_money": "Not enough money for that.",
    "not_hitman": "Only the hitman may swap loot.",
    "not_flapper": "Only the flapper may take $1 from another gangster.",
    "bad_target": "The target must be another gangster at the same location.",
    "no_loot": "The loot token to give or take is not held.",
    "same_loot": "A swap must exchange two different kinds of loot.",
    "no_liquor": "A bribe costs one liquor, and there is none to pay.",
    "not_lady": "Only the lady may bribe with dollars.",
    "lone_gangster": "A lone gangster may only bribe or pass (and be arrested).",
    "must_respond": "Only a lone gangster may pass; choose inform, silence or bribe.",
    "not_offered": "This market does not offer that trade.",
    "unknown_demand": "That demand is not one this seat may fulfil.",
    "missing_loot": "The loot the demand needs is not held.",
    "bad_substitute": "The substitute must be a kind of loot the demand needs.",
    "not_bootlegger": "Only the bootlegger may pay the substitute with a liquor.",
    "bad_payment": "That payment does not go with that choice.",
}
"""Every Gangster's Dilemma refusal code with its English text."""
