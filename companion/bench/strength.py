"""How strong the bots are: win rates over many seeded games, each with its Wilson 95% interval, against the
baselines they must beat, and what a decision costs.

Secret Hitler, at 5, 7 and 10 seats: the liberals' win rate with all-bot tables, and a bot team against a team
of random legal players and against the trust-score baseline, each way round; each of the last four is
compared with the same opponents playing themselves (random liberals against random fascists, trust against
trust), and the bot team must win more, the intervals apart. Every other game, at each seat count: the bot
in one seat (the seat turns with each game) against random legal players, compared with the seat's base
rate, a random player's own win rate in the same seats (measured, or 1/seats where a game always has
exactly one winner). Games are split into chunks played by up to two processes (the machine is shared).
"""

from __future__ import annotations

import os
import random
import time
from array import array
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from companion.bots import Player, get_player, play_match, sides, team_player
from companion.bots.stats import Rate
from companion.games import get_rules
from companion.games.playout import PlayoutTooLong
from companion.games.registry import game_names, get_game

CHUNK = 250
"""Games per unit of work handed to a process."""
TEAM_SEATS = (5, 7, 10)


@dataclass(frozen=True)
class Setup:
    """Who plays a batch of games: by team (`liberal`/`fascist` kinds) or the bot in a turning seat."""

    game: str
    seats: int
    teams: tuple[str, str] | None = None
    """(the liberals' kind, the fascists' kind), for a game with teams."""
    seat_kind: str | None = None
    """For seat lines: who sits in the turning seat (`bot` or `random`); every other seat plays random."""

    @property
    def key(self) -> str:
        """A name for the setup in the report."""
        if self.teams:
            return f"{self.teams[0]} liberals vs {self.teams[1]} fascists"
        return f"{self.seat_kind} in one seat vs random"


def _players(setup: Setup, game_no: int) -> list[Player]:
    if setup.teams is not None:
        liberals, fascists = setup.teams
        if liberals == fascists:
            return [get_player(setup.game, liberals)] * setup.seats
        team = team_player(setup.game, {"liberal": get_player(setup.game, liberals),
                                        "fascist": get_player(setup.game, fascists)})
        return [team] * setup.seats
    turning = game_no % setup.seats
    other = get_player(setup.game, "random")
    return [get_player(setup.game, setup.seat_kind or "bot") if s == turning else other for s in range(setup.seats)]


def play_chunk(job: tuple[Setup, int, int, int]) -> tuple[Setup, int, int, bytes, int]:
    """Play games `first`..`first + n - 1` of a setup, each seeded from (seed, setup, game number): how many
    the side or seat measured won, how many were played, the bots' decision costs (µs, float32 bytes), and how
    many did not end within the step limit (counted as played and not won)."""
    setup, seed, first, n = job
    rules = get_rules(setup.game)
    wins = unfinished = 0
    costs: dict[str, list[float]] = {}
    for game_no in range(first, first + n):
        rng = random.Random(f"{seed}/{setup.key}/{setup.seats}/{game_no}")
        try:
            match = play_match(rules, _players(setup, game_no), rng, clock=time.perf_counter, costs=costs)
        except PlayoutTooLong:
            unfinished += 1
            continue
        if setup.teams is not None:
            wins += "liberal" in rules.winning_sides(match.state)
        else:
            wins += match.outcome is not None and game_no % setup.seats in match.outcome.winners
    bot_costs = array("f", (c * 1e6 for c in costs.get("bot", ())))
    return setup, wins, n, bot_costs.tobytes(), unfinished


def setups(games_filter: Sequence[str] | None = None) -> list[Setup]:
    """Every batch the strength table needs."""
    out: list[Setup] = []
    for game in game_names():
        if games_filter and game not in games_filter:
            continue
        rules = get_rules(game)
        if sides(game):
            for seats in TEAM_SEATS:
                for teams in (("bot", "bot"), ("random", "random"), ("trust", "trust"), ("bot", "random"),
                              ("random", "bot"), ("bot", "trust"), ("trust", "bot")):
                    out.append(Setup(game, seats, teams=teams))
        else:
            for seats in range(rules.min_seats, rules.max_seats + 1):
                out.append(Setup(game, seats, seat_kind="bot"))
                if not get_game(game).one_winner:  # else a random seat's base rate is exactly 1/seats
                    out.append(Setup(game, seats, seat_kind="random"))
    return out


