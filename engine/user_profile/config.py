"""User Profile Inference's table settings: the kit's (a synthetic instance from the table's
seed, or one from a file) and which query kind a synthetic instance asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.dataset_task.config import DatasetConfig
from engine.dataset_task.task import DatasetTask
from engine.user_profile.task import TASK


@dataclass(frozen=True)
class ProfileConfig(DatasetConfig):
    task: ClassVar[DatasetTask] = TASK

    # "mixed": a user query for an even seed, an item query for an odd one (the paper's
    # headline is the mean over the two kinds); ignored for an instance from a file.
    query: Literal["mixed", "user", "item"] = "mixed"


PRESETS = {"paper": ProfileConfig(), "user": ProfileConfig(query="user"),
           "item": ProfileConfig(query="item")}
