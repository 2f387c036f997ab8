"""History across games: per game, how many were played, wins by side and by seat, average length; as CSV too."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence


@dataclass(frozen=True)
class Played:
    """One finished game as the history counts it."""

    game: str
    seats: int
    actions: int
    seconds: float
    winners: tuple[int, ...]
    reason: str | None
    sides: tuple[str, ...]


def played_of(row: Mapping[str, Any], sides: Callable[[Mapping[str, Any]], Sequence[str]]) -> Played:
    """A journal listing row (Journal.finished) as Played; `sides` names the winners' teams or roles."""
    outcome = row.get("outcome") or {}
    ended, started = row.get("ended") or 0.0, row.get("started") or 0.0
    return Played(str(row["game"]), int(row["seats"]), int(row.get("actions") or 0), max(0.0, ended - started),
                  tuple(int(s) for s in outcome.get("winners") or ()), outcome.get("reason"),
                  tuple(sides(row)) if outcome else ())


def seat_label(names: Sequence[str], seat: int) -> str:
    """A seat as the history names it: the table's configured name, else "seat N" (1-based)."""
    name = names[seat] if 0 <= seat < len(names) else ""
    return name or f"seat {seat + 1}"


def stats(games: Iterable[Played]) -> list[dict[str, Any]]:
    """Per game (in name order): games played to their end by the rules, games abandoned (ended by the host or
    replaced), and over the played ones the average actions and minutes and the wins by side, by seat (its
    number from 0, which the page and the CSV name as the table does) and by reason."""
    by_game: dict[str, list[Played]] = {}
    for g in games:
        by_game.setdefault(g.game, []).append(g)
    out = []
    for name in sorted(by_game):
        won = [g for g in by_game[name] if g.reason is not None]
        out.append({
            "game": name, "played": len(won), "abandoned": len(by_game[name]) - len(won),
            "average_actions": round(sum(g.actions for g in won) / len(won), 1) if won else 0,
            "average_minutes": round(sum(g.seconds for g in won) / len(won) / 60, 1) if won else 0,
            "wins_by_side": _count(s for g in won for s in g.sides),
            "wins_by_seat": _count(str(s) for g in won for s in g.winners),
            "wins_by_reason": _count(str(g.reason) for g in won),
        })
    return out


def _count(keys: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


CSV_HEADER = ("game", "measure", "name", "value")


def stats_csv(rows: Sequence[Mapping[str, Any]], seat_names: Sequence[str]) -> str:
    """The history as CSV: one line per figure (`played`, `average_minutes`, `wins_by_seat` with the seat's
    configured name...)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for r in rows:
        for measure in ("played", "abandoned", "average_actions", "average_minutes"):
            writer.writerow((r["game"], measure, "", r[measure]))
        for measure in ("wins_by_side", "wins_by_seat", "wins_by_reason"):
            for name, value in r[measure].items():
                if measure == "wins_by_seat":
                    name = seat_label(seat_names, int(name))
                writer.writerow((r["game"], measure, _safe(name), value))
    return out.getvalue()


def _safe(text: str) -> str:
    """A name a spreadsheet will not run as a formula (a seat named "=1+1" stays text)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
