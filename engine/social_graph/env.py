"""Social Graph Analysis (SocialMaze §6): the env's description, text, metrics and where its
bots, prompts and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, Env, InvalidMovePolicy
from engine.policy import DEFAULT
from engine.social_graph import metrics, text
from engine.social_graph.config import PRESETS, SocialGraphConfig
from engine.social_graph.rules import SocialGraphGame


class SocialGraphEnv(Env):
    id = "social-graph"
    title = "Social Graph Analysis"
    description = ("A logic puzzle: from a few sentences about who gets along with whom, work "
                   "out the groups of friends and answer questions about them.")
    players = (1,)
    rules_version = "1"
    Config = SocialGraphConfig
    game_class = SocialGraphGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = ("Solver",)
    # The puzzle's people are letters ("A", "P"), never "Player N": the transcript check may
    # take "Player 3" / "P3" for a seat as usual.
    names_characters = False
    rating = "none"  # scored by accuracy (SocialMaze is a set of tasks, not a contest)
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    scripted_bots = "bots.scripted.social_graph"
    prompt_builder = "bots.prompts.social_graph:SocialGraphPrompts"
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

