"""Rating Estimation from Text (SocialMaze §5): the env's description, and where its bots live;
rules, text and metrics are the dataset-task kit's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config
from engine.dataset_task.env import DatasetEnv
from engine.dataset_task.metrics import labels
from engine.rating_estimation.config import PRESETS, RatingConfig
from engine.rating_estimation.task import TASK


class RatingEstimationEnv(DatasetEnv):
    id = "rating-estimation"
    title = "Rating Estimation from Text"
    description = ("Read a product's reviews without their stars, some written by shills, and "
                   "estimate its true rating from 1 to 5.")
    task = TASK
    Config = RatingConfig
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    scripted_bots = "bots.scripted.rating_estimation"
    metric_labels = labels(TASK)
