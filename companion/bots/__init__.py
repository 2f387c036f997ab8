"""Players the table can seat: one module per game (`companion.bots.<game>`, found by the game's registry id),
over the engine contract only — a player sees its seat's view and legal actions and the rng it is given.

`get_bot(game)` gives a game's bot: `choose(view, legal_actions, rng)` returns one of `legal_actions`;
`decide(...)` also gives the reason. `Seated` is the one path from a state to a player's eyes, `play_match`
plays a whole game (`companion simulate`, the strength bench).
"""

from companion.bots.base import BadChoice, Decision, Player, RandomPlayer, UnknownBot
from companion.bots.match import Match, Move, play_match
from companion.bots.registry import KINDS, get_bot, get_player, player_kinds, sides, team_player
from companion.bots.seat import Seated, draw_seed

__all__ = ["BadChoice", "Decision", "Player", "RandomPlayer", "UnknownBot", "Match", "Move", "play_match",
           "KINDS", "get_bot", "get_player", "player_kinds", "sides", "team_player", "Seated", "draw_seed"]
