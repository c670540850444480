"""AmongAgents (seed 002): registers `amongagents`."""

from engine.amongagents.config import AmongConfig
from engine.amongagents.env import AmongAgentsEnv
from engine.amongagents.rules import AmongGame
from engine.registry import register

register(AmongAgentsEnv())

__all__ = ["AmongAgentsEnv", "AmongConfig", "AmongGame"]
