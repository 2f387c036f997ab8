"""The Gangster's Dilemma bot: it values each loot token by the boss demands it brings closer (and crates by
the points they score), sends its gangster where the expected haul beats the risk of a patrol, patrols where
it expects the most loot as police, bribes when it has more to lose than the bribe costs, and fulfils the
richest demand it can pay for. It keeps no memory: the view shows the whole table."""

from __future__ import annotations

import math
import random
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player

View = Mapping[str, Any]
Legal = Sequence[Action]

LOOT = ("crate", "art", "jewel", "liquor")
LOCATION_LOOT = MappingProxyType({"hideout": "crate", "gallery": "art", "jeweller": "jewel", "smugglers": "liquor"})
"""What a successful visit to each location gives (docs/RULES.md, Gangster's Dilemma)."""
CRATE_VP = (0, 2, 5, 9, 14)
"""Points for 0..4+ crates."""
DOLLAR = 0.35
"""What a dollar is worth in points to this bot (three of them pay a missing token)."""
ARREST_ODDS = 0.6
"""How likely a gangster met by the police is taken to be arrested (a lone one always is)."""
OTHERS_INFORM = 0.5
"""How likely another gangster at a patrolled location is taken to inform."""
NOISE = 0.15
"""A random nudge added to each pair of patrols' value so the police is not predictable to the point."""
FORESIGHT = 0.5
"""How much a gangster expects the others (and the police) to think as it does, rather than to pick at
random: it weighs both guesses of where they go."""
TEMPERATURE = 0.6
"""A gangster picks a location at random, each weighted by exp(value / TEMPERATURE): mostly the best, not
always (two bots always picking the same location would meet the police there every round)."""

REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "choose_best": ("location",),
    "choose_avoid_patrol": ("location",),
    "patrol_expected_loot": ("locations",),
    "peek_patrol": (),
    "respond_bribe": (),
    "respond_inform": (),
    "respond_silence": (),
    "trade_for_demand": ("trade",),
    "trade_none": (),
    "fulfil_richest": ("demand",),
    "pass_nothing_to_fulfil": (),
    "swap_for_demand": ("take",),
    "steal_dollar": ("target",),
    "skip": (),
})
"""Reason code -> its params (read-only)."""


def token_values(view: View, seat: int) -> dict[str, float]:
    """What one more token of each kind is worth to `seat`: the share of each demand it may fulfil that the
    token covers, times the demand's points, and a crate's marginal points."""
    player = view["players"][seat]
    cards = view.get("demand_cards") or {}
    open_demands = list(view.get("demands") or ())
    if view.get("seat") == seat:
        open_demands += list(view.get("private_demands") or ())
    values = dict.fromkeys(LOOT, 0.0)
    for ident in open_demands:
        card = cards.get(ident)
        if card is None:
            continue
        needs = card["needs"]
        missing = {k: max(0, needs.get(k, 0) - player[k]) for k in LOOT}
        short = sum(missing.values())
        for kind in LOOT:
            if missing[kind]:
                values[kind] += card["vp"] / (short + 1)
    crates = min(player["crate"], 3)
    values["crate"] += CRATE_VP[crates + 1] - CRATE_VP[crates]
    return values


def holding_value(view: View, seat: int, values: Mapping[str, float] | None = None) -> float:
    """What `seat` would lose if arrested (every loot token it holds)."""
    player = view["players"][seat]
    values = values if values is not None else token_values(view, seat)
    return sum(player[k] * max(0.5, values[k] * 0.5) for k in LOOT)


