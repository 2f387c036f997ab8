"""Secret Hitler (Goat, Wolf & Cabbage; rules CC BY-NC-SA 4.0): the rules engine."""

from companion.games.secret_hitler.rules import RULES, SecretHitler

__all__ = ["RULES", "SecretHitler"]
