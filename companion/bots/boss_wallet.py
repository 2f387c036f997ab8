"""The Boss's Wallet bot. Nobody knows a hand's cards before its scan (a digital table deals them at the scan),
so what a seat controls is its identity and its hand's size: the bot buys an extra ID at once — the secret
agent first, whose ID makes every other ID in the hand harmless — and then keeps a small hand, since each
card is one more chance of a third currency, a second ID or a badge it may not hold; then it turns the
hourglass to end the round. At the round's end it uses a credit card, investigates the seat with the largest
hand and returns its lowest chip."""

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
    bought = [_person(c, view) for c in view.get("hand") or ()]
    extra = next((p for p in EXTRA_PREFERENCE if p in bought), None)
    if extra is None:
        offers = {_person(a["id_card"], view) or a["id_card"].removeprefix("extra_"): a
                  for a in legal if a["type"] == "buy_id"}
        for person in EXTRA_PREFERENCE:
            if person in offers:
                return Decision(offers[person], "buy_extra_id", {"id_card": offers[person]["id_card"]})
    target = TARGET_CARDS[extra]
    cards = view["players"][seat]["hand_size"] - len(bought)
    if cards > target and "put" in kinds:
        return Decision(kinds["put"], "put_to_size", {"cards": target})
    if cards < target and "draw" in kinds:
        return Decision(kinds["draw"], "draw_to_size", {"cards": target})
    return Decision(kinds["flip"], "flip_hand_ready")


BOT = BossWalletBot()
"""The game's bot."""
