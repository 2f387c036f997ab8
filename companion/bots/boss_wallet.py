"""The Boss's Wallet bot. What a seat controls is its identity and its hand's size: the bot buys an extra ID at
once — the secret agent first, whose ID makes every other ID in the hand harmless — and then keeps a small
hand, since each card is one more chance of a third currency, a second ID or a badge it may not hold; then it
turns the hourglass to end the round. Where the table knows the hands (a digital table: the seat's view lists
its cards and each `put` names one) it puts back the card most likely to make it guilty first, then its
smallest bill. At the round's end it uses a credit card, investigates the seat with the largest hand and
returns its lowest chip."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from companion.bots.base import Action, Decision, Player

View = Mapping[str, Any]
Legal = Sequence[Action]

EXTRA_PREFERENCE = ("secret_agent", "john_smith", "police", "millionaire", "model")
"""Which extra ID to buy, best first: the secret agent is innocent whatever other IDs the hand holds."""
TARGET_CARDS = MappingProxyType({"secret_agent": 2, "john_smith": 1, "police": 1, "millionaire": 1, "model": 1,
                                 None: 3})
"""How many play cards (besides bought IDs) the bot keeps, by the extra ID it holds (None: none bought)."""

REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "buy_extra_id": ("id_card",),
    "put_to_size": ("cards",),
    "draw_to_size": ("cards",),
    "flip_hand_ready": (),
    "use_credit": (),
    "investigate_largest_hand": ("target",),
    "return_lowest_chip": ("chip",),
    "pass": (),
})
"""Reason code -> its params (read-only)."""


def _person(card_id: str, view: View) -> str | None:
    info = (view.get("card_info") or {}).get(card_id) or {}
    return info.get("person")


def _risk(card_id: Any, view: View, extra: str | None) -> tuple[int, int]:
    """How badly a known card suits the hand (worst first when sorted descending): a badge, credit card or
    play ID the bought identity does not cover, then everything else by its smallness."""
    info = (view.get("card_info") or {}).get(card_id) or {}
    kind = info.get("type")
    harmful = ((kind == "badge" and extra != "police") or (kind == "credit" and extra != "john_smith")
               or (kind == "id" and extra != "secret_agent"))
    return (1 if harmful else 0, -int(info.get("value") or 0))


class BossWalletBot(Player[None]):
    """Identity first, a small hand, then the hourglass; no memory."""

    game = "boss_wallet"
    reasons = REASONS

    def decide(self, view: View, legal_actions: Legal, rng: random.Random, memory: None = None) -> Decision:
        """This phase's choice."""
        kinds = {a["type"]: a for a in legal_actions}
        if "flip" in kinds:
            return _turn(view, legal_actions, kinds)
        if "credit" in kinds:
            return Decision(kinds["credit"], "use_credit")
        if "investigate" in kinds:
            players = view["players"]
            best = max((a for a in legal_actions if a["type"] == "investigate"),
                       key=lambda a: (players[a["target"]].get("hand_size", 0), rng.random()))
            return Decision(best, "investigate_largest_hand", {"target": best["target"]})
        if "return_chip" in kinds:
            lowest = min((a for a in legal_actions if a["type"] == "return_chip"), key=lambda a: a["chip"])
            return Decision(lowest, "return_lowest_chip", {"chip": lowest["chip"]})
        return Decision(kinds.get("pass", legal_actions[0]), "pass")


def _turn(view: View, legal: Legal, kinds: Mapping[str, Action]) -> Decision:
    seat = legal[0]["seat"]
    info = view.get("card_info") or {}
    bought = [_person(c, view) for c in view.get("hand") or () if (info.get(c) or {}).get("extra")]
    extra = next((p for p in EXTRA_PREFERENCE if p in bought), None)
    if extra is None:
        offers: dict[str, Action] = {}
        for a in legal:  # the first payment listed for each extra ID (a known hand's least paid)
            if a["type"] == "buy_id":
                offers.setdefault(_person(a["id_card"], view) or a["id_card"].removeprefix("extra_"), a)
        for person in EXTRA_PREFERENCE:
            if person in offers:
                return Decision(offers[person], "buy_extra_id", {"id_card": offers[person]["id_card"]})
    target = TARGET_CARDS[extra]
    cards = view["players"][seat]["hand_size"] - len(bought)
    if cards > target and "put" in kinds:
        puts = [a for a in legal if a["type"] == "put"]
        worst = max(puts, key=lambda a: _risk(a.get("card"), view, extra))  # the first listed when none names a card
        return Decision(worst, "put_to_size", {"cards": target})
    if cards < target and "draw" in kinds:
        return Decision(kinds["draw"], "draw_to_size", {"cards": target})
    return Decision(kinds["flip"], "flip_hand_ready")


BOT = BossWalletBot()
"""The game's bot."""
