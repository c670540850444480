"""Review Decision Prediction (SocialMaze §7): the env's description, and where its bots live;
rules, text and metrics are the dataset-task kit's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config
from engine.dataset_task.env import DatasetEnv
from engine.dataset_task.metrics import labels
from engine.review_decision.config import PRESETS, ReviewConfig
from engine.review_decision.task import TASK


class ReviewDecisionEnv(DatasetEnv):
    id = "review-decision"
    title = "Review Decision Prediction"
    description = ("Follow a paper through peer review — abstract, reviews without scores, "
                   "rebuttal — and predict after each stage whether it is accepted.")
    task = TASK
    Config = ReviewConfig
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    scripted_bots = "bots.scripted.review_decision"
    metric_labels = labels(TASK)
