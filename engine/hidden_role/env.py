"""Hidden Role Deduction (SocialMaze §3): the env's description, text, metrics and where its
bots, prompts and widget live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config, Env, InvalidMovePolicy
from engine.hidden_role import metrics, text
from engine.hidden_role.config import PRESETS, HiddenRoleConfig
from engine.hidden_role.rules import HiddenRoleGame
from engine.policy import DEFAULT


class HiddenRoleEnv(Env):
    id = "hidden-role"
    title = "Hidden Role Deduction"
    description = ("A logic puzzle from Blood on the Clocktower: from who accused whom, round "
                   "by round, find the criminal and your own true role.")
    players = (1,)
    rules_version = "2"  # v2: puzzles drawn from 256-bit sub-seeds (engine/core.py derive_seed)
    Config = HiddenRoleConfig
    game_class = HiddenRoleGame
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    default_preset = "paper"
    seat_names = ("Solver",)  # the seat plays the puzzle's Player 1
    names_characters = True  # "Player 3" is one of the puzzle's players, not a seat
    rating = "none"  # scored by accuracy (SocialMaze is a set of tasks, not a contest)
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    scripted_bots = "bots.scripted.hidden_role"
    prompt_builder = "bots.prompts.hidden_role:HiddenRolePrompts"
    widget = "tui.widgets.hidden_role:HiddenRoleGame"  # the statements as a table, by round
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
    metric_labels = metrics.LABELS

