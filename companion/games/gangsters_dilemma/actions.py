"""The action vocabulary (docs/RULES.md, Gangster's Dilemma) as declarative schemas, and which phase takes which."""

from __future__ import annotations

from typing import Final, Mapping

from companion.games.gangsters_dilemma import handlers
from companion.games.gangsters_dilemma.board import LOOT, TRADES
from companion.games.gangsters_dilemma.codes import Phase
from companion.games.schema import ActionSpec, integer, list_of, nullable, one_of, opt, seat, text

ACTIONS: Final[Mapping[str, ActionSpec]] = {
    "setup": ActionSpec({
        "police": seat(),
        "characters": list_of(nullable(text(40)), per_seat=True),
        "demands": list_of(text(64), min_len=3, max_len=3),
        "elite_demands": opt(list_of(text(64), max_len=3), ()),
    }, chance=True, handler=handlers.setup),
    "patrol": ActionSpec({"locations": list_of(integer(), min_len=2, max_len=2)}, handler=handlers.patrol),
    "peek": ActionSpec({}, handler=handlers.peek),
    "reveal_patrol": ActionSpec({"location": integer(), "target": opt(seat())}, chance=True,
                                handler=handlers.reveal_patrol),
    "choose": ActionSpec({"location": integer()}, handler=handlers.choose),
    "swap": ActionSpec({"target": seat(), "give": one_of(*LOOT), "take": one_of(*LOOT)}, handler=handlers.swap),
    "steal": ActionSpec({"target": seat()}, handler=handlers.steal),
    "skip": ActionSpec({}, handler=handlers.skip),
    "respond": ActionSpec({
        "response": one_of("inform", "silence", "bribe"),
        "pay": opt(one_of("liquor", "dollars")),
    }, handler=handlers.respond),
    "trade": ActionSpec({"trade": one_of(*TRADES, "none")}, handler=handlers.trade),
    "fulfil": ActionSpec({
        "demand": text(64),
        "substitute": opt(one_of(*LOOT)),
        "pay": opt(one_of("dollars", "liquor")),
    }, handler=handlers.fulfil),
    "pass": ActionSpec({}, handler=handlers.pass_),
    "reveal_demand": ActionSpec({"demand": text(64)}, chance=True, handler=handlers.reveal_demand),
}

PHASE_ACTIONS: Final[Mapping[Phase, frozenset[str]]] = {
    Phase.SETUP: frozenset({"setup"}),
    Phase.PLAN: frozenset({"patrol", "choose", "peek"}),
    Phase.PEEK: frozenset({"reveal_patrol"}),
    Phase.ABILITIES: frozenset({"swap", "steal", "skip"}),
    Phase.RESPOND: frozenset({"respond", "pass"}),
    Phase.TRADE: frozenset({"trade"}),
    Phase.FULFIL: frozenset({"fulfil", "pass"}),
    Phase.REVEAL_DEMAND: frozenset({"reveal_demand"}),
    Phase.GAME_OVER: frozenset(),
}
"""Action types each phase takes; anything else is `wrong_phase`."""
