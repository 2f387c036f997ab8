"""The odds a Secret Hitler seat reasons with: what a draw of three holds, and how likely a government enacts a
fascist policy when each of its two members is liberal or fascist."""

from __future__ import annotations

from math import comb

LIBERAL_TILES, FASCIST_TILES = 6, 11
"""The deck (docs/RULES.md): tiles not yet enacted are in the draw or the discard pile, in a mix nobody sees."""

COVER = 0.15
"""How often a fascist in government is assumed to let a liberal policy through to look liberal."""
SLIP = 0.03
"""How often a liberal chancellor is assumed to enact a fascist policy while holding a liberal one."""


Odds = tuple[float, float, float, float]


def _draw(liberal: int, fascist: int) -> Odds:
    total = liberal + fascist
    if total < 3:
        return (1.0, 0.0, 0.0, 0.0) if liberal == 0 else (0.0, 1.0, 0.0, 0.0)
    whole = comb(total, 3)
    return tuple(comb(liberal, k) * comb(fascist, 3 - k) / whole for k in range(4))  # type: ignore[return-value]


DRAW_ODDS: tuple[tuple[Odds, ...], ...] = tuple(tuple(_draw(lib, fas) for fas in range(FASCIST_TILES + 1))
                                               for lib in range(LIBERAL_TILES + 1))
"""[liberal][fascist] -> P(k liberal tiles among three drawn), k = 0..3; built once, immutable."""


def draw_odds(liberal: int, fascist: int) -> Odds:
    """P(k liberal tiles among three drawn), k = 0..3, from `liberal` + `fascist` tiles in an unknown order."""
    return DRAW_ODDS[min(liberal, LIBERAL_TILES)][min(fascist, FASCIST_TILES)]


def remaining(liberal_enacted: int, fascist_enacted: int) -> tuple[int, int]:
    """The liberal and fascist tiles not on the tracks (the draw and discard piles together)."""
    return max(0, LIBERAL_TILES - liberal_enacted), max(1, FASCIST_TILES - fascist_enacted)


def fascist_enactment(liberal_enacted: int, fascist_enacted: int) -> tuple[float, float, float, float]:
    """P(a fascist policy is enacted) for a government whose (president, chancellor) are (liberal, liberal),
    (liberal, fascist), (fascist, liberal), (fascist, fascist): liberals keep a liberal tile whenever they
    hold one; fascists pass and enact fascist tiles unless covering."""
    p0, p1, p2, _ = draw_odds(*remaining(liberal_enacted, fascist_enacted))
    both_liberal = p0
    one_fascist = p0 + p1 * (1 - COVER)
    both_fascist = p0 + p1 + p2 * (1 - COVER)
    return both_liberal, one_fascist, one_fascist, both_fascist


def president_passed_fascists(liberal_enacted: int, fascist_enacted: int) -> tuple[float, float]:
    """P(a president hands two fascist tiles to the chancellor) if the president is liberal, if fascist."""
    p0, p1, _, _ = draw_odds(*remaining(liberal_enacted, fascist_enacted))
    return p0, p0 + p1 * (1 - COVER)
