"""One function per action type: check the game's own rules, then build the next state."""

from __future__ import annotations

from typing import Any

from companion.games.contract import CHANCE, Refusal
from companion.games.gangsters_dilemma import resolve
from companion.games.gangsters_dilemma.legal import (
    available_demands, market_trades, substitute_cost, visitors,
)
from companion.games.gangsters_dilemma.state import Player, State, Work
from companion.games.gangsters_dilemma.codes import Phase
from companion.games.gangsters_dilemma.board import (
    LADY_BRIBE, LIQUOR, LOCATION_START_MONEY, LOOKOUT_FEE, LOOT_INDEX, START_LIQUOR, START_MONEY, TRADES,
)

Action = dict[str, Any]


def _refuse(code: str, message: str | None = None) -> Refusal:
    """The refusal to raise: a game code and, when the code's text is not enough, a message."""
    return Refusal(code, message)


def setup(state: State, a: Action) -> State:
    """Chance deals the police seat, characters and demands; round 1 begins."""
    cfg, n = state.config, state.seats
    chars: tuple[str | None, ...] = a["characters"]
    if not cfg.characters:
        if any(c is not None for c in chars):
            raise _refuse("bad_setup", "this game is played without characters: all must be null")
    elif any(c not in cfg.characters for c in chars) or len(set(chars)) != n:
        raise _refuse("bad_setup", "characters must be distinct ids from the characters option, one per seat")
    shown, elite_ids = a["demands"], tuple(a["elite_demands"])
    dealt = shown + elite_ids
    if any(d not in cfg.by_id for d in dealt) or len(set(dealt)) != len(dealt):
        raise _refuse("bad_setup", "demand ids must be distinct cards of the demand deck")
    has_elite = "elite" in chars
    if len(elite_ids) != (3 if has_elite else 0):
        raise _refuse("bad_setup", "elite_demands takes 3 ids when the elite is dealt, else none")
    players = tuple(
        Player(START_MONEY, (0, 0, 0, START_LIQUOR), c, (), elite_ids if c == "elite" else ())
        for c in chars
    )
    w = Work(state)
    w.players = list(players)
    w.money = [LOCATION_START_MONEY] * state.locations
    w.set(row=tuple(shown), deck=tuple(c.id for c in cfg.cards if c.id not in dealt))
    w.note("setup", {"police": a["police"], "characters": list(chars), "demands": list(shown),
                     "sample_deck": cfg.sample})
    if has_elite:
        w.note("elite_demands", {"seat": chars.index("elite"), "demands": list(elite_ids)},
               to=frozenset({chars.index("elite")}))
    resolve.start_round(w, 1, a["police"])
    return w.freeze()


def _check_location(state: State, loc: int) -> None:
    """Refuse a location this game does not have or that is closed this round."""
    if not 1 <= loc <= state.locations:
        raise _refuse("no_such_location", f"there is no location {loc} in this game (1..{state.locations})")
    if loc in state.closed:
        raise _refuse("closed_location", f"location {loc} is closed this round")


def patrol(state: State, a: Action) -> State:
    """The police commits its two patrols in secret."""
    seat = a["seat"]
    if seat != state.police:
        raise _refuse("not_police")
    first, second = a["locations"]
    _check_location(state, first)
    _check_location(state, second)
    if first == second:
        raise _refuse("same_location")
    w = Work(state)
    w.set(patrols=tuple(sorted((first, second))))
    w.note("patrolled", {"seat": seat, "locations": sorted((first, second))}, to=frozenset({seat}))
    resolve.after_plan_choice(w, seat)
    return w.freeze()


def choose(state: State, a: Action) -> State:
    """A gangster seat picks its location in secret."""
    seat, loc = a["seat"], a["location"]
    if seat == state.police:
        raise _refuse("police_no_gangster")
    _check_location(state, loc)
    w = Work(state)
    choices = list(state.choices)
    choices[seat] = loc
    w.set(choices=tuple(choices))
    w.note("chose", {"seat": seat, "location": loc}, to=frozenset({seat}))
    resolve.after_plan_choice(w, seat)
    return w.freeze()


