"""Review Decision Prediction's table settings: the kit's (a synthetic paper from the table's
seed, or an instance from a file) with this task's instances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.dataset_task.config import DatasetConfig
from engine.dataset_task.task import DatasetTask
from engine.review_decision.task import TASK


@dataclass(frozen=True)
class ReviewConfig(DatasetConfig):
    task: ClassVar[DatasetTask] = TASK


PRESETS = {"paper": ReviewConfig()}  # three stages, a prediction after each (Table 5)