def jobs(all_setups: Sequence[Setup], games: int, seed: int) -> Iterator[tuple[Setup, int, int, int]]:
    """The chunks of every setup."""
    for setup in all_setups:
        for first in range(0, games, CHUNK):
            yield setup, seed, first, min(CHUNK, games - first)


def strength_figures(games: int, seed: int, processes: int = 2, only: Sequence[str] | None = None) -> dict[str, Any]:
    """The strength table: every line with its rate, interval, baseline and verdict, and decision costs."""
    all_setups = setups(only)
    wins: dict[Setup, list[int]] = {s: [0, 0] for s in all_setups}
    unfinished: dict[Setup, int] = {s: 0 for s in all_setups}
    costs: dict[str, array] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, min(2, processes))) as pool:
        for setup, won, played, cost, stuck in pool.map(play_chunk, jobs(all_setups, games, seed), chunksize=1):
            wins[setup][0] += won
            wins[setup][1] += played
            unfinished[setup] += stuck
            costs.setdefault(setup.game, array("f")).frombytes(cost)
    rates = {s: Rate(*counts) for s, counts in wins.items()}
    return {"strength": {
        "games_per_line": games,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "lines": lines(rates),
        "unfinished": {f"{s.game}/{s.seats}/{s.key}": n for s, n in unfinished.items() if n},
        "decision_us": {game: cost_figures(values) for game, values in sorted(costs.items())},
    }}


def lines(rates: dict[Setup, Rate]) -> list[dict[str, Any]]:
    """Each measured line beside its baseline."""
    by_key = {(s.game, s.seats, s.teams, s.seat_kind): r for s, r in rates.items()}
    out: list[dict[str, Any]] = []
    for setup, rate in rates.items():
        if setup.teams is not None:
            out += _team_lines(setup, rate, by_key)
        elif setup.seat_kind == "bot":
            base = by_key.get((setup.game, setup.seats, None, "random"))
            base_json = base.to_json() if base is not None else {"rate": round(1 / setup.seats, 4),
                                                                  "exact": "one winner a game"}
            low_base = base.interval[1] if base is not None else 1 / setup.seats
            out.append({"game": setup.game, "seats": setup.seats, "line": "bot in one seat vs random",
                        "side": "bot", "rate": rate.to_json(), "baseline": "random in the same seat",
                        "baseline_rate": base_json, "beats": rate.interval[0] > low_base})
    return out


def _team_lines(setup: Setup, rate: Rate, by_key: dict[Any, Rate]) -> list[dict[str, Any]]:
    assert setup.teams is not None
    liberals, fascists = setup.teams
    fascist_rate = Rate(rate.games - rate.wins, rate.games)
    row = {"game": setup.game, "seats": setup.seats, "line": setup.key}
    if liberals == fascists:
        if liberals != "bot":
            return []  # a baseline: shown beside the lines it measures
        return [{**row, "side": "liberal", "rate": rate.to_json(), "baseline": None, "baseline_rate": None,
                 "beats": None}]
    if liberals == "bot":
        base = by_key[(setup.game, setup.seats, (fascists, fascists), None)]
        return [{**row, "side": "liberal", "rate": rate.to_json(),
                 "baseline": f"{fascists} liberals vs {fascists} fascists", "baseline_rate": base.to_json(),
                 "beats": rate.beats(base)}]
    base = by_key[(setup.game, setup.seats, (liberals, liberals), None)]
    base_fascist = Rate(base.games - base.wins, base.games)
    return [{**row, "side": "fascist", "rate": fascist_rate.to_json(),
             "baseline": f"{liberals} liberals vs {liberals} fascists", "baseline_rate": base_fascist.to_json(),
             "beats": fascist_rate.beats(base_fascist)}]


def cost_figures(values: array) -> dict[str, Any]:
    """Mean, p99 and max of decision costs in µs."""
    if not values:
        return {"decisions": 0}
    ordered = sorted(values)
    return {"decisions": len(ordered), "mean": round(sum(ordered) / len(ordered), 1),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
            "max": round(ordered[-1], 1)}
