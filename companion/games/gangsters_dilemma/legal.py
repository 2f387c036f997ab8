"""What a seat may do now: the choices each phase offers (shared by legal_actions and 'who is asked')."""

from __future__ import annotations

from itertools import combinations

from companion.games.gangsters_dilemma.options import Config, Demand
from companion.games.gangsters_dilemma.state import Player, State, Work

AnyState = State | Work
"""Legal checks read a finished state or the working copy inside an apply alike."""
from companion.games.gangsters_dilemma.board import (
    BLACK_MARKET_TRADES, LADY_BRIBE, LIQUOR, LOOKOUT_FEE, LOOT, MARKET, RIGHT_HAND_COST, SPEAKEASY,
    SPEAKEASY_TRADES, SUBSTITUTE_COST, TRADES,
)

FulfilChoice = tuple[str, str | None, str | None]
"""(demand id, substitute loot or None, pay "dollars"/"liquor" or None)."""


LOCATION_IDS = tuple(tuple(range(1, n + 1)) for n in range(7))
"""The location ids of a game with n locations (n up to 6), by n."""


def open_locations(state: AnyState) -> list[int]:
    """Location ids open this round."""
    closed = state.closed
    if not closed:
        return list(LOCATION_IDS[state.locations])
    return [loc for loc in LOCATION_IDS[state.locations] if loc not in closed]


def patrol_choices(state: AnyState) -> list[tuple[int, int]]:
    """Every pair of distinct open locations."""
    return list(combinations(open_locations(state), 2))


def visitors(state: AnyState, loc: int) -> list[int]:
    """Seats whose gangster is at this location (known once revealed)."""
    return [s for s, c in enumerate(state.choices) if c == loc]


def can_peek(state: AnyState, seat: int) -> bool:
    """The lookout may pay to peek: police committed, not yet chosen or peeked, $1 in hand."""
    p = state.players[seat]
    return (
        p.character == "lookout" and seat != state.police and bool(state.patrols) and not state.peeked
        and state.choices[seat] is None and p.money >= LOOKOUT_FEE
    )


def swap_choices(state: AnyState, seat: int) -> list[tuple[int, str, str]]:
    """The hitman's possible swaps: (target, give, take) with two different kinds of loot."""
    mine = state.players[seat].loot
    out = []
    for target in visitors(state, state.choices[seat]):
        if target == seat:
            continue
        theirs = state.players[target].loot
        for g in range(4):
            if mine[g]:
                for t in range(4):
                    if t != g and theirs[t]:
                        out.append((target, LOOT[g], LOOT[t]))
    return out


def steal_targets(state: AnyState, seat: int) -> list[int]:
    """The flapper's possible victims: other gangsters at the same location holding $1."""
    return [t for t in visitors(state, state.choices[seat])
            if t != seat and state.players[t].money >= 1]


def ability_choices(state: AnyState, seat: int) -> bool:
    """Whether this seat has a hitman or flapper move to make right after the reveal."""
    if seat == state.police or state.choices[seat] is None:
        return False
    character = state.players[seat].character
    if character == "hitman":
        return bool(swap_choices(state, seat))
    if character == "flapper":
        return bool(steal_targets(state, seat))
    return False


def bribe_pays(player: Player) -> list[str]:
    """How this seat can pay a bribe: a liquor, or (the lady) $2."""
    pays = ["liquor"] if player.loot[LIQUOR] >= 1 else []
    if player.character == "lady" and player.money >= LADY_BRIBE:
        pays.append("dollars")
    return pays


def market_trades(state: AnyState, loc: int) -> tuple[str, ...]:
    """The trades a market location offers (both markets when 5 and 6 are merged)."""
    if loc == MARKET:
        return BLACK_MARKET_TRADES + (SPEAKEASY_TRADES if state.locations == MARKET else ())
    if loc == SPEAKEASY:
        return SPEAKEASY_TRADES
    return ()


def trade_choices(state: AnyState, loc: int, player: Player) -> list[str]:
    """Trades this player can afford at this market."""
    price = state.config.market_price
    return [
        t for t in market_trades(state, loc)
        if (player.money >= price if TRADES[t][1] > 0 else player.loot[TRADES[t][0]] >= 1)
    ]


def substitute_cost(player: Player) -> int:
    """Dollars that replace one required token ($2 for the right hand)."""
    return RIGHT_HAND_COST if player.character == "right_hand" else SUBSTITUTE_COST


def available_demands(state: AnyState, seat: int) -> tuple[str, ...]:
    """Demands this seat may fulfil: the revealed row, plus the elite's private ones."""
    return state.row + state.players[seat].private


def demand_choices(config: Config, player: Player, demand: Demand) -> list[FulfilChoice]:
    """Every distinct way this player can pay for this demand."""
    loot, needs = player.loot, demand.needs
    short = [i for i in range(4) if loot[i] < needs[i]]
    if len(short) > 1 or (short and loot[short[0]] < needs[short[0]] - 1):
        return []  # more than one token missing: even a substitute cannot cover it
    out: list[FulfilChoice] = []
    if not short:
        out.append((demand.id, None, None))
    for sub in short or [i for i in range(4) if needs[i]]:
        if player.money >= substitute_cost(player):
            out.append((demand.id, LOOT[sub], "dollars"))
        if player.character == "bootlegger" and sub != LIQUOR and loot[LIQUOR] >= needs[LIQUOR] + 1:
            out.append((demand.id, LOOT[sub], "liquor"))
    return out


def fulfil_choices(state: AnyState, seat: int, first_only: bool = False) -> list[FulfilChoice]:
    """Every way this seat can fulfil a demand now (just the first found with `first_only`)."""
    player = state.players[seat]
    out: list[FulfilChoice] = []
    for ident in available_demands(state, seat):
        out += demand_choices(state.config, player, state.config.by_id[ident])
        if first_only and out:
            break
    return out
