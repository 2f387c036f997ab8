"""What a Secret Hitler seat remembers and believes, rebuilt from its own views alone.

The memory is folded over every view the seat is shown, in order: the log entries that enter the view's window
(the public ones and this seat's private ones: what it drew, received, investigated or peeked), its role, what
it knows of other roles and its investigations. From them it keeps a belief per seat, P(fascist party),
updated by Bayes' rule from each government's enacted policy (`odds.fascist_enactment`), from what it handed
on or received itself, and (weakly) from the votes that elected a government; and the public facts that rule
Hitler out (a chancellor elected after three fascist policies without the game ending, an executed seat).
"""

from __future__ import annotations

import math
from copy import copy
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.bots.secret_hitler.odds import (
    COVER, SLIP, draw_odds, fascist_enactment, president_passed_fascists, remaining,
)
from companion.bots.window import new_entries

FASCIST_PARTY = {5: 2, 6: 2, 7: 3, 8: 3, 9: 4, 10: 4}
"""Seats -> how many seats are of the fascist party (the fascists and Hitler)."""
LIBERAL, FASCIST, HITLER = "liberal", "fascist", "hitler"
HITLER_ELECTABLE_AT = 3
"""Fascist policies after which an elected Hitler chancellor wins (and an elected chancellor who does not win
is proven not Hitler)."""
FLOOR, CEILING = 0.01, 0.99
"""A belief without proof stays inside these bounds."""
VOTE_EVIDENCE = 1.3
"""The odds factor toward fascist for a ja on a government that then enacted a fascist policy (and the
inverse for a nein)."""


