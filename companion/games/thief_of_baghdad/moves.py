"""A turn's actions: guard placement, infiltrate, moving guards, and the theft they may trigger."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.contract import Refusal
from companion.games.thief_of_baghdad.board import (
    CARD_INDEX, COLORS, DANCER_INDEX, GUARD_SPACES, THIEF_MOVES_PER_TURN, WIN_CHESTS,
)
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.payments import (
    check_payment, infiltrate_slots, move_guard_slots, move_neutral_slots,
)
from companion.games.thief_of_baghdad.state import HAND_WIDTH, State, bump, event


def place_guard(state: State, action: dict[str, Any]) -> State:
    """Put one of the placing seat's guards on a free space; the next seat places next."""
    seat, palace = action["seat"], CARD_INDEX[action["palace"]]
    if sum(state.guards_at(palace)) >= GUARD_SPACES:
        raise Refusal("palace_full", f"{action['palace']} has no free guard space")
    unplaced = bump(state.unplaced, seat, -1)
    guards = bump(state.guards, palace * (state.seats + 1) + seat, 1)
    log = state.log.append(event("place_guard", seat=seat, palace=action["palace"]))
    if any(unplaced):
        # Every seat has the same number of guards, so turn order simply goes round.
        return replace(state, unplaced=unplaced, guards=guards, turn=(seat + 1) % state.seats, log=log)
    return replace(
        state, unplaced=unplaced, guards=guards, turn=0, phase=Phase.TURN, log=log, turn_start=len(log), log_from=0
    )


def _pay(state: State, seat: int, paid: tuple[int, ...]) -> dict[str, Any]:
    """The hands, discard and dancer supply after paying `paid` (colours to the discard, dancers back)."""
    start = seat * HAND_WIDTH
    hand = bytes(h - p for h, p in zip(state.hand(seat), paid))
    return {
        "hands": state.hands[:start] + hand + state.hands[start + HAND_WIDTH:],
        "discard": bytes(d + p for d, p in zip(state.discard, paid)),
        "dancers": state.dancers + paid[DANCER_INDEX],
    }


def _check_thief_move(state: State) -> None:
    if state.thief_moves >= THIEF_MOVES_PER_TURN:
        raise Refusal("thief_limit", f"{THIEF_MOVES_PER_TURN} thief moves were already made this turn")


def _check_move(state: State, origin: int, destination: int, owner: int) -> None:
    """Different palaces, a guard of `owner` at the origin, a free space at the destination."""
    if origin == destination:
        raise Refusal("same_palace")
    if not state.guard(origin, owner):
        if owner == state.seats:
            raise Refusal("no_neutral_guard", f"no neutral guard at {COLORS[origin]}")
        raise Refusal("no_own_guard", f"seat {owner} has no guard at {COLORS[origin]}")
    if sum(state.guards_at(destination)) >= GUARD_SPACES:
        raise Refusal("palace_full", f"{COLORS[destination]} has no free guard space")


def _move_guard(guards: bytes, seats: int, owner: int, origin: int, destination: int) -> bytes:
    width = seats + 1
    return bump(bump(guards, origin * width + owner, -1), destination * width + owner, 1)


def _steal(state: State, seat: int, palace: int) -> State:
    """Take the top chest if this seat's thieves there now match it; a winning chest ends the game."""
    values = state.chest_values(palace)
    if not values or state.thief(palace, seat) < values[0]:
        return state
    won = bump(state.won, seat, 1)
    log = state.log.append(event("steal", seat=seat, palace=COLORS[palace], chest=values[0]))
    state = replace(
        state,
        chests=bump(state.chests, palace, -1),
        thieves=bump(state.thieves, palace * state.seats + seat, -values[0]),
        supply=bump(state.supply, seat, values[0]),
        won=won,
        log=log,
    )
    if won[seat] >= WIN_CHESTS[state.seats]:
        return replace(state, phase=Phase.OVER, winner=seat, log=log.append(event("win", seat=seat, chests=won[seat])))
    return state


def infiltrate(state: State, action: dict[str, Any]) -> State:
    """A thief from supply into a courtyard holding an own and a foreign guard; one card per foreign guard."""
    seat, palace = action["seat"], CARD_INDEX[action["palace"]]
    _check_thief_move(state)
    if not state.supply[seat]:
        raise Refusal("no_thief_in_supply")
    guards = state.guards_at(palace)
    if not guards[seat]:
        raise Refusal("no_own_guard", f"seat {seat} has no guard at {action['palace']}")
    foreign = sum(guards) - guards[seat]
    if not foreign:
        raise Refusal("no_foreign_guard", f"only seat {seat}'s guards are at {action['palace']}")
    paid = check_payment(state.hand(seat), action["cards"], infiltrate_slots(palace, foreign))
    state = replace(
        state,
        **_pay(state, seat, paid),
        supply=bump(state.supply, seat, -1),
        thieves=bump(state.thieves, palace * state.seats + seat, 1),
        thief_moves=state.thief_moves + 1,
        acted=True,
        log=state.log.append(event("infiltrate", seat=seat, palace=action["palace"], cards=action["cards"])),
    )
    return _steal(state, seat, palace)


def move_guard(state: State, action: dict[str, Any]) -> State:
    """Move an own guard (one card of origin or destination colour), maybe carrying one own thief."""
    seat, carry = action["seat"], action["with_thief"]
    origin, destination = CARD_INDEX[action["from"]], CARD_INDEX[action["to"]]
    _check_move(state, origin, destination, seat)
    if carry:
        if not state.thief(origin, seat):
            raise Refusal("no_thief_to_carry", f"seat {seat} has no thief at {action['from']}")
        _check_thief_move(state)
    paid = check_payment(state.hand(seat), action["cards"], move_guard_slots(origin, destination))
    thieves = state.thieves
    if carry:
        thieves = bump(bump(thieves, origin * state.seats + seat, -1), destination * state.seats + seat, 1)
    state = replace(
        state,
        **_pay(state, seat, paid),
        guards=_move_guard(state.guards, state.seats, seat, origin, destination),
        thieves=thieves,
        thief_moves=state.thief_moves + carry,
        acted=True,
        log=state.log.append(event(
            "move_guard", seat=seat, **{"from": action["from"]}, to=action["to"],
            cards=action["cards"], with_thief=carry,
        )),
    )
    return _steal(state, seat, destination) if carry else state


def move_neutral(state: State, action: dict[str, Any]) -> State:
    """Move a neutral guard: one card of the origin's colour and one of the destination's."""
    seat = action["seat"]
    origin, destination = CARD_INDEX[action["from"]], CARD_INDEX[action["to"]]
    _check_move(state, origin, destination, state.seats)
    paid = check_payment(state.hand(seat), action["cards"], move_neutral_slots(origin, destination))
    return replace(
        state,
        **_pay(state, seat, paid),
        guards=_move_guard(state.guards, state.seats, state.seats, origin, destination),
        acted=True,
        log=state.log.append(event(
            "move_neutral", seat=seat, **{"from": action["from"]}, to=action["to"], cards=action["cards"],
        )),
    )



