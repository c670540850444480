"""The env base class of the dataset tasks: one seat, scored by accuracy (rating scheme
"none"), the kit's rules, text and metrics; each task's env names its task, config, presets and
bots."""

from __future__ import annotations

from typing import ClassVar

from engine.core import Env, InvalidMovePolicy
from engine.dataset_task import metrics, text
from engine.dataset_task.rules import DatasetGame
from engine.dataset_task.task import DatasetTask
from engine.policy import DEFAULT


class DatasetEnv(Env):
    task: ClassVar[DatasetTask]
    players = (1,)
    # 2: a review with no text is shown as such and a release's own answer label is told at
    # the end (issue 21)
    rules_version = "2"
    game_class = DatasetGame
    default_preset = "paper"
    seat_names = ("Solver",)
    names_characters = False  # "Reviewer #2" and the like are not seats
    rating = "none"  # scored by accuracy (SocialMaze is a set of tasks, not a contest)
    invalid_moves = InvalidMovePolicy(retries=1, then=DEFAULT)
    prompt_builder = "bots.prompts.dataset_task:DatasetTaskPrompts"
    widget = "tui.widgets.dataset_task:DatasetTaskGame"  # the evidence by stage, newest in view
    text = text  # render, describe_event
    metrics = metrics  # game_metrics, aggregate_metrics
