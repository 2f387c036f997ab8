"""`companion simulate GAME --seats N --games K --seed S [--bots SEATS] [--others random|trust|bot] [--json]`:
games played by bots and baseline players, wins by side and by seat, and their speed."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from companion.bots import KINDS, Player, RandomPlayer, UnknownBot, get_player, play_match, sides, team_player
from companion.bots.stats import Rate
from companion.commands._args import count
from companion.games.playout import random_playout
from companion.games.registry import game_names, get_rules

HELP = "play games with bots and baseline players; print wins by side and by seat, and games per second"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--games", type=count, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default=None, help="options as a JSON object")
    parser.add_argument("--bots", default="none",
                        help="the seats the game's bot plays: comma-separated seat numbers, `all`, `none` "
                             "(the default), or a team the game deals (Secret Hitler: liberal, fascist)")
    parser.add_argument("--others", default="random", choices=KINDS,
                        help="who plays every other seat (team): random legal actions, the trust-score "
                             "baseline (Secret Hitler), or the bot")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


class BadSeats(ValueError):
    """`--bots` named no seat or team of this game."""


def bot_seats(spec: str, seats: int, teams: tuple[str, ...]) -> tuple[list[int], str | None]:
    """The seats `--bots` names, or the team it names (then every seat is a team player)."""
    text = spec.strip().lower()
    if text == "none":
        return [], None
    if text == "all":
        return list(range(seats)), None
    if text in teams:
        return [], text
    out: list[int] = []
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            known = ", ".join(("all", "none", *teams))
            raise BadSeats(f"--bots takes seat numbers 0..{seats - 1} or one of {known}, not {spec!r}") from None
        if not 0 <= seat < seats:
            raise BadSeats(f"--bots: no seat {seat} in a {seats}-seat game (0..{seats - 1})")
        if seat not in out:
            out.append(seat)
    return sorted(out), None


def players_for(game: str, seats: int, bots: list[int], team: str | None, others: str) -> list[Player]:
    """The player of every seat."""
    bot, other = get_player(game, "bot"), get_player(game, others)
    if team is not None:
        player = team_player(game, {side: bot if side == team else other for side in sides(game)})
        return [player] * seats
    return [bot if seat in bots else other for seat in range(seats)]


def run(args: argparse.Namespace) -> int:
    """Play the games and report."""
    rules = get_rules(args.game)
    try:
        options = json.loads(args.options) if args.options else None
        rules.initial_state(args.seats, options)
        bots, team = bot_seats(args.bots, args.seats, sides(args.game))
        players = players_for(args.game, args.seats, bots, team, args.others)
    except UnknownBot as exc:
        print(f"error: {exc.code}: {exc.message}")
        return 2
    except BadSeats as exc:
        print(f"error: bad_seats: {exc}")
        return 2
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    report = simulate(rules, players, args.games, args.seed, options, bots, team)
    report.update(game=rules.name, seats=args.seats, games=args.games, seed=args.seed,
                  bots=team if team is not None else bots, others=args.others)
    if args.json:
        print(json.dumps(report))
    else:
        print_report(rules.title, report)
    return 0


def simulate(rules: Any, players: list[Player], games: int, seed: int, options: Any, bots: list[int],
             team: str | None) -> dict[str, Any]:
    """Play `games` games from one seeded generator; tally outcomes, winning sides, seats and the bots' wins."""
    rng = random.Random(seed)
    reasons: Counter[str] = Counter()
    won_sides: Counter[str] = Counter()
    seat_wins = [0] * len(players)
    bot_wins = bot_games = actions = 0
    random_only = all(isinstance(p, RandomPlayer) for p in players)
    start = time.perf_counter()
    for _ in range(games):
        # random players alone: a random playout, as simulate always played them (no seed drawn per decision)
        match = random_playout(rules, len(players), rng, options) if random_only else play_match(
            rules, players, rng, options)
        actions += len(match.actions)
        outcome = match.outcome
        reasons[outcome.reason if outcome else "unfinished"] += 1
        game_sides = rules.winning_sides(match.state)
        won_sides.update(game_sides)
        for seat in outcome.winners if outcome else ():
            seat_wins[seat] += 1
        if team is not None:
            bot_games += 1
            bot_wins += team in game_sides
        elif bots:
            bot_games += len(bots)
            bot_wins += sum(1 for seat in bots if outcome and seat in outcome.winners)
    elapsed = time.perf_counter() - start
    return {
        "outcomes": dict(sorted(reasons.items())),
        "sides": dict(sorted(won_sides.items())),
        "seat_wins": seat_wins,
        "bot_wins": Rate(bot_wins, bot_games).to_json() if bot_games else None,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1) if elapsed else None,
        "us_per_action": round(elapsed / actions * 1e6, 2) if actions else None,
    }


def print_report(title: str, report: dict[str, Any]) -> None:
    """The report in words."""
    bots = report["bots"]
    who = f"bots: {bots if isinstance(bots, str) else ','.join(map(str, bots)) or 'none'}"
    print(f"{title}, {report['seats']} seats, {report['games']} games (seed {report['seed']}); "
          f"{who}; others: {report['others']}")
    for reason, n in report["outcomes"].items():
        print(f"  {reason:<20} {n}")
    if report["sides"]:
        print("  wins by side: " + ", ".join(f"{side} {n}" for side, n in report["sides"].items()))
    print("  wins by seat: " + ", ".join(f"{seat}: {n}" for seat, n in enumerate(report["seat_wins"])))
    if report["bot_wins"]:
        rate = Rate(report["bot_wins"]["wins"], report["bot_wins"]["games"])
        print(f"  the bots won {rate.text()} of their {'games' if isinstance(bots, str) else 'seat-games'} "
              "(95% interval)")
    print(f"  {report['games_per_s']} games/s, {report['us_per_action']} µs per action "
          f"(decisions + apply), {report['actions']} actions")
