"""Boss's Wallet (보스의 지갑): rules engine per docs/RULES.md, Boss's Wallet; rulings in RULINGS.md.

Modules (the same in every game package): `codes` (phases, reasons, refusal and log codes) · `cards` and
`config` (the catalogue and options) · `state` · `actions` (schemas) · `legal` (phase -> action types, who acts)
· `chance` · `turns`, `roundend`, `flow` and `judge` (the actions and the verdicts) · `views` · `publish` (one
publish's views from the last publish's pieces) · `rules` (the Rules
subclass, `RULES`) · `binding`.
"""

from companion.games.declaration import Game
from companion.games.boss_wallet.fields import FIELDS
from companion.games.boss_wallet.binding import BINDING
from companion.games.boss_wallet.codes import Phase, Reason
from companion.games.boss_wallet.rules import RULES, BossWallet

__all__ = ["GAME", "BINDING", "RULES", "Phase", "Reason", "BossWallet"]

GAME = Game(rules=RULES, binding=BINDING, fields=FIELDS, demo_seats=4)
"""The game's declaration: all the rest of the companion reads of it."""
