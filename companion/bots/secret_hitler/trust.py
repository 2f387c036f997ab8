"""The trust-score baseline, in the style of ShrimpCryptid's `CpuPlayer` (Secret-Hitler-Online): a reputation
per seat from -5 to 5, moved one step by each policy a government enacts, and weighted random choices.

Written here from that design (not its code) so the bot is measured against the best-known open-source
players: nominations and executions are weighted draws between the weights of a known fascist, Hitler and a
known liberal (an unknown seat interpolated by its reputation); votes are random with a probability from the
government's reputation; legislation follows the role, with Hitler playing liberal until the liberals are
near winning. Its memory is the same fold over the seat's views as the bot's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player
from companion.bots.window import new_entries

MAX_REPUTATION = 5
FASCIST, HITLER, LIBERAL = "fascist", "hitler", "liberal"


@dataclass(frozen=True, slots=True)
class Trust:
    """Reputation per seat, the roles this seat knows, the government on the ballot and the last log window."""

    seat: int
    reputation: tuple[int, ...] = ()
    known: tuple[str | None, ...] = ()
    nominee: tuple[int, int] | None = None
    government: tuple[int, int] | None = None
    window: tuple[Mapping[str, Any], ...] = ()


class TrustPlayer(Player[Trust]):
    """The reputation-and-weighted-random baseline."""

    game = "secret_hitler"
    kind = "trust"
    remembers = True

    def start(self, seat: int) -> Trust:
        """Neutral reputations."""
        return Trust(seat)

    def observe(self, memory: Trust | None, view: Mapping[str, Any]) -> Trust:
        """Known roles from the view; reputations from each enacted policy."""
        memory = memory if memory is not None else Trust(0)
        if view.get("phase") == "game_over":
            return memory
        if not memory.reputation:
            memory = replace(memory, reputation=(0,) * len(view["alive"]), known=(None,) * len(view["alive"]))
        known = list(memory.known)
        for seat, role in enumerate(view.get("known") or ()):
            if role is not None:
                known[seat] = role
        for seat, party in enumerate(view.get("investigations") or ()):
            if party is not None and known[seat] is None:
                known[seat] = party
        if tuple(known) != memory.known:
            memory = replace(memory, known=tuple(known))
        log = tuple(view.get("log") or ())
        if log == memory.window:
            return memory
        for entry in new_entries(memory.window, log):
            memory = _event(memory, entry["code"], entry["params"])
        return replace(memory, window=log)

    def decide(self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random,
               memory: Trust | None = None) -> Decision:
        """The baseline's choice in this phase."""
        memory = memory if memory is not None else self.observe(Trust(legal_actions[0]["seat"]), view)
        me = memory.known[memory.seat] if memory.known else None
        phase = view["phase"]
        if phase == "vote":
            return Decision(_vote(view, legal_actions, rng, memory, me))
        if phase in ("nominate", "investigate", "special_election", "execute"):
            return Decision(_target(phase, view, legal_actions, rng, memory, me))
        if phase in ("discard", "enact"):
            return Decision(_legislate(phase, view, legal_actions, rng, me))
        if phase == "veto_reply":
            return Decision(_veto_reply(view, legal_actions, memory, me))
        return Decision(legal_actions[0])


def _event(memory: Trust, code: str, params: Mapping[str, Any]) -> Trust:
    if code == "nominated":
        return replace(memory, nominee=(params["president"], params["chancellor"]))
    if code == "votes":
        return replace(memory, government=memory.nominee if params["passed"] else None)
    if code == "enacted" and memory.government is not None:
        step = 1 if params["policy"] == "L" else -1
        reputation = list(memory.reputation)
        for seat in memory.government:
            reputation[seat] = max(-MAX_REPUTATION, min(MAX_REPUTATION, reputation[seat] + step))
        return replace(memory, reputation=tuple(reputation), government=None)
    return memory


def _reputation(memory: Trust, seat: int) -> int:
    role = memory.known[seat]
    if role is None:
        return memory.reputation[seat]
    return -MAX_REPUTATION if role in (FASCIST, HITLER) else MAX_REPUTATION