def location_values(view: View, seat: int, crowd: Mapping[int, float] | None = None,
                    patrols: Mapping[int, float] | None = None) -> dict[int, float]:
    """Each open location's expected worth to `seat` this round: its loot to this seat, its money shared with
    the gangsters expected there (`crowd`, else spread evenly), less what a patrol there would cost, at the
    patrol's odds (`patrols`, else two of the open locations at random; a peeked patrol is certain)."""
    values = token_values(view, seat)
    at_risk = holding_value(view, seat, values)
    open_locations = [loc for loc in view["locations"] if not loc["closed"]]
    gangsters = max(1, len(view["players"]) - 1)
    even = (gangsters - 1) / max(1, len(open_locations))
    peeked = view.get("peek") if view.get("seat") == seat else None
    out: dict[int, float] = {}
    for loc in open_locations:
        loot = LOCATION_LOOT.get(loc["name"])
        others = crowd.get(loc["id"], 0.0) if crowd is not None else even
        gain = (values[loot] if loot else 1.5 * DOLLAR) + DOLLAR * loc["money"] / (1 + others)
        if peeked is not None:
            patrol = 1.0 if loc["id"] == peeked else 1 / max(1, len(open_locations) - 1)
        elif patrols is not None:
            patrol = patrols.get(loc["id"], 0.0)
        else:
            patrol = 2 / max(2, len(open_locations))
        out[loc["id"]] = (1 - patrol * ARREST_ODDS) * gain - patrol * ARREST_ODDS * at_risk
    return out


def expected_visits(view: View, police: int, besides: int | None = None) -> tuple[dict[int, float], dict[int, float]]:
    """Where the other gangsters are expected (each picks as this bot would, by its own needs, without
    thinking further), as the count expected at each location and the loot they would lose there."""
    crowd: dict[int, float] = {}
    stake: dict[int, float] = {}
    for seat in range(len(view["players"])):
        if seat in (police, besides):
            continue
        values = location_values(view, seat)
        top = max(values.values(), default=0.0)
        weights = {loc: math.exp((value - top) / TEMPERATURE) for loc, value in values.items()}
        total = sum(weights.values()) or 1.0
        risk = 1 + holding_value(view, seat)
        for loc, weight in weights.items():
            crowd[loc] = crowd.get(loc, 0.0) + weight / total
            stake[loc] = stake.get(loc, 0.0) + risk * weight / total
    return crowd, stake


def patrol_odds(stake: Mapping[int, float]) -> dict[int, float]:
    """How likely the police patrols each location, expecting it to patrol where the most loot is at stake."""
    total = sum(stake.values()) or 1.0
    return {loc: min(1.0, 2 * value / total) for loc, value in stake.items()}


class GangstersDilemmaBot(Player[None]):
    """Greedy by the value of loot toward demands; no memory."""

    game = "gangsters_dilemma"
    reasons = REASONS

    def decide(self, view: View, legal_actions: Legal, rng: random.Random, memory: None = None) -> Decision:
        """This phase's choice."""
        seat = legal_actions[0]["seat"]
        kinds = {a["type"] for a in legal_actions}
        if "patrol" in kinds:
            return _patrol(view, legal_actions, rng)
        if "choose" in kinds or "peek" in kinds:
            return _choose(view, legal_actions, rng, seat)
        if "respond" in kinds:
            return _respond(view, legal_actions, seat)
        if "trade" in kinds:
            return _trade(view, legal_actions, seat)
        if "fulfil" in kinds:
            return _fulfil(view, legal_actions)
        if "swap" in kinds or "steal" in kinds:
            return _ability(view, legal_actions, seat)
        skip = next((a for a in legal_actions if a["type"] in ("skip", "pass")), legal_actions[0])
        return Decision(skip, "skip")


def _choose(view: View, legal: Legal, rng: random.Random, seat: int) -> Decision:
    peek = next((a for a in legal if a["type"] == "peek"), None)
    if peek is not None and view["players"][seat]["money"] >= 2 and holding_value(view, seat) >= 1:
        return Decision(peek, "peek_patrol")
    crowd, stake = expected_visits(view, view["police"], seat)
    open_count = sum(1 for loc in view["locations"] if not loc["closed"])
    even = (len(view["players"]) - 2) / max(1, open_count)
    patrols = patrol_odds(stake)
    blend = {loc: FORESIGHT * crowd.get(loc, 0.0) + (1 - FORESIGHT) * even for loc in patrols}
    chance = {loc: FORESIGHT * odds + (1 - FORESIGHT) * 2 / max(2, open_count) for loc, odds in patrols.items()}
    values = location_values(view, seat, blend, chance)
    choices = [a for a in legal if a["type"] == "choose"]
    top = max(values.get(a["location"], -99.0) for a in choices)
    weights = [math.exp((values.get(a["location"], -99.0) - top) / TEMPERATURE) for a in choices]
    best = rng.choices(choices, weights)[0]
    peeked = view.get("peek")
    if peeked is not None and peeked != best["location"]:
        return Decision(best, "choose_avoid_patrol", {"location": best["location"]})
    return Decision(best, "choose_best", {"location": best["location"]})


