"""The Secret Hitler bot: liberals vote and nominate by their beliefs; fascists play their team's game; Hitler
plays liberal until being elected can win. Every decision names its reason (`reasons.REASONS`)."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from companion.bots.base import Action, Decision, Player
from companion.bots.secret_hitler import memory as mem
from companion.bots.secret_hitler.memory import FASCIST, HITLER, HITLER_ELECTABLE_AT, LIBERAL, Memory
from companion.bots.secret_hitler.reasons import REASONS

View = Mapping[str, Any]
Legal = Sequence[Action]

TRUST_MARGIN = 1.0
"""A liberal votes ja when the government is at least this clean, relative to an average pair of seats ..."""
CHAOS_MARGIN = 0.6
"""... and at this much when a failed vote would enact a random tile (the election tracker at 2)."""
HITLER_RISK = 0.2
"""After three fascist policies a liberal votes nein on a chancellor this likely to be Hitler ..."""
HITLER_RISK_AT_CHAOS = 0.35
"""... or this likely with the election tracker at 2."""
FASCIST_COVER_VOTE = 0.5
"""How often a fascist votes ja for an all-liberal government, so as not to stand out."""
FASCIST_PLAYS_TEAMMATE = 0.0
"""How often a fascist president nominates a fellow fascist other than Hitler (a fascist government's
fascist policy would mark both; a liberal chancellor handed two fascist tiles takes the blame instead)."""
HITLER_EARLY = 0.0
"""How often a fascist president nominates Hitler before three fascist policies."""
HITLER_VOTES_JA = 1.0
"""How often Hitler, not knowing the fascists, votes ja whatever it believes (a government that passes draws
from a deck of mostly fascist tiles)."""
HITLER_PUSHES = 0.5
"""How often Hitler in government plays a fascist tile while it cannot yet win by being elected; from
HITLER_CAUTION_FROM fascist policies on it plays liberal (Hitler's caution), unless the liberals are one
policy from winning."""
HITLER_CAUTION_FROM = 3
COVER = 0.0
"""How often another fascist in government lets a liberal policy through (measured: covering cost the
fascists more games than it saved against every opponent tried)."""
DANGER_LIBERAL = 4
"""Liberal policies at which fascists stop covering: one more and the liberals win."""


def percent(p: float) -> int:
    """A probability as a whole percentage (for the reason's words)."""
    return int(round(p * 100))


def find(legal: Legal, **fields: Any) -> Action | None:
    """The legal action with these field values, if listed."""
    for action in legal:
        if all(action.get(k) == v for k, v in fields.items()):
            return action
    return None


def pick_lowest(legal: Legal, score: Callable[[int], float], rng: random.Random) -> Action:
    """The targeted legal action whose target scores lowest (ties broken by `rng`)."""
    best = min(score(a["target"]) for a in legal)
    return rng.choice([a for a in legal if score(a["target"]) <= best + 1e-9])


class SecretHitlerBot(Player[Memory]):
    """Beliefs over the other seats' parties (`memory`), decisions by role."""

    game = "secret_hitler"
    remembers = True
    reasons = REASONS

    def start(self, seat: int) -> Memory:
        """A fresh memory for `seat`."""
        return mem.start(seat)

    def observe(self, memory: Memory | None, view: View) -> Memory:
        """The memory after this view (`memory` comes from `start`: the view alone does not name the seat)."""
        if memory is None:
            raise ValueError("a Secret Hitler bot's memory starts with start(seat)")
        return mem.observe(memory, view)

    def decide(self, view: View, legal_actions: Legal, rng: random.Random,
               memory: Memory | None = None) -> Decision:
        """The decision of this phase, by role."""
        if memory is None:
            memory = self.observe(mem.start(legal_actions[0]["seat"]), view)
        team = _team(memory)
        phase = view["phase"]
        handler = _PHASES.get(phase)
        if handler is None:  # pragma: no cover - every seat phase is listed
            return Decision(rng.choice(legal_actions))
        return handler(team, view, legal_actions, rng, memory)


def _team(memory: Memory) -> str:
    """How this seat plays: `liberal`, `fascist`, or `hitler` (a fascist who must look liberal)."""
    if memory.role == FASCIST:
        return FASCIST
    if memory.role == HITLER:
        return HITLER
    return LIBERAL


def _teammates(memory: Memory) -> list[int]:
    return [s for s in range(memory.seats) if s != memory.seat and memory.hard_fascist(s)]


# --- votes -------------------------------------------------------------------------------------------------


def _vote(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    president, chancellor = view["president"], view["chancellor"]
    ja, nein = find(legal, vote="ja"), find(legal, vote="nein")
    assert ja is not None and nein is not None
    if team == FASCIST or (team == HITLER and _hitler_knows(memory)):
        return _fascist_vote(view, ja, nein, rng, memory, president, chancellor)
    if memory.seat in (president, chancellor):
        return Decision(ja, "ja_own_government")
    if team == HITLER and rng.random() < HITLER_VOTES_JA:
        return Decision(ja, "ja_deck_is_fascist")
    return _liberal_vote(view, ja, nein, memory, president, chancellor)


def _hitler_knows(memory: Memory) -> bool:
    return memory.role == HITLER and bool(_teammates(memory))


def _liberal_vote(view: View, ja: Action, nein: Action, memory: Memory, president: int,
                  chancellor: int) -> Decision:
    belief = memory.belief
    for seat in (president, chancellor):
        if memory.hard_fascist(seat) and seat != memory.seat:
            return Decision(nein, "nein_proven_fascist", {"seat": seat})
    tracker = view["election_tracker"]
    chaos_next = tracker >= 2
    if memory.fascist_enacted >= HITLER_ELECTABLE_AT and chancellor != memory.seat:
        risk = memory.hitler_odds()[chancellor]
        if risk > (HITLER_RISK_AT_CHAOS if chaos_next else HITLER_RISK):
            return Decision(nein, "nein_hitler_risk", {"seat": chancellor, "percent": percent(risk)})
    clean = _clean(memory, president) * _clean(memory, chancellor)
    margin = CHAOS_MARGIN if chaos_next else TRUST_MARGIN
    if clean >= margin * _average_clean(memory, view["alive"]):
        if chaos_next and clean < TRUST_MARGIN * _average_clean(memory, view["alive"]):
            return Decision(ja, "ja_tracker", {"election_tracker": tracker})
        return Decision(ja, "ja_trusted", {"president": president, "chancellor": chancellor,
                                           "percent": percent(clean)})
    worst = president if belief[president] >= belief[chancellor] else chancellor
    if memory.record[worst] == "F":
        return Decision(nein, "nein_fascist_record", {"seat": worst})
    return Decision(nein, "nein_suspect", {"seat": worst, "percent": percent(belief[worst])})


def _clean(memory: Memory, seat: int) -> float:
    return 1.0 if seat == memory.seat and memory.role == LIBERAL else 1 - memory.belief[seat]


def _average_clean(memory: Memory, alive: Sequence[bool]) -> float:
    """How clean an average government of two living seats would be, by this seat's beliefs."""
    cleans = [_clean(memory, s) for s in range(memory.seats) if alive[s]]
    n = len(cleans)
    if n < 2:
        return 0.0
    total = sum(cleans)
    squares = sum(c * c for c in cleans)
    return (total * total - squares) / (n * (n - 1))


def _fascist_vote(view: View, ja: Action, nein: Action, rng: random.Random, memory: Memory, president: int,
                  chancellor: int) -> Decision:
    if chancellor == memory.hitler and memory.fascist_enacted >= HITLER_ELECTABLE_AT:
        return Decision(ja, "ja_hitler_chancellor", {"seat": chancellor})
    for seat in (president, chancellor):
        if seat == memory.seat or memory.hard_fascist(seat):
            return Decision(ja, "ja_teammate", {"seat": seat}) if seat != memory.seat else \
                Decision(ja, "ja_own_government")
    if view["election_tracker"] >= 2 or rng.random() >= FASCIST_COVER_VOTE:
        return Decision(nein, "nein_liberal_government")
    return Decision(ja, "ja_cover")


# --- nominations and powers --------------------------------------------------------------------------------


def _nominate(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    if team == FASCIST or (team == HITLER and _hitler_knows(memory)):
        hitler = memory.hitler
        if hitler is not None and hitler != memory.seat and memory.fascist_enacted >= HITLER_ELECTABLE_AT:
            action = find(legal, target=hitler)
            if action is not None:
                return Decision(action, "nominate_hitler", {"target": hitler})
        mates = [a for a in legal if memory.hard_fascist(a["target"]) and a["target"] != memory.hitler]
        if hitler is not None and hitler != memory.seat and rng.random() < HITLER_EARLY:
            mates = [a for a in legal if a["target"] == hitler] or mates
        if mates and team == FASCIST and rng.random() < FASCIST_PLAYS_TEAMMATE:
            action = rng.choice(mates)
            return Decision(action, "nominate_teammate", {"target": action["target"]})
        liberals = [a for a in legal if not memory.hard_fascist(a["target"])] or list(legal)
        action = rng.choice(liberals)
        return Decision(action, "nominate_cover", {"target": action["target"]})
    score = _liberal_score(memory)
    action = pick_lowest(legal, score, rng)
    target = action["target"]
    if memory.proven[target] == LIBERAL:
        return Decision(action, "nominate_proven", {"target": target})
    return Decision(action, "nominate_trusted", {"target": target, "percent": percent(1 - memory.belief[target])})


def _liberal_score(memory: Memory) -> Callable[[int], float]:
    """How bad a seat would be in office: its fascist belief, and after three fascist policies its Hitler odds."""
    belief = memory.belief
    if memory.fascist_enacted >= HITLER_ELECTABLE_AT:
        hitler = memory.hitler_odds()
        return lambda seat: belief[seat] + 2 * hitler[seat]
    return lambda seat: belief[seat]


def _investigate(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    if team == FASCIST:
        liberals = [a for a in legal if not memory.hard_fascist(a["target"])] or list(legal)
        action = rng.choice(liberals)
        return Decision(action, "investigate_cover", {"target": action["target"]})
    belief = memory.belief
    unproven = [a for a in legal if memory.proven[a["target"]] is None] or list(legal)
    action = pick_lowest(unproven, lambda seat: abs(belief[seat] - 0.5), rng)
    return Decision(action, "investigate_uncertain",
                    {"target": action["target"], "percent": percent(belief[action["target"]])})


def _special_election(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    if team == FASCIST or (team == HITLER and _hitler_knows(memory)):
        mates = [a for a in legal if memory.hard_fascist(a["target"])]
        if mates:
            action = rng.choice(mates)
            return Decision(action, "special_election_teammate", {"target": action["target"]})
    action = pick_lowest(legal, _liberal_score(memory), rng)
    return Decision(action, "special_election_trusted",
                    {"target": action["target"], "percent": percent(1 - memory.belief[action["target"]])})


def _execute(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    if team == FASCIST or (team == HITLER and _hitler_knows(memory)):
        liberals = [a for a in legal if not memory.hard_fascist(a["target"])] or \
            [a for a in legal if a["target"] != memory.hitler] or list(legal)
        trusted = [a for a in liberals if memory.record[a["target"]] == "L"] or liberals
        action = rng.choice(trusted)
        return Decision(action, "execute_liberal", {"target": action["target"]})
    proven = [a for a in legal if memory.hard_fascist(a["target"])]
    if proven:
        action = rng.choice(proven)
        return Decision(action, "execute_proven", {"target": action["target"]})
    belief, hitler = memory.belief, memory.hitler_odds()
    action = pick_lowest(legal, lambda seat: -(belief[seat] + hitler[seat]), rng)
    return Decision(action, "execute_suspect", {"target": action["target"], "percent": percent(belief[action["target"]])})


def _peek_done(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    return Decision(legal[0], "peek_done")


# --- legislation -------------------------------------------------------------------------------------------


def _fascists_push(team: str, view: View, rng: random.Random, memory: Memory) -> bool:
    """Whether a fascist-party seat in government plays a fascist tile now (rather than covering)."""
    if team == LIBERAL:
        return False
    danger = view["liberal_policies"] >= DANGER_LIBERAL or view["fascist_policies"] >= 5
    if team == HITLER:  # Hitler's caution: look liberal until it can win or must stop the liberals
        cautious = view["fascist_policies"] >= HITLER_CAUTION_FROM
        return danger or (not cautious and rng.random() < HITLER_PUSHES)
    return danger or rng.random() >= COVER


def _discard(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    hand = view["hand"]
    if "L" not in hand or "F" not in hand:
        return Decision(legal[0], "discard_forced", {"policy": hand[0]})
    if _fascists_push(team, view, rng, memory):
        return Decision(find(legal, policy="L"), "discard_liberal")  # type: ignore[arg-type]
    if team == LIBERAL:
        return Decision(find(legal, policy="F"), "discard_fascist")  # type: ignore[arg-type]
    return Decision(find(legal, policy="F"), "discard_cover")  # type: ignore[arg-type]


def _enact(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    hand = view["hand"]
    veto = find(legal, type="veto")
    if team == LIBERAL:
        if veto is not None and "L" not in hand:
            return Decision(veto, "veto_two_fascist")
        if "L" in hand:
            return Decision(find(legal, policy="L"), "enact_liberal")  # type: ignore[arg-type]
        return Decision(find(legal, policy="F"), "enact_forced", {"policy": "F"})  # type: ignore[arg-type]
    if "F" not in hand:
        if veto is not None and memory.hard_fascist(view["president"]):
            return Decision(veto, "veto_stall")
        return Decision(find(legal, policy="L"), "enact_forced", {"policy": "L"})  # type: ignore[arg-type]
    if "L" not in hand:
        return Decision(find(legal, policy="F"), "enact_forced", {"policy": "F"})  # type: ignore[arg-type]
    if _fascists_push(team, view, rng, memory):
        return Decision(find(legal, policy="F"), "enact_fascist")  # type: ignore[arg-type]
    return Decision(find(legal, policy="L"), "enact_cover")  # type: ignore[arg-type]


def _veto_reply(team: str, view: View, legal: Legal, rng: random.Random, memory: Memory) -> Decision:
    agree, refuse = find(legal, agree=True), find(legal, agree=False)
    assert agree is not None and refuse is not None
    chancellor = view["chancellor"]
    if team == LIBERAL or (team == HITLER and not _hitler_knows(memory)):
        if memory.passed == ("F", "F"):
            return Decision(agree, "veto_agree_passed_fascist")
        return Decision(refuse, "veto_refuse_passed_liberal")
    if memory.hard_fascist(chancellor):
        return Decision(agree, "veto_agree_teammate")
    return Decision(refuse, "veto_refuse_force")


_PHASES: Mapping[str, Callable[[str, View, Legal, random.Random, Memory], Decision]] = MappingProxyType({
    "vote": _vote,
    "nominate": _nominate,
    "discard": _discard,
    "enact": _enact,
    "veto_reply": _veto_reply,
    "investigate": _investigate,
    "special_election": _special_election,
    "execute": _execute,
    "peek_review": _peek_done,
})
"""Phase -> the decision of a seat asked in it (read-only)."""
