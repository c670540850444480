"""Three-player Iterated Prisoner's Dilemma (MindGames): registers `three-player-ipd`."""

from engine.registry import register
from engine.three_player_ipd.actions import ChatMessage, Decisions
from engine.three_player_ipd.rules import IPDConfig, IPDGame, ThreePlayerIPDEnv

register(ThreePlayerIPDEnv())

__all__ = ["ChatMessage", "Decisions", "IPDConfig", "IPDGame", "ThreePlayerIPDEnv"]
