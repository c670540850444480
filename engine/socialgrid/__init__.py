"""SocialGrid (seed 000): Among Us on a gridworld with the A* Planning Oracle; registers
`socialgrid`. The world kit (board, mapgen, moves, vision, oracle) is usable on its own."""

from engine.registry import register
from engine.socialgrid.config import SocialGridConfig
from engine.socialgrid.env import SocialGridEnv
from engine.socialgrid.rules import SocialGridGame

register(SocialGridEnv())

__all__ = ["SocialGridConfig", "SocialGridEnv", "SocialGridGame"]
