"""Boss's Wallet (보스의 지갑): rules engine per RULES.md section 3; `RULES` is the engine."""

from companion.games.boss_wallet.engine import BossWallet

RULES = BossWallet()

__all__ = ["RULES", "BossWallet"]
