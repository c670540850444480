"""Hidden Role Deduction (SocialMaze, seed 003): registers `hidden-role`, a one-seat logic
puzzle. The rules kit — roles, generator, strict solver, explanation, data formats and answer
scoring — lives in the modules beside the env's (config, rules, text, metrics, env)."""

from engine.hidden_role.config import HiddenRoleConfig
from engine.hidden_role.env import HiddenRoleEnv
from engine.hidden_role.rules import HiddenRoleGame
from engine.registry import register

register(HiddenRoleEnv())

__all__ = ["HiddenRoleConfig", "HiddenRoleEnv", "HiddenRoleGame"]
