"""Pure game rules: no I/O, no threads, no clock, no global random (docs/ARCHITECTURE.md "The engine contract")."""

from companion.games.contract import CHANCE, IllegalAction, Outcome, Refusal
from companion.games.registry import game_names, get_rules
from companion.games.rules import LogEntry, Rules

__all__ = ["CHANCE", "IllegalAction", "Refusal", "Outcome", "Rules", "LogEntry", "get_rules", "game_names"]
