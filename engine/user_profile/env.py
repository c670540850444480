"""User Profile Inference (SocialMaze §8): the env's description, and where its bots live;
rules, text and metrics are the dataset-task kit's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.core import Config
from engine.dataset_task.env import DatasetEnv
from engine.dataset_task.metrics import labels
from engine.user_profile.config import PRESETS, ProfileConfig
from engine.user_profile.task import TASK


class UserProfileEnv(DatasetEnv):
    id = "user-profile"
    title = "User Profile Inference"
    description = ("Read comments written online and infer who wrote them — age group and "
                   "gender — for one user, or for an item's main audience.")
    task = TASK
    Config = ProfileConfig
    presets: ClassVar[Mapping[str, Config]] = PRESETS
    scripted_bots = "bots.scripted.user_profile"
    metric_labels = labels(TASK)
