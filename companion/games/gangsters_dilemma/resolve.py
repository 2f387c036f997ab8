"""The round's flow after a choice: reveal, locations 1→6, trades, demands, end of round, end of game."""

from __future__ import annotations

from companion.games.contract import CHANCE
from companion.games.gangsters_dilemma.legal import (
    ability_choices, bribe_pays, fulfil_choices, trade_choices, visitors,
)
from companion.games.gangsters_dilemma.state import Work
from companion.games.gangsters_dilemma.codes import Phase
from companion.games.gangsters_dilemma.board import (
    ENFORCER_BONUS, LADY_BRIBE, LOCATION_LOOT, LOCATION_NAMES, LOOT, WIN_VP,
)

NO_LOOT = (0, 0, 0, 0)


def start_round(w: Work, number: int, police: int) -> None:
    """Open round `number` with `police` patrolling; everybody plans in secret."""
    n = w.seats
    w.set(
        phase=Phase.PLAN, acting=frozenset(range(n)), round=number, police=police, patrols=(),
        choices=(None,) * n, revealed=False, peeked=False, peek=None, current=0, responses=(),
        successes=(), queue=(), arrests=frozenset(), enforcer_paid=False,
    )
    w.note("round", {"round": number, "police": police})


def after_plan_choice(w: Work, seat: int) -> None:
    """A plan choice is in: wait for the others, or reveal everything at once."""
    acting = w.acting - {seat}
    w.set(acting=acting)
    if acting:
        return
    w.set(revealed=True, log_from=w.log_length())
    w.note("revealed", {"patrols": sorted(w.patrols), "choices": list(w.choices)})
    able = frozenset(s for s in range(w.seats) if ability_choices(w, s))
    if able:
        w.set(phase=Phase.ABILITIES, acting=able)
    else:
        next_location(w)


def after_ability(w: Work, seat: int) -> None:
    """A hitman or flapper has acted; resolution starts when both have."""
    acting = w.acting - {seat}
    w.set(acting=acting)
    if not acting:
        next_location(w)


def next_location(w: Work) -> None:
    """Resolve locations after the current one, in order, until a seat or chance must act."""
    loc = w.current
    while True:
        loc += 1
        if loc > w.locations:
            end_round(w)
            return
        there = visitors(w, loc)
        if not there:
            continue
        w.set(current=loc)
        if loc in w.patrols:
            lone = there[0] if len(there) == 1 else None
            if lone is not None and not (w.config.lone_bribe and bribe_pays(w.players[lone])):
                arrest(w, loc, there)
                continue
            w.set(phase=Phase.RESPOND, acting=frozenset(there), responses=(None,) * w.seats)
            return
        if succeed(w, loc, there):
            return


def arrest(w: Work, loc: int, seats: list[int]) -> None:
    """Arrested gangsters hand every loot token to the police seat and keep their money."""
    for seat in seats:
        loot = w.players[seat].loot
        w.gain(seat, loot=tuple(-x for x in loot))
        w.gain(w.police, loot=loot)
        w.note("arrested", {"seat": seat, "location": loc, "police": w.police, **dict(zip(LOOT, loot))})
    w.set(arrests=w.arrests | {loc})


def succeed(w: Work, loc: int, winners: list[int]) -> bool:
    """Successful visitors split the money and take the loot; True if a seat must now act."""
    pile = w.money[loc - 1]
    share = pile // len(winners)
    w.money[loc - 1] = pile - share * len(winners)
    kind = LOCATION_LOOT.get(loc)
    gained = tuple(int(i == kind) for i in range(4)) if kind is not None else NO_LOOT
    for seat in winners:
        w.gain(seat, money=share, loot=gained)
    w.note("success", {"location": loc, "seats": winners, "share": share,
                       "left": w.money[loc - 1], "loot": LOOT[kind] if kind is not None else None})
    w.set(successes=tuple(winners))
    traders = frozenset(s for s in winners if trade_choices(w, loc, w.players[s]))
    if traders:
        w.set(phase=Phase.TRADE, acting=traders)
        return True
    return start_fulfil(w)


