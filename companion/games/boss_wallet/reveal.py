"""Boss's Wallet's reveal: each hand's verdict, round by round, with the reasons it was guilty."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from companion.games.reveal import RevealLine


def reveal_lines(log: Iterable[Any]) -> Iterator[RevealLine]:
    """`guilty` (with its reasons) or `innocent` (with the identity the hand proved) per judged hand."""
    round_no = 0
    for e in log:
        p = dict(e.params)  # a mapping, or (name, value) pairs (Thief of Baghdad)
        if e.code == "round_start":
            round_no = int(p.get("round") or 0)
        elif e.code == "verdict":
            if p.get("verdict") == "guilty":
                yield RevealLine("guilty", {"round": round_no, "seat": p.get("seat"),
                                            "reasons": list(p.get("reasons") or ())})
            else:
                yield RevealLine("innocent", {"round": round_no, "seat": p.get("seat"),
                                              "identity": p.get("identity")})
