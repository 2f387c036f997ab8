"""Options: the demand deck (an enrolled one, or our invented sample), characters, market price, house rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from companion.games.gangsters_dilemma.board import CHARACTERS, LOOT
from companion.games.schema import is_int

# Our own invented sample, NOT the published card list (which is unknown): for demos only, labelled
# `sample_deck: true` in every view. Needs are (crate, art, jewel, liquor).
_SAMPLE: tuple[tuple[int, tuple[int, int, int, int]], ...] = (
    (4, (1, 1, 0, 0)), (4, (0, 1, 1, 0)), (4, (0, 0, 1, 1)), (4, (1, 0, 0, 1)),
    (4, (0, 2, 0, 0)), (4, (0, 0, 2, 0)), (4, (0, 1, 0, 1)),
    (7, (1, 1, 1, 0)), (7, (1, 0, 1, 1)), (7, (0, 1, 1, 1)), (7, (1, 1, 0, 1)),
    (7, (0, 2, 1, 0)), (7, (0, 0, 1, 2)), (7, (1, 0, 2, 0)),
    (10, (1, 1, 1, 1)), (10, (0, 2, 2, 0)), (10, (1, 1, 2, 0)), (10, (0, 1, 1, 2)),
)

OPTION_DEFAULTS: Mapping[str, Any] = {
    "demands": None,
    "characters": CHARACTERS,
    "market_price": 1,
    "lone_gangster_may_bribe": False,
}
"""Every option with its default (`demands: None` = the labelled sample deck)."""


@dataclass(frozen=True, slots=True)
class Demand:
    """One boss demand card: its id, VP and the loot it needs (crate, art, jewel, liquor)."""

    id: str
    vp: int
    needs: tuple[int, int, int, int]
    _needs: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Fixed for the card's life and drawn by every view: paired with the loot names once.
        object.__setattr__(self, "_needs", tuple(zip(LOOT, self.needs)))

    def as_json(self, sample: bool) -> dict[str, Any]:
        """The card as views show it."""
        card: dict[str, Any] = {"vp": self.vp, "needs": dict(self._needs)}
        if sample:
            card["sample"] = True
        return card


@dataclass(frozen=True)
class Config:
    """The validated options of one game (immutable; shared by every state of the game)."""

    cards: tuple[Demand, ...]
    sample: bool
    characters: tuple[str, ...]
    market_price: int
    lone_bribe: bool
    by_id: dict[str, Demand] = field(compare=False, hash=False, repr=False)
    shown: dict[str, dict[str, Any]] = field(compare=False, hash=False, repr=False)
    """Each card as views show it (`Demand.as_json`), built once: views share these, never changing them."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Config:
        # Immutable by construction (by_id is never written after __init__), so a copy may share it.
        return self


def sample_deck() -> tuple[Demand, ...]:
    """Our invented sample deck (18 cards of 4/7/10 VP)."""
    return tuple(Demand(f"sample-{i:02d}", vp, needs) for i, (vp, needs) in enumerate(_SAMPLE, start=1))


def _parse_demand(raw: Any, index: int) -> Demand:
    where = f"option 'demands'[{index}]"
    if not isinstance(raw, Mapping) or set(raw) - {"id", "vp", "needs"}:
        raise ValueError(f"{where} must be an object {{id, vp, needs}}")
    ident, vp, needs = raw.get("id"), raw.get("vp"), raw.get("needs")
    if not isinstance(ident, str) or not ident or len(ident) > 64:
        raise ValueError(f"{where}: id must be a non-empty string")
    if not is_int(vp) or vp <= 0:
        raise ValueError(f"{where}: vp must be a positive integer")
    if not isinstance(needs, Mapping) or set(needs) - set(LOOT):
        raise ValueError(f"{where}: needs must be an object with keys among {', '.join(LOOT)}")
    counts = tuple(needs.get(kind, 0) for kind in LOOT)
    if not all(is_int(c) and 0 <= c <= 20 for c in counts) or sum(counts) < 1:
        raise ValueError(f"{where}: needs must be counts 0..20, at least one token in all")
    return Demand(ident, vp, counts)  # type: ignore[arg-type]


def build_config(options: Mapping[str, Any], seats: int) -> Config:
    """Validate option values; a bad one raises ValueError naming it."""
    chars = options["characters"]
    if not isinstance(chars, (list, tuple)) or not all(isinstance(c, str) for c in chars):
        raise ValueError("option 'characters' must be a list of character ids")
    unknown = [c for c in chars if c not in CHARACTERS]
    if unknown:
        raise ValueError(f"option 'characters': unknown {unknown[0]!r} (known: {', '.join(CHARACTERS)})")
    if len(set(chars)) != len(chars):
        raise ValueError("option 'characters' lists a character twice")
    if chars and len(chars) < seats:
        raise ValueError(f"option 'characters' needs at least {seats} ids to deal one per seat (or [])")
    price = options["market_price"]
    if not is_int(price) or not 1 <= price <= 100:
        raise ValueError("option 'market_price' must be an integer 1..100")
    lone = options["lone_gangster_may_bribe"]
    if not isinstance(lone, bool):
        raise ValueError("option 'lone_gangster_may_bribe' must be true or false")
    raw = options["demands"]
    if raw is None:
        cards, sample = sample_deck(), True
    else:
        if not isinstance(raw, (list, tuple)):
            raise ValueError("option 'demands' must be a list of {id, vp, needs}")
        cards, sample = tuple(_parse_demand(d, i) for i, d in enumerate(raw)), False
        if len({c.id for c in cards}) != len(cards):
            raise ValueError("option 'demands' has a duplicate id")
        least = 6 if "elite" in chars else 3
        if len(cards) < least:
            raise ValueError(f"option 'demands' needs at least {least} cards (3 revealed"
                             f"{', 3 for the elite' if least == 6 else ''})")
    return Config(cards, sample, tuple(chars), price, lone, {c.id: c for c in cards},
                  {c.id: c.as_json(sample) for c in cards})
