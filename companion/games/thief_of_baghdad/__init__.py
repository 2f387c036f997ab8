"""Thief of Baghdad (바그다드의 도둑): rules engine per RULES.md section 4."""

from companion.games.thief_of_baghdad.engine import ThiefOfBaghdad

RULES = ThiefOfBaghdad()
"""The engine instance the registry hands out (stateless)."""

__all__ = ["RULES", "ThiefOfBaghdad"]
