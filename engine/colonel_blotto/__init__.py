"""Colonel Blotto (MindGames): registers the `colonel-blotto` environment."""

from engine.colonel_blotto.allocation import Allocation
from engine.colonel_blotto.rules import BlottoConfig, BlottoGame, ColonelBlottoEnv
from engine.registry import register

register(ColonelBlottoEnv())

__all__ = ["Allocation", "BlottoConfig", "BlottoGame", "ColonelBlottoEnv"]