@dataclass(frozen=True, slots=True)
class Memory:
    """One seat's memory of the game so far (a value: `observe` returns a new one when anything changed)."""

    seat: int
    seats: int = 0
    role: str | None = None
    window: tuple[Mapping[str, Any], ...] = ()
    """The last log window seen (to tell the next one's new entries)."""
    belief: tuple[float, ...] = ()
    """Per seat: P(fascist party) as this seat believes it (its own and proven seats: 0 or 1)."""
    proven: tuple[str | None, ...] = ()
    """Per seat: the party this seat knows for sure (its own, the roles it was shown, its investigations)."""
    hitler: int | None = None
    """The seat it knows is Hitler, if it knows."""
    not_hitler: frozenset[int] = frozenset()
    """Seats the public record proves are not Hitler."""
    liberal_enacted: int = 0
    fascist_enacted: int = 0
    nominee: tuple[int, int] | None = None
    government: tuple[int, int] | None = None
    """The elected government whose session is running (president, chancellor)."""
    elected_by: tuple[str | None, ...] = ()
    """The votes that elected it."""
    passed: tuple[str, ...] = ()
    """The two tiles this seat handed to the chancellor as president, this session."""
    received: tuple[str, ...] = ()
    """The two tiles this seat received as chancellor, this session."""
    peeked: tuple[str, ...] = ()
    """The top three tiles, if this seat peeked them and they are still on top."""
    record: tuple[str | None, ...] = ()
    """Per seat: the policy the last government it sat in enacted ("L", "F" or None)."""
    alive: tuple[bool, ...] = ()

    def fascist_party(self) -> int:
        """How many seats are of the fascist party in this game."""
        return FASCIST_PARTY.get(self.seats, max(1, (self.seats - 1) // 2))

    def hitler_odds(self) -> tuple[float, ...]:
        """Per seat: P(this seat is Hitler) — known, or spread over the seats that may be, by belief."""
        if self.hitler is not None:
            return tuple(1.0 if s == self.hitler else 0.0 for s in range(self.seats))
        weights = [0.0 if s in self.not_hitler or self.proven[s] == LIBERAL or s == self.seat
                   else self.belief[s] for s in range(self.seats)]
        total = sum(weights)
        return tuple(w / total for w in weights) if total else tuple(weights)

    def hard_fascist(self, seat: int) -> bool:
        """Whether this seat knows `seat` is of the fascist party."""
        return self.proven[seat] == FASCIST


def start(seat: int) -> Memory:
    """A seat's memory before its first view."""
    return Memory(seat)


def observe(memory: Memory, view: Mapping[str, Any]) -> Memory:
    """The memory after being shown `view` (nothing changes once the game is over: the final view opens
    every secret, which no later decision needs). `memory` itself is never changed: the events update a
    private copy, which is returned."""
    if view.get("phase") == "game_over":
        return memory
    log = tuple(view.get("log") or ())
    learned = view.get("investigations") or ()
    news = (not memory.seats or (memory.role is None and view.get("role")) or log != memory.window
            or any(party is not None and memory.proven[s] != party for s, party in enumerate(learned)))
    if not news:
        return memory
    work = copy(memory)
    if not work.seats:
        _first(work, view)
    if work.role is None and view.get("role"):
        _dealt(work, view)
    if any(party is not None and work.proven[s] != party for s, party in enumerate(learned)):
        _prove(work, {s: party for s, party in enumerate(learned) if party is not None})
    for entry in new_entries(work.window, log):
        handler = _HANDLERS.get(entry["code"])
        if handler is not None:
            handler(work, entry["params"])
    _set(work, window=log, alive=tuple(view.get("alive") or work.alive))
    return work


def _set(work: Memory, **fields: Any) -> None:
    """Change fields of the private copy `observe` works on (the dataclass is frozen for everyone else)."""
    for name, value in fields.items():
        object.__setattr__(work, name, value)


def _first(work: Memory, view: Mapping[str, Any]) -> None:
    seats = len(view["alive"])
    prior = FASCIST_PARTY.get(seats, 2) / max(1, seats - 1)
    _set(work, seats=seats, belief=(prior,) * seats, proven=(None,) * seats, record=(None,) * seats,
         alive=tuple(view["alive"]), elected_by=(None,) * seats)


def _dealt(work: Memory, view: Mapping[str, Any]) -> None:
    """The deal: this seat's role and the roles it was shown."""
    facts: dict[int, str] = {}
    hitler = None
    for seat, role in enumerate(view.get("known") or ()):
        if role is None:
            continue
        facts[seat] = LIBERAL if role == LIBERAL else FASCIST
        if role == HITLER:
            hitler = seat
    role = view["role"]
    if role == FASCIST:  # a fascist is shown every fascist and Hitler: everyone else is liberal
        facts.update({s: LIBERAL for s in range(work.seats) if s not in facts})
    _set(work, role=role, hitler=hitler)
    _prove(work, facts)


def _prove(work: Memory, facts: Mapping[int, str]) -> None:
    """Seats whose party is now known for sure."""
    proven = list(work.proven)
    for seat, party in facts.items():
        proven[seat] = LIBERAL if party == LIBERAL else FASCIST
    _set(work, proven=tuple(proven))
    _normalise(work, list(work.belief))


def _normalise(work: Memory, belief: list[float]) -> None:
    """Beliefs held to the facts: proven seats at 0 or 1; the others moved together (in log-odds) so that
    they add up to the fascists not yet found, each kept within FLOOR..CEILING."""
    proven = work.proven
    found = 0
    soft: list[int] = []
    for seat in range(work.seats):
        if proven[seat] is not None:
            belief[seat] = 1.0 if proven[seat] == FASCIST else 0.0
            found += proven[seat] == FASCIST
        else:
            soft.append(seat)
    target = work.fascist_party() - found
    if soft:
        if target <= 0 or target >= len(soft):
            for seat in soft:
                belief[seat] = 0.0 if target <= 0 else 1.0
        else:
            logits = [_logit(belief[s]) for s in soft]
            shift = 0.0
            for _ in range(6):  # Newton on the common shift: sum sigmoid(logit + shift) = target
                values = [_sigmoid(x + shift) for x in logits]
                gap = sum(values) - target
                if abs(gap) < 1e-4:
                    break
                slope = sum(v * (1 - v) for v in values) or 1e-9
                shift -= gap / slope
            for seat, x in zip(soft, logits):
                belief[seat] = min(CEILING, max(FLOOR, _sigmoid(x + shift)))
    _set(work, belief=tuple(belief))


def _logit(p: float) -> float:
    p = min(1 - 1e-6, max(1e-6, p))
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _pair_update(work: Memory, president: int, chancellor: int, likelihood: Sequence[float]) -> None:
    """Bayes' rule on two seats at once: `likelihood` of what was seen when (president, chancellor) are (L, L),
    (L, F), (F, L), (F, F); proven seats keep their party."""
    belief = list(work.belief)
    p, c = belief[president], belief[chancellor]
    weights = (
        (1 - p) * (1 - c) * likelihood[0], (1 - p) * c * likelihood[1],
        p * (1 - c) * likelihood[2], p * c * likelihood[3],
    )
    total = sum(weights)
    if total <= 0:
        return
    if work.proven[president] is None:
        belief[president] = (weights[2] + weights[3]) / total
    if work.proven[chancellor] is None:
        belief[chancellor] = (weights[1] + weights[3]) / total
    _normalise(work, belief)


def _single_update(work: Memory, seat: int, if_liberal: float, if_fascist: float) -> None:
    """Bayes' rule on one seat: the likelihood of what was seen if it is liberal, if it is fascist."""
    if work.proven[seat] is not None:
        return
    belief = list(work.belief)
    p = belief[seat]
    total = (1 - p) * if_liberal + p * if_fascist
    if total <= 0:
        return
    belief[seat] = p * if_fascist / total
    _normalise(work, belief)


def _nominated(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, nominee=(params["president"], params["chancellor"]))


def _votes(work: Memory, params: Mapping[str, Any]) -> None:
    if not params["passed"] or work.nominee is None:
        _set(work, government=None)
        return
    _set(work, government=work.nominee, elected_by=tuple(params["votes"]), passed=(), received=())
    if work.fascist_enacted >= HITLER_ELECTABLE_AT:
        _set(work, not_hitler=work.not_hitler | {work.nominee[1]})


def _president_discard(work: Memory, params: Mapping[str, Any]) -> None:
    hand = list(params["drew"])
    hand.remove(params["policy"])
    _set(work, passed=tuple(sorted(hand)))


def _chancellor_discard(work: Memory, params: Mapping[str, Any]) -> None:
    received = tuple(sorted(params["received"]))
    _set(work, received=received)
    if work.government is None:
        return
    president = work.government[0]
    if_liberal, if_fascist = president_passed_fascists(work.liberal_enacted, work.fascist_enacted)
    if work.peeked:  # the president drew the tiles this seat peeked
        liberal_drawn = work.peeked.count("L")
        if_liberal = 1.0 if liberal_drawn == 0 else 0.0
        if_fascist = 1.0 if liberal_drawn <= 1 else 0.0
    if received == ("F", "F"):
        _single_update(work, president, if_liberal, if_fascist)
    else:
        _single_update(work, president, 1 - if_liberal, 1 - if_fascist)


def _enacted(work: Memory, params: Mapping[str, Any]) -> None:
    policy = params["policy"]
    government = work.government
    if government is not None:
        president, chancellor = government
        if president == work.seat and work.passed:
            _judge_chancellor(work, chancellor, work.passed, policy)
        elif chancellor != work.seat:
            odds = fascist_enactment(work.liberal_enacted, work.fascist_enacted)
            if work.peeked:
                odds = _known_draw_odds(work.peeked.count("L"))
            _pair_update(work, president, chancellor, odds if policy == "F" else tuple(1 - x for x in odds))
        _vote_evidence(work, government, policy)
        record = list(work.record)
        record[president] = record[chancellor] = policy
        _set(work, record=tuple(record))
    _set(work, government=None, passed=(), received=(), peeked=())
    _count(work, policy)


def _known_draw_odds(liberal_drawn: int) -> tuple[float, float, float, float]:
    """`fascist_enactment` when the three tiles drawn are known (this seat peeked them)."""
    p0, p1, p2 = (float(liberal_drawn == k) for k in range(3))
    one_fascist = p0 + p1 * (1 - COVER)
    return p0, one_fascist, one_fascist, p0 + p1 + p2 * (1 - COVER)


def _judge_chancellor(work: Memory, chancellor: int, passed: tuple[str, ...], policy: str) -> None:
    """This seat was president and knows what the chancellor chose between (nothing to learn without a
    choice)."""
    if "L" in passed and "F" in passed:
        if policy == "F":
            _single_update(work, chancellor, SLIP, 1 - COVER)
        else:
            _single_update(work, chancellor, 1 - SLIP, COVER)


def _vote_evidence(work: Memory, government: tuple[int, int], policy: str) -> None:
    """Those who elected a government that enacted a fascist policy look a little more fascist (and the
    nein voters a little less)."""
    if policy != "F":
        return
    belief = list(work.belief)
    changed = False
    for seat, vote in enumerate(work.elected_by):
        if vote is None or seat in government or work.proven[seat] is not None:
            continue
        factor = VOTE_EVIDENCE if vote == "ja" else 1 / VOTE_EVIDENCE
        p = belief[seat]
        belief[seat] = p * factor / (p * factor + 1 - p)
        changed = True
    if changed:
        _normalise(work, belief)


def _count(work: Memory, policy: str) -> None:
    if policy == "L":
        _set(work, liberal_enacted=work.liberal_enacted + 1)
    else:
        _set(work, fascist_enacted=work.fascist_enacted + 1)


def _chaos(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, government=None, passed=(), received=(), peeked=())
    _count(work, params["policy"])


def _veto_proposed(work: Memory, params: Mapping[str, Any]) -> None:
    """A chancellor with a fascist tile in hand at five fascist policies would enact it and win: a veto of two
    fascist tiles is a liberal's, a veto of two liberal tiles a fascist's."""
    chancellor = params["chancellor"]
    if work.passed == ("F", "F"):
        _single_update(work, chancellor, 1.0, COVER)
    elif work.passed == ("L", "L"):
        _single_update(work, chancellor, SLIP, 1.0)


def _veto_agreed(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, government=None, passed=(), received=())


def _party(work: Memory, params: Mapping[str, Any]) -> None:
    _prove(work, {params["target"]: params["party"]})


def _peek(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, peeked=tuple(params["policies"]))


def _executed(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, not_hitler=work.not_hitler | {params["target"]})


def _reshuffled(work: Memory, params: Mapping[str, Any]) -> None:
    _set(work, peeked=())


_HANDLERS = MappingProxyType({
    "nominated": _nominated,
    "votes": _votes,
    "president_discard": _president_discard,
    "chancellor_discard": _chancellor_discard,
    "enacted": _enacted,
    "chaos": _chaos,
    "veto_proposed": _veto_proposed,
    "veto_agreed": _veto_agreed,
    "party": _party,
    "peek": _peek,
    "executed": _executed,
    "reshuffled": _reshuffled,
})
"""Log code -> its effect on the private copy `observe` works on; codes not listed change nothing."""


def deck_left(memory: Memory) -> tuple[int, int]:
    """The liberal and fascist tiles not on the tracks."""
    return remaining(memory.liberal_enacted, memory.fascist_enacted)


def draw_chance(memory: Memory) -> tuple[float, float, float, float]:
    """P(k liberal tiles among the next three drawn)."""
    return draw_odds(*deck_left(memory))
