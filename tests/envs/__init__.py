"""Test-only environments, registered on import: `proving-ground` (seven seats in two teams,
simultaneous moves every tick, hidden roles, games of thousands of moves) and `solo-quiz` (one
seat, no ratings). They exercise the engine contract where the real envs do not yet."""

from engine.registry import load_all, register
from tests.envs.proving import ProvingEnv, ProvingGame
from tests.envs.solo import QuizGame, SoloQuizEnv

load_all()  # the real envs first, so lobbies and error messages list them first
PROVING = register(ProvingEnv())
SOLO = register(SoloQuizEnv())

__all__ = ["PROVING", "SOLO", "ProvingEnv", "ProvingGame", "QuizGame", "SoloQuizEnv"]
