"""Argument types shared by the commands: counts and durations refused as usage errors, not met later."""

from __future__ import annotations

import argparse
import math


def count(text: str) -> int:
    """A whole number of at least 1 (taps, games, pages, rounds), else argparse's usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def seconds(text: str) -> float:
    """A positive, finite number of seconds, else argparse's usage error."""
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def seconds_or_zero(text: str) -> float:
    """A finite number of seconds, 0 allowed (where 0 means "no limit"), else argparse's usage error."""
    value = _number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or a positive number of seconds, not {text}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, not {text}")
    return value