def peek(state: State, a: Action) -> State:
    """The lookout pays $1 to the police (public) to see one patrol, drawn by chance at once."""
    seat = a["seat"]
    p = state.players[seat]
    if p.character != "lookout" or seat == state.police:
        raise _refuse("not_lookout")
    if state.peeked:
        raise _refuse("already_peeked")
    if not state.patrols:
        raise _refuse("police_not_ready")
    if p.money < LOOKOUT_FEE:
        raise _refuse("no_money")
    w = Work(state)
    w.gain(seat, money=-LOOKOUT_FEE)
    w.gain(state.police, money=LOOKOUT_FEE)
    w.set(peeked=True, phase=Phase.PEEK, acting=frozenset({CHANCE}))
    w.note("peeked", {"seat": seat, "police": state.police, "money": LOOKOUT_FEE})
    return w.freeze()


def lookout_seat(state: State) -> int:
    """The seat holding the lookout (only asked while a peek is pending, so there is one)."""
    return next(s for s, p in enumerate(state.players) if p.character == "lookout")


def reveal_patrol(state: State, a: Action) -> State:
    """Chance shows the lookout one of the two patrols; planning resumes."""
    lookout = lookout_seat(state)
    if a["target"] is not None and a["target"] != lookout:
        raise _refuse("not_lookout", "reveal_patrol's target must be the lookout")
    if a["location"] not in state.patrols:
        raise _refuse("not_patrolled")
    w = Work(state)
    waiting = frozenset(s for s in range(state.seats) if s != state.police and state.choices[s] is None)
    w.set(peek=a["location"], phase=Phase.PLAN, acting=waiting)
    w.note("patrol_seen", {"seat": lookout, "location": a["location"]}, to=frozenset({lookout}))
    return w.freeze()


def _same_place_target(state: State, seat: int, target: int) -> None:
    """Refuse a hitman/flapper target that is not another gangster at the same location."""
    if target == seat or state.choices[target] != state.choices[seat] or target == state.police:
        raise _refuse("bad_target")


def swap(state: State, a: Action) -> State:
    """The hitman swaps one loot token one-for-one with another gangster at the same location."""
    seat, target = a["seat"], a["target"]
    if state.players[seat].character != "hitman":
        raise _refuse("not_hitman")
    _same_place_target(state, seat, target)
    give, take = LOOT_INDEX[a["give"]], LOOT_INDEX[a["take"]]
    if give == take:
        raise _refuse("same_loot")
    if state.players[seat].loot[give] < 1 or state.players[target].loot[take] < 1:
        raise _refuse("no_loot")
    w = Work(state)
    delta = [0, 0, 0, 0]
    delta[give], delta[take] = -1, 1
    w.gain(seat, loot=tuple(delta))  # type: ignore[arg-type]
    w.gain(target, loot=tuple(-d for d in delta))  # type: ignore[arg-type]
    w.note("swapped", {"seat": seat, "target": target, "give": a["give"], "take": a["take"]})
    resolve.after_ability(w, seat)
    return w.freeze()


def steal(state: State, a: Action) -> State:
    """The flapper takes $1 from another gangster at the same location."""
    seat, target = a["seat"], a["target"]
    if state.players[seat].character != "flapper":
        raise _refuse("not_flapper")
    _same_place_target(state, seat, target)
    if state.players[target].money < 1:
        raise _refuse("no_money", "the target has no money to take")
    w = Work(state)
    w.gain(target, money=-1)
    w.gain(seat, money=1)
    w.note("stole", {"seat": seat, "target": target, "money": 1})
    resolve.after_ability(w, seat)
    return w.freeze()


def skip(state: State, a: Action) -> State:
    """The hitman or flapper lets its ability go this round."""
    w = Work(state)
    w.note("skipped", {"seat": a["seat"]})
    resolve.after_ability(w, a["seat"])
    return w.freeze()


def respond(state: State, a: Action) -> State:
    """A gangster met by the police answers inform, silence or bribe in secret."""
    seat, response, pay = a["seat"], a["response"], a["pay"]
    p = state.players[seat]
    if len(visitors(state, state.current)) == 1 and response != "bribe":
        raise _refuse("lone_gangster")
    if response != "bribe":
        if pay is not None:
            raise _refuse("bad_payment", "only a bribe is paid")
    elif pay == "dollars":
        if p.character != "lady":
            raise _refuse("not_lady")
        if p.money < LADY_BRIBE:
            raise _refuse("no_money")
    else:
        pay = "liquor"
        if p.loot[LIQUOR] < 1:
            raise _refuse("no_liquor")
    return _record_response(state, seat, (response, pay if response == "bribe" else None))


