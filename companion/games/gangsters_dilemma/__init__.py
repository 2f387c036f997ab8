"""Gangster's Dilemma (Eagle-Gryphon Games 2020): rules engine per RULES.md section 2."""

from companion.games.gangsters_dilemma.engine import GangstersDilemma

RULES = GangstersDilemma()
"""The engine instance the registry hands out."""

__all__ = ["RULES", "GangstersDilemma"]