def _weighted(legal: Sequence[Action], rng: random.Random, memory: Trust, fascist: float, hitler: float,
              liberal: float) -> Action:
    """A targeted action drawn by weight: a known role's weight, an unknown seat's interpolated by reputation."""
    weights = []
    for action in legal:
        seat = action["target"]
        role = memory.known[seat]
        if role == FASCIST:
            weight = fascist
        elif role == HITLER:
            weight = hitler
        elif role == LIBERAL:
            weight = liberal
        else:
            t = (memory.reputation[seat] + MAX_REPUTATION) / (2 * MAX_REPUTATION)
            weight = t * liberal + (1 - t) * fascist
        weights.append(max(weight, 0.0))
    if sum(weights) <= 0:
        return rng.choice(legal)
    return rng.choices(legal, weights)[0]


def _target(phase: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Trust,
            me: str | None) -> Action:
    hitler_can_win = view["fascist_policies"] >= 3
    if phase == "nominate":
        if me == FASCIST:
            weights = (0.35, 1.5, 0.15) if hitler_can_win else (1.0, 0.25, 0.5)
        elif me == HITLER:
            weights = (0.5, 0.0, 1.0)
        else:
            weights = (-0.2, -0.2, 1.0) if hitler_can_win else (0.0, 0.0, 1.0)
    elif phase == "investigate":
        weights = (1.0, 0.0, -0.4) if me == LIBERAL else (1.0, 1.0, 1.0)
    elif phase == "special_election":
        weights = (-0.8, 0.0, 1.0) if me == LIBERAL else (1.0, 1.0, 0.5)
    else:  # execute
        if me == LIBERAL:
            weights = (1.0, 1.0, -0.4)
        else:
            legal = [a for a in legal if memory.known[a["target"]] != HITLER] or list(legal)
            weights = (0.5, 0.0, 1.0)
    return _weighted(legal, rng, memory, *weights)


def _vote(view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, memory: Trust,
          me: str | None) -> Action:
    president, chancellor = view["president"], view["chancellor"]
    ja = next(a for a in legal if a["vote"] == "ja")
    nein = next(a for a in legal if a["vote"] == "nein")
    rep_p, rep_c = _reputation(memory, president), _reputation(memory, chancellor)
    if me == HITLER:
        if president == memory.seat:
            rep_p = MAX_REPUTATION
        if chancellor == memory.seat:
            rep_c = MAX_REPUTATION
    combined = rep_p + rep_c
    t = (combined + 2 * MAX_REPUTATION) / (4 * MAX_REPUTATION)
    hitler_can_win = view["fascist_policies"] >= 3
    fascists_in_danger = view["liberal_policies"] >= 4
    if me in (FASCIST, HITLER) and hitler_can_win and memory.known[chancellor] == HITLER:
        p = 0.99
    elif me == FASCIST or (me == HITLER and fascists_in_danger):
        fascist_p, liberal_p = (0.9, 0.25) if fascists_in_danger else (0.8, 0.6)
        p = t * liberal_p + (1 - t) * fascist_p
    else:
        floor = -2 if hitler_can_win else -3
        if rep_p < floor or rep_c < floor or combined < floor:
            p = 0.1
        else:
            p = 2 * t - t * t
    return ja if rng.random() <= p else nein


def _legislate(phase: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
               me: str | None) -> Action:
    hand = view["hand"]
    policies = [a for a in legal if a["type"] in ("discard", "enact")]
    if len(set(hand)) == 1:
        veto = next((a for a in legal if a["type"] == "veto"), None)
        if veto is not None and me == LIBERAL and hand[0] == "F":
            return veto
        return policies[0]
    fascists_in_danger = view["liberal_policies"] >= 4
    liberals_in_danger = view["fascist_policies"] >= 5
    wanted = {"discard": "L", "enact": "F"}[phase]  # the fascist's choice in each phase
    opposite = "F" if wanted == "L" else "L"
    if me == FASCIST:
        pick = wanted
    elif me == HITLER:
        pick = wanted if fascists_in_danger else (rng.choice(hand) if phase == "discard" else opposite)
    elif phase == "discard" and hand.count("F") == 1 and not liberals_in_danger:
        pick = rng.choice(hand)
    else:
        pick = opposite
    return next(a for a in policies if a["policy"] == pick)


def _veto_reply(view: Mapping[str, Any], legal: Sequence[Action], memory: Trust, me: str | None) -> Action:
    agree = next(a for a in legal if a["agree"])
    refuse = next(a for a in legal if not a["agree"])
    return refuse if me in (FASCIST, HITLER) else agree


TRUST = TrustPlayer()
"""The baseline player (stateless: its memory is the value `observe` returns)."""
