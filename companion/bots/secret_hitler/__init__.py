"""Secret Hitler's players: the bot (`bot`: beliefs in `memory`, odds in `odds`, reasons in `reasons`) and the
trust-score baseline it is measured against (`trust`); `by_side` seats a player per team (`teams`)."""

from companion.bots.secret_hitler.bot import SecretHitlerBot
from companion.bots.secret_hitler.teams import SIDES, TeamPlayer, by_side
from companion.bots.secret_hitler.trust import TRUST, TrustPlayer

BOT = SecretHitlerBot()
"""The game's bot (stateless: its memory is the value `observe` returns)."""
BASELINES = {"trust": TRUST}
"""Baselines besides the random player, by kind."""

__all__ = ["BOT", "BASELINES", "SIDES", "by_side", "SecretHitlerBot", "TeamPlayer", "TrustPlayer"]
