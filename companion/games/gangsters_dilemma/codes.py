"""Gangster's Dilemma's vocabulary: phases, outcome reasons, refusal codes (engine and binding) and log codes."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from companion.games.contract import Described


class Phase(Described):
    """Every `phase` value of the view."""

    SETUP = "setup", "Chance deals the police seat, the characters and the revealed (and elite) demands."
    PLAN = ("plan", "The police patrols two open locations and every other seat sends a gangster, all in "
            "secret; the lookout may pay to peek once the police has committed.")
    PEEK = "peek", "Chance reveals one of the two patrols, at random, to the lookout alone."
    ABILITIES = ("abilities", "Right after the reveal: the hitman may swap a loot token and the flapper may take "
                 "$1 from another gangster at the same location, or skip.")
    RESPOND = ("respond", "The gangsters met by the police at the location being resolved choose inform, silence "
               "or bribe in secret (a lone gangster, when the house rule allows, bribes or passes).")
    TRADE = "trade", "Successful visitors of a market each may make one trade with the bank."
    FULFIL = "fulfil", "A successful visitor, clockwise from the police, may fulfil one boss demand."
    REVEAL_DEMAND = "reveal_demand", "Chance reveals the demand that replaces a fulfilled one."
    GAME_OVER = "game_over", "Someone reached 21 VP, or no demand can be fulfilled any more; the game is judged."


class Reason(StrEnum):
    """Why a game ended (the log's `game_over` says whether 21 VP were reached or no demand was left)."""

    VP = "vp"


CODES: Final[dict[str, str]] = {
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

LOG_CODES: Final[dict[str, tuple[str, ...]]] = {
    "setup": ("police", "characters", "demands", "sample_deck"),
    "elite_demands": ("seat", "demands"),
    "round": ("round", "police"),
    "chose": ("seat", "location"),
    "patrolled": ("seat", "locations"),
    "peeked": ("seat", "police", "money"),
    "patrol_seen": ("seat", "location"),
    "revealed": ("patrols", "choices"),
    "swapped": ("seat", "target", "give", "take"),
    "stole": ("seat", "target", "money"),
    "skipped": ("seat",),
    "closed": ("locations", "names"),
    "arrested": ("seat", "location", "police", "crate", "art", "jewel", "liquor"),
    "response": ("seat", "response", "pay"),
    "responses": ("location", "responses", "seats"),
    "bribed": ("seat", "location", "pay"),
    "enforcer_paid": ("seat", "money"),
    "success": ("location", "seats", "share", "left", "loot"),
    "passed": ("seat",),
    "traded": ("seat", "trade", "price"),
    "fulfilled": ("seat", "demand", "vp", "substitute", "pay", "private"),
    "demand_revealed": ("demand",),
    "game_over": ("winners", "vp", "why"),
}
"""Every log entry code the engine writes, with its params (`elite_demands`, `chose`, `patrolled`, `patrol_seen`
and `response` are private to one seat)."""

BINDING_CODES: Final[dict[str, str]] = {
    "choose_payment": "Choose on your terminal or page how this demand is paid.",
    "wrong_phase": "That card means nothing at this point of the round.",
    "not_your_turn": "Another seat is acting now.",
    "not_police": "Only the police seat patrols, at its own reader.",
    "no_such_location": "There is no such location in this game.",
    "closed_location": "That location is closed this round.",
    "missing_loot": "The loot this demand needs is not held.",
}
"""Codes the table binding raises itself (engine codes raised early, and its own)."""
