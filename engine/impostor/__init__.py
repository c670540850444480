"""The Impostor game (seed 001): registers `impostor`, a four-seat word game. The word pairs
(pairs.json, ours, four tiers of 75) live in words.py and the tier check in similarity.py,
beside the env's modules (config, syntax, rules, text, metrics, env). The paper's experiment
grid, its statistics and its published figures are grid.py, statistics.py and published.py
(imported by the league only: statistics needs numpy, scipy and statsmodels)."""

from engine.impostor.config import ImpostorConfig
from engine.impostor.env import ImpostorEnv
from engine.impostor.rules import ImpostorGame
from engine.registry import register

register(ImpostorEnv())

__all__ = ["ImpostorConfig", "ImpostorEnv", "ImpostorGame"]
