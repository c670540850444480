"""Find the Spy (SocialMaze, seed 003): registers `find-the-spy`, a four-seat word game. The
word bank (pairs.txt, ours) and the leak check live in words.py, beside the env's modules
(config, syntax, rules, text, metrics, env)."""

from engine.find_the_spy.config import FindTheSpyConfig
from engine.find_the_spy.env import FindTheSpyEnv
from engine.find_the_spy.rules import FindTheSpyGame
from engine.registry import register

register(FindTheSpyEnv())

__all__ = ["FindTheSpyConfig", "FindTheSpyEnv", "FindTheSpyGame"]