def _record_response(state: State, seat: int, answer: tuple[str, str | None]) -> State:
    """Hold a response hidden; the last one in reveals them all and resolves the location."""
    w = Work(state)
    responses = list(state.responses)
    responses[seat] = answer
    acting = state.acting - {seat}
    w.set(responses=tuple(responses), acting=acting)
    w.note("response", {"seat": seat, "response": answer[0], "pay": answer[1]}, to=frozenset({seat}))
    if not acting:
        resolve.resolve_responses(w)
    return w.freeze()


def pass_(state: State, a: Action) -> State:
    """A lone gangster accepts arrest, or a visitor declines to fulfil a demand."""
    seat = a["seat"]
    if state.phase == "respond":
        if len(visitors(state, state.current)) != 1:
            raise _refuse("must_respond")
        return _record_response(state, seat, ("pass", None))
    w = Work(state)
    w.note("passed", {"seat": seat})
    resolve.continue_fulfil(w)
    return w.freeze()


def trade(state: State, a: Action) -> State:
    """A successful market visitor makes one trade with the bank, or none."""
    seat, kind = a["seat"], a["trade"]
    w = Work(state)
    if kind != "none":
        if kind not in market_trades(state, state.current):
            raise _refuse("not_offered")
        slot, tokens = TRADES[kind]
        price = state.config.market_price
        p = state.players[seat]
        if tokens > 0 and p.money < price:
            raise _refuse("no_money")
        if tokens < 0 and p.loot[slot] < 1:
            raise _refuse("no_loot")
        delta = [0, 0, 0, 0]
        delta[slot] = tokens
        w.gain(seat, money=-price * tokens, loot=tuple(delta))  # type: ignore[arg-type]
    w.note("traded", {"seat": seat, "trade": kind, "price": state.config.market_price})
    acting = state.acting - {seat}
    w.set(acting=acting)
    if not acting and not resolve.start_fulfil(w):
        resolve.next_location(w)
    return w.freeze()


def fulfil(state: State, a: Action) -> State:
    """A successful visitor hands in loot (one token may be paid another way) for a boss demand."""
    seat, ident, sub, pay = a["seat"], a["demand"], a["substitute"], a["pay"]
    if ident not in available_demands(state, seat):
        raise _refuse("unknown_demand")
    p = state.players[seat]
    needs = list(state.config.by_id[ident].needs)
    if sub is None:
        if pay is not None:
            raise _refuse("bad_payment", "pay goes with a substitute")
    else:
        slot = LOOT_INDEX[sub]
        if not needs[slot]:
            raise _refuse("bad_substitute")
        pay = pay or "dollars"
        if pay == "liquor":
            if p.character != "bootlegger":
                raise _refuse("not_bootlegger")
            if slot == LIQUOR:
                raise _refuse("bad_payment", "paying a liquor in place of a liquor is no substitute")
        needs[slot] -= 1
        if pay == "liquor":
            needs[LIQUOR] += 1
    if any(h < n for h, n in zip(p.loot, needs)):
        raise _refuse("missing_loot")
    cost = substitute_cost(p) if pay == "dollars" else 0
    if p.money < cost:
        raise _refuse("no_money")
    w = Work(state)
    w.gain(seat, money=-cost, loot=tuple(-n for n in needs))  # type: ignore[arg-type]
    from_row = ident in state.row
    player = w.players[seat]
    w.players[seat] = Player(player.money, player.loot, player.character, player.fulfilled + (ident,),
                             tuple(d for d in player.private if d != ident))
    if from_row:
        w.set(row=tuple(d for d in state.row if d != ident))
    w.note("fulfilled", {"seat": seat, "demand": ident, "vp": state.config.by_id[ident].vp,
                         "substitute": sub, "pay": pay if sub else None, "private": not from_row})
    if from_row:
        resolve.after_fulfil(w)
    else:
        resolve.continue_fulfil(w)
    return w.freeze()


def reveal_demand(state: State, a: Action) -> State:
    """Chance turns up the replacement for a fulfilled demand."""
    ident = a["demand"]
    if ident not in state.deck:
        raise _refuse("not_in_deck")
    w = Work(state)
    w.set(row=state.row + (ident,), deck=tuple(d for d in state.deck if d != ident))
    w.note("demand_revealed", {"demand": ident})
    resolve.continue_fulfil(w)
    return w.freeze()
