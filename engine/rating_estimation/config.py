"""Rating Estimation's table settings: the kit's (a synthetic product from the table's seed, or
an instance from a file) with this task's instances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.dataset_task.config import DatasetConfig
from engine.dataset_task.task import DatasetTask
from engine.rating_estimation.task import TASK


@dataclass(frozen=True)
class RatingConfig(DatasetConfig):
    task: ClassVar[DatasetTask] = TASK


PRESETS = {"paper": RatingConfig()}  # the LLM-written half's setting: 8 reviews, synthetic here
