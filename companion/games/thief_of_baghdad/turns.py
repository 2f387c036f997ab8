"""Setup and the turn cycle: the initial state, the deal, ending a turn and the chance draw."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.contract import Refusal
from companion.games.log import Log
from companion.games.thief_of_baghdad.board import (
    CARDS_PER_COLOUR, CHESTS, DANCER_INDEX, DANCERS, DRAW, DRAW_IDLE, GUARDS_PER_SEAT, PALACES,
    THIEVES_PER_SEAT, hand_sizes,
)
from companion.games.thief_of_baghdad.chance import check_deal, check_draw, colour_counts
from companion.games.thief_of_baghdad.codes import Phase
from companion.games.thief_of_baghdad.state import HAND_WIDTH, Event, State, bump, event


def initial(seats: int, first_hand: int) -> State:
    """Palaces with one neutral guard and their chests; thieves in supply; chance is to deal."""
    neutral_only = bytes(seats) + b"\x01"
    return State(
        seats=seats,
        first_hand=first_hand,
        phase=Phase.DEAL,
        turn=0,
        unplaced=bytes((GUARDS_PER_SEAT[seats],) * seats),
        guards=neutral_only * PALACES,
        thieves=bytes(PALACES * seats),
        chests=bytes((len(CHESTS),) * PALACES),
        supply=bytes((THIEVES_PER_SEAT,) * seats),
        won=bytes(seats),
        hands=bytes(HAND_WIDTH * seats),
        pile=bytes((CARDS_PER_COLOUR,) * PALACES),
        discard=bytes(PALACES),
        dancers=DANCERS,
        thief_moves=0,
        acted=False,
        pending_draw=0,
        winner=None,
        log=Log(),
        turn_start=0,
        log_from=0,
    )


def deal(state: State, action: dict[str, Any]) -> State:
    """The starting hands (6/7/8/9 by seat order, `first_hand` for seat 0) from the 102-card pile."""
    sizes = hand_sizes(state.seats, state.first_hand)
    dealt, pile = check_deal(action["hands"], sizes)
    private = [event("dealt", reader=seat, seat=seat, cards=action["hands"][seat]) for seat in range(state.seats)]
    return replace(
        state,
        hands=b"".join(counts + b"\x00" for counts in dealt),
        pile=pile,
        phase=Phase.PLACE,
        turn=0,
        log=state.log.append(event("deal", hand_sizes=sizes)).extend(private),
    )


def _next_turn(state: State, log: Log) -> State:
    """The next seat's turn begins; views keep showing the turn that just ended."""
    return replace(
        state,
        phase=Phase.TURN,
        turn=(state.turn + 1) % state.seats,
        thief_moves=0,
        acted=False,
        pending_draw=0,
        log=log,
        log_from=state.turn_start,
        turn_start=len(log),
    )


def end_turn(state: State, action: dict[str, Any]) -> State:
    """End the turn; after a turn with no action a dancer may be taken (then 3 cards, else 4)."""
    seat, take = action["seat"], action["take_dancer"]
    if take:
        if state.acted:
            raise Refusal("dancer_needs_idle_turn")
        if not state.dancers:
            raise Refusal("no_dancer_left")
    want = DRAW if state.acted or take else DRAW_IDLE
    # With every palace card in hands there is less (or nothing) to draw; the turn then passes on.
    count = min(want, sum(state.pile) + sum(state.discard))
    log = state.log.append(event("end_turn", seat=seat, take_dancer=take, draws=count))
    if take:
        state = replace(
            state, dancers=state.dancers - 1, hands=bump(state.hands, seat * HAND_WIDTH + DANCER_INDEX, 1)
        )
    if not count:
        return _next_turn(state, log)
    return replace(state, phase=Phase.DRAW, pending_draw=count, log=log)


def draw(state: State, action: dict[str, Any]) -> State:
    """Chance's draw for the seat that just ended its turn; a pile running out takes in the discard."""
    seat = state.turn
    if action["target"] is not None and action["target"] != seat:
        raise Refusal("wrong_target", f"the draw is for seat {seat}")
    drawn = colour_counts(action["cards"])
    if sum(drawn) != state.pending_draw:
        raise Refusal("wrong_draw_count", f"seat {seat} draws {state.pending_draw} card(s) now")
    pile, discard, reshuffled = check_draw(state.pile, state.discard, drawn)
    start = seat * HAND_WIDTH
    hand = bytes(h + d for h, d in zip(state.hand(seat), drawn + b"\x00"))
    more: list[Event] = [event("reshuffle", cards=reshuffled)] if reshuffled else []
    more += [event("draw", seat=seat, count=len(action["cards"])),
             event("drew", reader=seat, seat=seat, cards=action["cards"])]
    state = replace(
        state,
        pile=pile,
        discard=discard,
        hands=state.hands[:start] + hand + state.hands[start + HAND_WIDTH:],
    )
    return _next_turn(state, state.log.extend(more))
