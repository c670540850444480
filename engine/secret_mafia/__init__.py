"""Secret Mafia (MindGames): registers `secret-mafia`."""

from engine.registry import register
from engine.secret_mafia.config import MafiaConfig
from engine.secret_mafia.env import SecretMafiaEnv
from engine.secret_mafia.rules import MafiaGame

register(SecretMafiaEnv())

__all__ = ["MafiaConfig", "MafiaGame", "SecretMafiaEnv"]
