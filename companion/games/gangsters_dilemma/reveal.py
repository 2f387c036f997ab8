"""Gangster's Dilemma's reveal: at each arrest, who informed on whom, who kept silent and who paid a bribe."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from companion.games.reveal import RevealLine

CODE_OF = {"inform": "informed", "silence": "silent", "bribe": "bribed"}
"""Response id -> reveal line code."""


def reveal_lines(log: Iterable[Any]) -> Iterator[RevealLine]:
    """One line per gangster's answer to the police, round by round (`informed` names the seats informed on)."""
    round_no = 0
    for e in log:
        p = dict(e.params)  # a mapping, or (name, value) pairs (Thief of Baghdad)
        if e.code == "round":
            round_no = int(p.get("round") or 0)
        elif e.code == "responses":
            seats = list(p.get("seats") or ())
            for seat, response in zip(seats, p.get("responses") or ()):
                code = CODE_OF.get(str(response))
                if code is None:
                    continue
                params: dict[str, Any] = {"round": round_no, "seat": seat, "location": p.get("location")}
                if code == "informed":
                    params["seats"] = [s for s in seats if s != seat]
                yield RevealLine(code, params)


def winning_characters(characters: Iterable[Any], winners: Iterable[int]) -> list[str]:
    """The characters the winners played."""
    chars = list(characters)
    return sorted({str(chars[s]) for s in winners if 0 <= s < len(chars) and chars[s]})