def _patrol(view: View, legal: Legal, rng: random.Random) -> Decision:
    """Where the gangsters are expected, weighted by what they would lose."""
    _, stake = expected_visits(view, legal[0]["seat"])
    best = max(legal, key=lambda a: sum(stake.get(loc, 0.0) for loc in a["locations"]) + rng.random() * NOISE)
    return Decision(best, "patrol_expected_loot", {"locations": list(best["locations"])})


def _respond(view: View, legal: Legal, seat: int) -> Decision:
    bribe = next((a for a in legal if a.get("response") == "bribe"), None)
    inform = next((a for a in legal if a.get("response") == "inform"), None)
    location = view.get("resolving")
    others = 1
    for loc in view["locations"]:
        if loc["id"] == location:
            others = max(1, len(loc["visitors"]) - 1)
    at_risk = holding_value(view, seat)
    arrest_if_inform = OTHERS_INFORM ** others
    if bribe is not None and at_risk * arrest_if_inform > 1.0:
        return Decision(bribe, "respond_bribe")
    silence = next((a for a in legal if a.get("response") == "silence"), None)
    if others == 1 and silence is not None:  # one other: the same risk either way, and two silent both go free
        return Decision(silence, "respond_silence")
    if inform is not None:
        return Decision(inform, "respond_inform")
    arrested = next((a for a in legal if a["type"] == "pass"), None)  # a lone gangster: bribe or be arrested
    if arrested is not None:
        return Decision(arrested, "skip")
    return Decision(bribe or legal[0], "respond_bribe")


def _trade(view: View, legal: Legal, seat: int) -> Decision:
    values = token_values(view, seat)
    price = view.get("market_price", 1)

    def worth(action: Action) -> float:
        trade = action["trade"]
        if trade == "none":
            return 0.0
        verb, kind = trade.split("_", 1)
        return values[kind] - DOLLAR * price if verb == "buy" else DOLLAR * price - values[kind] - 0.2
    best = max(legal, key=worth)
    if best["trade"] == "none" or worth(best) <= 0:
        none = next(a for a in legal if a["trade"] == "none")
        return Decision(none, "trade_none")
    return Decision(best, "trade_for_demand", {"trade": best["trade"]})


def _fulfil(view: View, legal: Legal) -> Decision:
    cards = view.get("demand_cards") or {}

    def gain(action: Action) -> float:
        if action["type"] != "fulfil":
            return 0.0
        vp = cards.get(action["demand"], {}).get("vp", 0)
        cost = 0.0
        if action.get("substitute"):
            cost = 3 * DOLLAR if action.get("pay") == "dollars" else 1.0
        return vp - cost
    best = max(legal, key=gain)
    if best["type"] != "fulfil":
        return Decision(best, "pass_nothing_to_fulfil")
    return Decision(best, "fulfil_richest", {"demand": best["demand"]})


def _ability(view: View, legal: Legal, seat: int) -> Decision:
    skip = next(a for a in legal if a["type"] == "skip")
    values = token_values(view, seat)
    swaps = [a for a in legal if a["type"] == "swap"]
    if swaps:
        best = max(swaps, key=lambda a: values[a["take"]] - values[a["give"]])
        if values[best["take"]] - values[best["give"]] > 0.5:
            return Decision(best, "swap_for_demand", {"take": best["take"]})
    steals = [a for a in legal if a["type"] == "steal"]
    if steals:
        richest = max(steals, key=lambda a: view["players"][a["target"]]["money"])
        return Decision(richest, "steal_dollar", {"target": richest["target"]})
    return Decision(skip, "skip")


BOT = GangstersDilemmaBot()
"""The game's bot."""
