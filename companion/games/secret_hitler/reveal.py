"""Secret Hitler's reveal: each legislative session's drawn tiles against what was enacted, and each loyalty
investigation's true answer (both were secret to all but one or two seats)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from companion.games.reveal import RevealLine


def reveal_lines(log: Iterable[Any]) -> Iterator[RevealLine]:
    """The sessions (`session`, `vetoed`, `chaos`) and investigations (`party`) in the order they happened."""
    president = chancellor = None
    drew: list[str] = []
    discarded = None
    investigator = None
    for e in log:
        p = dict(e.params)  # a mapping, or (name, value) pairs (Thief of Baghdad)
        if e.code == "nominated":
            president, chancellor = p.get("president"), p.get("chancellor")
        elif e.code == "president_discard":
            drew, discarded = list(p.get("drew") or ()), p.get("policy")
        elif e.code == "enacted" and drew:
            yield RevealLine("session", {"president": president, "chancellor": chancellor, "drew": drew,
                                         "discarded": discarded, "policy": p.get("policy")})
            drew = []
        elif e.code == "veto_agreed" and drew:
            yield RevealLine("vetoed", {"president": president, "chancellor": chancellor, "drew": drew,
                                        "discarded": discarded})
            drew = []
        elif e.code == "chaos":
            yield RevealLine("chaos", {"policy": p.get("policy")})
        elif e.code == "investigated":
            investigator = p.get("president")
        elif e.code == "party":
            yield RevealLine("party", {"president": investigator, "target": p.get("target"),
                                       "party": p.get("party")})


def winning_team(roles: tuple[str, ...], winners: Iterable[int]) -> list[str]:
    """The team that won: `liberal` or `fascist` (Hitler plays for the fascists)."""
    won = {roles[s] for s in winners if 0 <= s < len(roles)}
    if not won:
        return []
    return ["liberal"] if "liberal" in won else ["fascist"]
