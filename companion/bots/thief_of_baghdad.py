"""The Thief of Baghdad bot: guards where few others stand (a thief there costs one card per foreign guard),
thieves sent where the fewest are still missing for the top chest, a chest taken whenever one more thief
does it, cards of the palace's own colour spent before dancers; it ends its turn when nothing is worth a card
(taking a dancer when it did nothing). No memory: the view shows the board and its hand."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player

View = Mapping[str, Any]
Legal = Sequence[Action]

DANCER = "dancer"
CARD_COST = 1.0
"""What a card spent is worth in this bot's score; a dancer (wild) more."""
DANCER_COST = 1.8
HAND_COMFORT = 6.0
"""A card costs less the more the bot holds: CARD_COST, or HAND_COMFORT / cards in hand when that is less."""
CONSOLIDATE = 0.2
"""With no thief left in its supply, moving one from a palace to another must gain at least this much."""
ENTRY = 1.5
"""The worth of a guard that opens a palace to this seat's thieves (before its chests, thieves and cards)."""
STEAL_BONUS = 10.0
"""The score of a thief that takes a chest, plus the chest's value."""
RIVAL_PENALTY = 2.5
"""Less for sending a thief where another seat is one thief from the same chest."""

REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "place_few_guards": ("palace",),
    "infiltrate_take_chest": ("palace",),
    "infiltrate_closest_chest": ("palace",),
    "carry_thief": ("palace",),
    "move_guard_cards": ("palace",),
    "end_turn_nothing_worth": (),
    "end_turn_take_dancer": (),
})
"""Reason code -> its params (read-only)."""


class ThiefOfBaghdadBot(Player[None]):
    """Greedy toward the nearest chest; no memory."""

    game = "thief_of_baghdad"
    reasons = REASONS

    def decide(self, view: View, legal_actions: Legal, rng: random.Random, memory: None = None) -> Decision:
        """The next action of the turn (or of the guard placement)."""
        seat = legal_actions[0]["seat"]
        if legal_actions[0]["type"] == "place_guard":
            return _place(view, legal_actions, seat, rng)
        palaces = {p["color"]: p for p in view["palaces"]}
        hand = list(view.get("hand") or ())
        card = min(CARD_COST, HAND_COMFORT / max(1, len(hand)))
        stuck = view["players"][seat]["supply"] == 0  # no thief left to send: those on the board must move
        best, best_score, reason = None, 0.0, ""
        for action in legal_actions:
            score, why = _score(action, palaces, seat, hand, card, stuck)
            score += rng.random() * 0.01
            if score > best_score:
                best, best_score, reason = action, score, why
        if best is not None:
            return Decision(best, reason, {"palace": best.get("palace") or best.get("to")})
        dancer = next((a for a in legal_actions if a["type"] == "end_turn" and a["take_dancer"]), None)
        if dancer is not None:
            return Decision(dancer, "end_turn_take_dancer")
        end = next(a for a in legal_actions if a["type"] == "end_turn")
        return Decision(end, "end_turn_nothing_worth")


def _place(view: View, legal: Legal, seat: int, rng: random.Random) -> Decision:
    hand = list(view.get("hand") or ())
    palaces = {p["color"]: p for p in view["palaces"]}

    def score(action: Action) -> float:
        guards = palaces[action["palace"]]["guards"]
        mine = sum(1 for g in guards if g == seat)
        foreign = len(guards) - mine
        return (-3.0 * mine - abs(foreign - 1) + 0.3 * hand.count(action["palace"])
                + 0.1 * rng.random())
    best = max(legal, key=score)
    return Decision(best, "place_few_guards", {"palace": best["palace"]})


def _paid(cards: Sequence[str], card: float) -> float:
    return sum(card * DANCER_COST if c == DANCER else card for c in cards)


def _arrival(palace: Mapping[str, Any], seat: int, extra: int = 1) -> tuple[float, str]:
    """The worth of `extra` more of this seat's thieves arriving in the palace's courtyard."""
    chests = palace["chests"]
    if not chests:
        return -5.0, ""
    top = chests[0]
    mine = palace["thieves"][seat] + extra
    if mine >= top:
        return STEAL_BONUS + top, "infiltrate_take_chest"
    rival = any(n >= top - 1 for s, n in enumerate(palace["thieves"]) if s != seat)
    return 6.0 / (top - mine + 1) - (RIVAL_PENALTY if rival else 0.0), "infiltrate_closest_chest"


def _score(action: Action, palaces: Mapping[str, Mapping[str, Any]], seat: int, hand: Sequence[str],
           card: float, stuck: bool) -> tuple[float, str]:
    kind = action["type"]
    if kind == "infiltrate":
        value, why = _arrival(palaces[action["palace"]], seat)
        return value - _paid(action["cards"], card), why
    if kind == "move_guard":
        origin, destination = palaces[action["from"]], palaces[action["to"]]
        if action["with_thief"]:
            gained, why = _arrival(destination, seat)
            if why != "infiltrate_take_chest" and not stuck:
                return -1.0, ""  # new thieves come from the supply; one on the board moves to take a chest
            was, _ = _arrival(origin, seat, 0)  # where the thief stood, as worth as where it goes
            return gained - (0.0 if why == "infiltrate_take_chest" else was + CONSOLIDATE) \
                - _paid(action["cards"], card), "carry_thief"
        gained = _entry(destination, seat, hand) if not _can_enter(destination, seat) and _can_enter(
            destination, seat, arriving=True) else 0.0
        if stuck and not any(g == seat for g in destination["guards"]):  # a guard to carry thieves out with
            gained += 0.5 * destination["thieves"][seat]
        lost = _entry(origin, seat, hand) if _can_enter(origin, seat) and not _can_enter(
            origin, seat, leaving=True) else 0.0
        return gained - lost - _paid(action["cards"], card), "move_guard_cards"
    return -1.0, ""


def _entry(palace: Mapping[str, Any], seat: int, hand: Sequence[str]) -> float:
    """What being able to send thieves into this palace is worth: its chests, this seat's thieves already
    there and its cards of the palace's colour."""
    if not palace["chests"]:
        return 0.0
    return ENTRY + 0.4 * palace["thieves"][seat] + 0.2 * hand.count(palace["color"])


def _can_enter(palace: Mapping[str, Any], seat: int, leaving: bool = False, arriving: bool = False) -> bool:
    """Whether the seat could infiltrate this palace (an own and a foreign guard there) after the move."""
    guards = palace["guards"]
    mine = sum(1 for g in guards if g == seat) - (1 if leaving else 0) + (1 if arriving else 0)
    return mine >= 1 and len(guards) - sum(1 for g in guards if g == seat) >= 1


BOT = ThiefOfBaghdadBot()
"""The game's bot."""
