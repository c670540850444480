"""Social Graph Analysis (SocialMaze, spec socialmaze §6): registers `social-graph`, a one-seat
logic puzzle. The rules kit — generator, union-find solver, the four query types with their
answer formats and scoring, and dataset files — lives in the modules beside the env's (config,
rules, text, metrics, env)."""

from engine.registry import register
from engine.social_graph.config import SocialGraphConfig
from engine.social_graph.env import SocialGraphEnv
from engine.social_graph.rules import SocialGraphGame

register(SocialGraphEnv())

__all__ = ["SocialGraphConfig", "SocialGraphEnv", "SocialGraphGame"]