def resolve_responses(w: Work) -> None:
    """All responses at the current location are in: reveal them and settle bribes, arrests, success."""
    loc, police = w.current, w.police
    there = visitors(w, loc)
    w.note("responses", {"location": loc, "responses": [w.responses[s][0] for s in there], "seats": there})
    stay: list[int] = []
    bribed = False
    for seat in there:
        response, pay = w.responses[seat]
        if response == "bribe":
            bribed = True
            if pay == "dollars":
                w.gain(seat, money=-LADY_BRIBE)
                w.gain(police, money=LADY_BRIBE)
            else:
                w.gain(seat, loot=(0, 0, 0, -1))
                w.gain(police, loot=(0, 0, 0, 1))
            w.note("bribed", {"seat": seat, "location": loc, "pay": pay})
        elif response == "pass":
            arrest(w, loc, [seat])
        else:
            stay.append(seat)
    if bribed and not w.enforcer_paid:
        enforcer = next((s for s, p in enumerate(w.players) if p.character == "enforcer"), None)
        if enforcer is not None:
            w.gain(enforcer, money=ENFORCER_BONUS)
            w.set(enforcer_paid=True)
            w.note("enforcer_paid", {"seat": enforcer, "money": ENFORCER_BONUS})
    informers = [s for s in stay if w.responses[s][0] == "inform"]
    silent = [s for s in stay if w.responses[s][0] == "silence"]
    if not informers:
        winners = silent
    elif silent:
        arrest(w, loc, silent)
        winners = informers
    else:
        arrest(w, loc, informers)
        winners = []
    if winners and succeed(w, loc, winners):
        return
    next_location(w)


def start_fulfil(w: Work) -> bool:
    """Offer demands to the successful visitors, clockwise from the police; True if one is asked."""
    police, n = w.police, w.seats
    w.set(queue=tuple(sorted(w.successes, key=lambda s: (s - police) % n)))
    return next_fulfil(w)


def next_fulfil(w: Work) -> bool:
    """Ask the next successful visitor who can pay for some demand; True if one is asked."""
    queue = list(w.queue)
    while queue:
        seat = queue.pop(0)
        if fulfil_choices(w, seat, first_only=True):
            w.set(queue=tuple(queue), phase=Phase.FULFIL, acting=frozenset({seat}))
            return True
    w.set(queue=())
    return False


def continue_fulfil(w: Work) -> None:
    """After a demand was fulfilled or passed (and replaced): the next visitor, or the next location."""
    if not next_fulfil(w):
        next_location(w)


def after_fulfil(w: Work) -> None:
    """A demand was fulfilled: reveal its replacement at once if the deck has one."""
    if w.deck:
        w.set(phase=Phase.REVEAL_DEMAND, acting=frozenset({CHANCE}))
    else:
        continue_fulfil(w)


def end_round(w: Work) -> None:
    """Close patrolled locations without arrests, +$1 everywhere, then end the game or rotate the police."""
    closed = frozenset(p for p in w.patrols if p not in w.arrests)
    w.money[:] = [m + 1 for m in w.money]
    w.set(closed=closed, current=0, successes=(), queue=())
    if closed:
        w.note("closed", {"locations": sorted(closed), "names": [LOCATION_NAMES[c - 1] for c in sorted(closed)]})
    vps = [p.vp(w.config) for p in w.players]
    no_more = not w.deck and not w.row and not any(p.private for p in w.players)
    if max(vps) >= WIN_VP or no_more:
        best = max(vps)
        richest = max(p.money for p, v in zip(w.players, vps) if v == best)
        winners = frozenset(s for s, (p, v) in enumerate(zip(w.players, vps)) if v == best and p.money == richest)
        reason = "21_vp" if best >= WIN_VP else "no_demands"
        w.set(phase=Phase.GAME_OVER, acting=frozenset(), winners=winners, end_reason=reason)
        w.note("game_over", {"winners": sorted(winners), "vp": vps, "why": reason})
        return
    start_round(w, w.round + 1, (w.police + 1) % w.seats)

